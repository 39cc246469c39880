import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderTray } from '../../server/synth/index.ts';
import { renderScene } from '../../server/synth/scene.ts';
import { writeSyntheticSet } from '../../server/synth/test-set.ts';
import { readYoloFolder } from '../../server/vision/yolo-dataset.ts';

describe('renderTray', () => {
  it('is deterministic from the seed and labels every die it draws', async () => {
    const a = await renderTray({ faces: [1, 2, 3, 4, 5, 6, 6], seed: 42 });
    const b = await renderTray({ faces: [1, 2, 3, 4, 5, 6, 6], seed: 42 });
    const c = await renderTray({ faces: [1, 2, 3, 4, 5, 6, 6], seed: 43 });
    expect(a.image.equals(b.image)).toBe(true);
    expect(a.image.equals(c.image)).toBe(false);
    expect(a.dice.map((d) => d.face).sort()).toEqual([1, 2, 3, 4, 5, 6, 6]);
    const meta = await sharp(a.image).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([640, 480]);
    for (const d of a.dice) {
      expect(d.x).toBeGreaterThan(0);
      expect(d.x).toBeLessThan(640);
      expect(d.y).toBeGreaterThan(0);
      expect(d.y).toBeLessThan(480);
      expect(d.w).toBeGreaterThan(20);
    }
  });

  it('places kept dice and honours the size', async () => {
    const r = await renderTray({ faces: [3, 3], seed: 7, width: 800, height: 600, style: { keptFaces: [6], colour: 'red', dieSize: 50 } });
    expect(r.width).toBe(800);
    expect(r.dice).toHaveLength(3);
    // kept zone is the right quarter of the tray
    expect(r.dice.filter((d) => d.x > 800 * 0.74)).toHaveLength(1);
  });

  it('rejects bad requests with clear errors', async () => {
    await expect(renderTray({ faces: [0], seed: 1 })).rejects.toThrow(/1\.\.6/);
    await expect(renderTray({ faces: [1.5], seed: 1 })).rejects.toThrow(/1\.\.6/);
    await expect(renderTray({ faces: [1], seed: 1, width: 10 })).rejects.toThrow(/width/);
    await expect(renderTray({ faces: [1], seed: Number.NaN })).rejects.toThrow(/seed/);
  });
});

describe('training scenes', () => {
  it('include unreadable dice with reasons, and test scenes never do', () => {
    const reasons = new Set<string>();
    for (let s = 0; s < 40; s++) {
      const sc = renderScene({ width: 320, height: 240, faces: [1, 2, 3, 4, 5, 6, 1, 2], seed: s, mode: 'train' });
      for (const d of sc.dice) if (d.unreadable) reasons.add(d.unreadable);
      const t = renderScene({ width: 320, height: 240, faces: [1, 2, 3, 4, 5, 6, 1, 2], seed: s, mode: 'test' });
      expect(t.dice.every((d) => d.unreadable === undefined)).toBe(true);
    }
    expect([...reasons].sort()).toEqual(['blurred', 'cocked', 'edge']);
  });
});

describe('writeSyntheticSet', () => {
  it('writes a YOLO folder that the evaluation reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-synth-'));
    try {
      await writeSyntheticSet(dir, 3, 5);
      const files = await readdir(dir);
      expect(files.filter((f) => f.endsWith('.jpg'))).toHaveLength(3);
      const set = await readYoloFolder(dir);
      expect(set).toHaveLength(3);
      const text = await readFile(join(dir, 'synthetic_0000.txt'), 'utf8');
      expect(set[0].labels.length).toBe(text.trim() === '' ? 0 : text.trim().split('\n').length);
      for (const l of set.flatMap((s) => s.labels)) {
        expect(l.cx).toBeGreaterThan(0);
        expect(l.cx).toBeLessThan(1);
        expect(l.face).toBeGreaterThanOrEqual(1);
        expect(l.face).toBeLessThanOrEqual(6);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('focus training scenes', () => {
  it('hold only small dice, and the ordinary recipe is unchanged by the option', async () => {
    const { syntheticSample } = await import('../../server/vision/training/samples.ts');
    let biggestOrdinary = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const focus = await syntheticSample(seed, true);
      const unit = focus.pixels.width / 640;
      // 18–45 px per 640 px width, ±10 % per die, leaning dice drawn up to 15 % bigger
      for (const d of focus.dice) expect(d.size!).toBeLessThanOrEqual(45 * 1.1 * 1.15 * unit + 1e-6);
      const ordinary = await syntheticSample(seed);
      const again = await syntheticSample(seed, false);
      expect(Buffer.from(again.pixels.data).equals(Buffer.from(ordinary.pixels.data))).toBe(true);
      for (const d of ordinary.dice) biggestOrdinary = Math.max(biggestOrdinary, d.size! / (ordinary.pixels.width / 640));
    }
    expect(biggestOrdinary).toBeGreaterThan(60);
  });
});
