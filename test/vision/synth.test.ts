import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderTray } from '../../server/synth/index.ts';
import { closeCameraSides, luminance, MARBLED_PIP_CONTRAST, randomLook, renderScene } from '../../server/synth/scene.ts';
import { Rng } from '../../server/synth/random.ts';
import { topPipCentres, topPipsInFrame, type DieLook, type DiePose } from '../../server/synth/die.ts';
import { LARGE_FRAMES, syntheticSetScene, writeSyntheticSet } from '../../server/synth/test-set.ts';
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

describe('randomLook', () => {
  it('gives marbled dice pips that show on both of their colours, so no pip vanishes into a swirl', () => {
    // a rare pair of colours leaves no pip colour 0.15 from both: its best one is then still 0.13 away
    const rareBest = 0.02;
    let lowest = 1;
    for (let seed = 0; seed < 3000; seed++) {
      const look = randomLook(new Rng(seed), 'marbled');
      expect(look.marble).toBeDefined();
      const pip = luminance(look.pip);
      lowest = Math.min(lowest, Math.abs(pip - luminance(look.body)), Math.abs(pip - luminance(look.marble!)));
    }
    expect(lowest).toBeGreaterThanOrEqual(MARBLED_PIP_CONTRAST - rareBest);
  });

  it('gives marbled dice the faintest pips that still show when asked, from the same random stream', () => {
    const contrast = (look: DieLook): number =>
      Math.min(Math.abs(luminance(look.pip) - luminance(look.body)), Math.abs(luminance(look.pip) - luminance(look.marble!)));
    let fainter = 0;
    for (let seed = 0; seed < 500; seed++) {
      const rngAny = new Rng(seed);
      const rngFaint = new Rng(seed);
      const any = randomLook(rngAny, 'marbled');
      const faint = randomLook(rngFaint, 'marbled', true);
      expect(rngFaint.next()).toBe(rngAny.next());
      expect([faint.body, faint.marble, faint.pipRadius]).toEqual([any.body, any.marble, any.pipRadius]);
      // both draw the same jitter (±0.05 a channel), which may move their contrasts by up to 0.05 each
      expect(contrast(faint)).toBeLessThanOrEqual(contrast(any) + 0.1);
      if (contrast(any) >= MARBLED_PIP_CONTRAST) expect(contrast(faint)).toBeGreaterThanOrEqual(MARBLED_PIP_CONTRAST);
      if (contrast(faint) < contrast(any) - 0.06) fainter++;
    }
    expect(fainter).toBeGreaterThan(100);
    const plain = randomLook(new Rng(7), 'red');
    expect(randomLook(new Rng(7), 'red', true)).toEqual(plain);
  });

  it('gives plain dice pips that contrast with the body', () => {
    for (let seed = 0; seed < 1000; seed++) {
      const look = randomLook(new Rng(seed), 'any');
      if (look.marble || look.opacity < 1) continue;
      expect(Math.abs(luminance(look.pip) - luminance(look.body))).toBeGreaterThan(0.3);
    }
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

  it('never draw a die lying flat over another (a hidden die labelled readable)', () => {
    let touching = 0;
    for (let s = 0; s < 60; s++) {
      for (const mode of ['train', 'test'] as const) {
        const sc = renderScene({ width: 320, height: 240, faces: [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6], seed: s, mode, dieSize: 45 });
        const flat = sc.dice.filter((d) => d.unreadable !== 'cocked');
        flat.forEach((a, i) =>
          flat.slice(i + 1).forEach((b) => {
            // squares that do not overlap lie at least their mean size apart (less the 2 % sliver allowed)
            const apart = Math.hypot(a.x - b.x, a.y - b.y) / ((a.size + b.size) / 2);
            expect(apart).toBeGreaterThan(0.97);
            if (apart < 1.3) touching++;
          }),
        );
      }
    }
    expect(touching).toBeGreaterThan(20);
  });

  it('call a die cut by the frame edge unreadable only when a pip of its top face is cut', () => {
    let readableCut = 0;
    let edge = 0;
    for (let s = 0; s < 120; s++) {
      const sc = renderScene({ width: 320, height: 240, faces: [1, 2, 3, 4, 5, 6, 1, 2], seed: s, mode: 'train' });
      for (const d of sc.dice) {
        const beyond = Math.max(-(d.x - d.size / 2), d.x + d.size / 2 - 320, -(d.y - d.size / 2), d.y + d.size / 2 - 240);
        if (d.unreadable === 'edge') {
          edge++;
          expect(beyond).toBeGreaterThan(0);
        } else if (!d.unreadable && beyond > 0) readableCut++;
      }
    }
    expect(edge).toBeGreaterThan(0);
    expect(readableCut).toBeGreaterThan(0);
  });
});

describe('synthetic test sets', () => {
  it('never label a die whose pips the frame cuts, even where the tray reaches past the frame', () => {
    // scenes of the seed-4 set that, before placement checked the frame, had a die with its centre
    // within 0.06 × size of the edge or beyond it
    for (const i of [15, 19, 284, 551, 633, 675, 706, 902]) {
      const { scene } = syntheticSetScene(i, 4);
      for (const d of scene.dice) {
        // every face's pips lie in pairs symmetric about the centre: both inside the frame puts the
        // centre at least a pip radius (≥ 0.075 × size) inside
        const margin = Math.min(d.x, 640 - d.x, d.y, 480 - d.y) / d.size;
        expect(margin).toBeGreaterThan(0.075);
      }
    }
  });
});

describe('topPipsInFrame', () => {
  const look = { body: [1, 1, 1], pip: [0, 0, 0], opacity: 1, pipRadius: 0.1, pipSpacing: 0.25, corner: 0.2, bigOne: 1 } as DieLook;
  const pose = (cx: number, angle = 0): DiePose => ({ cx, cy: 100, size: 40, angle, ox: 0, oy: 0, squash: 1, blurX: 0, blurY: 0 });

  it('sees whether every pip of the face is wholly inside the frame', () => {
    // face 10 px beyond the left edge: the centre pip (x 10, radius 4) is in, the corner pips (x 0) are not
    expect(topPipsInFrame(pose(10), 1, look, 320, 240)).toBe(true);
    expect(topPipsInFrame(pose(10), 4, look, 320, 240)).toBe(false);
    // 2 px beyond: the corner pips (x 8 ± 4) are in
    expect(topPipsInFrame(pose(18), 6, look, 320, 240)).toBe(true);
    // turned 45°, the corner pips reach 14 px from the centre along the axis
    expect(topPipsInFrame(pose(18, Math.PI / 4), 4, look, 320, 240)).toBe(false);
    expect(topPipsInFrame(pose(300), 5, look, 320, 240)).toBe(true);
    expect(topPipsInFrame(pose(310), 5, look, 320, 240)).toBe(false);
  });

  it('places the pips of a turned face where the face is', () => {
    const [a, b] = topPipCentres(pose(100, Math.PI / 2), 2, look);
    // a 2's pips at (∓10, ∓10) from the centre, turned a quarter: (±10, ∓10)
    expect(a[0]).toBeCloseTo(110, 6);
    expect(a[1]).toBeCloseTo(90, 6);
    expect(b[0]).toBeCloseTo(90, 6);
    expect(b[1]).toBeCloseTo(110, 6);
    expect(topPipCentres(pose(100), 6, look)).toHaveLength(6);
  });

  it('are labelled with every scene die, as many as its face, on its top face', () => {
    const { scene } = syntheticSetScene(3, 4);
    for (const d of scene.dice) {
      expect(d.pips).toHaveLength(d.face);
      for (const [x, y] of d.pips) expect(Math.hypot(x - d.x, y - d.y)).toBeLessThan(0.45 * d.size);
    }
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
      const focus = await syntheticSample(seed, { focus: true });
      const unit = focus.pixels.width / 640;
      // 18–45 px per 640 px width, ±10 % per die, leaning dice drawn up to 15 % bigger
      for (const d of focus.dice) expect(d.size!).toBeLessThanOrEqual(45 * 1.1 * 1.15 * unit + 1e-6);
      const ordinary = await syntheticSample(seed);
      const again = await syntheticSample(seed, { focus: false, hardLook: false });
      expect(Buffer.from(again.pixels.data).equals(Buffer.from(ordinary.pixels.data))).toBe(true);
      const close = await syntheticSample(seed, { closeCamera: true });
      expect(close.dice).toEqual(ordinary.dice);
      for (const d of ordinary.dice) biggestOrdinary = Math.max(biggestOrdinary, d.size! / (ordinary.pixels.width / 640));
    }
    expect(biggestOrdinary).toBeGreaterThan(60);
  });
});

describe('hard-look training scenes', () => {
  it('draw dice of every size, unlike focus scenes, in another look than the ordinary scene of the same seed', async () => {
    const { syntheticSample } = await import('../../server/vision/training/samples.ts');
    let biggest = 0;
    let differ = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const hard = await syntheticSample(seed, { hardLook: true });
      const ordinary = await syntheticSample(seed);
      for (const d of hard.dice) biggest = Math.max(biggest, d.size! / (hard.pixels.width / 640));
      if (!Buffer.from(hard.pixels.data).equals(Buffer.from(ordinary.pixels.data))) differ++;
      const focus = await syntheticSample(seed, { focus: true, hardLook: true });
      expect(Buffer.from(focus.pixels.data).equals(Buffer.from((await syntheticSample(seed, { focus: true })).pixels.data))).toBe(true);
    }
    expect(biggest).toBeGreaterThan(60);
    expect(differ).toBeGreaterThan(8);
  });
});

describe('marbled training scenes', () => {
  it('give focus and hard-look scenes another look of the same frame and faces, and leave an ordinary scene as it was', async () => {
    const { syntheticSample } = await import('../../server/vision/training/samples.ts');
    let differ = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const ordinary = await syntheticSample(seed);
      const marbledOrdinary = await syntheticSample(seed, { marbled: true });
      expect(Buffer.from(marbledOrdinary.pixels.data).equals(Buffer.from(ordinary.pixels.data))).toBe(true);
      for (const kind of [{ focus: true }, { hardLook: true }]) {
        const plain = await syntheticSample(seed, kind);
        const marbled = await syntheticSample(seed, { ...kind, marbled: true });
        expect([marbled.pixels.width, marbled.pixels.height]).toEqual([plain.pixels.width, plain.pixels.height]);
        if (!Buffer.from(marbled.pixels.data).equals(Buffer.from(plain.pixels.data))) differ++;
      }
    }
    // a drawn hard look may itself be marbled (2 in 11), so not every pair differs
    expect(differ).toBeGreaterThan(6);
  });

  it('draw the faintest pips when asked, changing only the pips of the same frame', async () => {
    const { syntheticSample } = await import('../../server/vision/training/samples.ts');
    let differ = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const marbled = await syntheticSample(seed, { focus: true, marbled: true });
      const faint = await syntheticSample(seed, { focus: true, marbled: true, faintPips: true });
      expect(faint.dice.map((d) => [d.x, d.y, d.cls])).toEqual(marbled.dice.map((d) => [d.x, d.y, d.cls]));
      if (!Buffer.from(faint.pixels.data).equals(Buffer.from(marbled.pixels.data))) differ++;
    }
    // a die whose swirls allow only one pip colour looks the same either way
    expect(differ).toBeGreaterThan(2);
  });
});

describe('close-camera scenes', () => {
  it('show the sides of the dice towards the frame centre, more the further out and the closer the camera', () => {
    expect(closeCameraSides(320, 240, 60, 640, 480, 1)).toEqual([0, 0]);
    const [rx, ry] = closeCameraSides(620, 240, 60, 640, 480, 1);
    expect(rx).toBeCloseTo(-(300 * 60) / 640);
    expect(ry).toBe(0);
    const [lx, ly] = closeCameraSides(20, 20, 60, 640, 480, 1);
    expect(lx).toBeGreaterThan(0);
    expect(ly).toBeGreaterThan(0);
    expect(closeCameraSides(20, 20, 60, 640, 480, 0.7)[0]).toBeGreaterThan(lx);
  });

  it('put every die where the far camera does, and change only how the dice look', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const opts = { width: 640, height: 480, faces: [1, 2, 3, 4, 5, 6], seed, mode: 'test' as const, dieSize: 60 };
      const far = renderScene(opts);
      const close = renderScene({ ...opts, focal: 0.8 });
      expect(close.dice.map((d) => [d.x, d.y, d.size, d.face])).toEqual(far.dice.map((d) => [d.x, d.y, d.size, d.face]));
      expect(Buffer.from(close.image.toBytes()).equals(Buffer.from(far.image.toBytes()))).toBe(false);
    }
  });
});

describe('large-frame test scenes', () => {
  it('draw the coloured set\'s dice at 20–70 px in HD webcam frames, whatever the frame\'s width', () => {
    const sizes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const { scene } = syntheticSetScene(i, 1, 'large-frame');
      const { width, height } = scene.image;
      sizes.add(`${width}x${height}`);
      expect(LARGE_FRAMES.some(([w, h]) => w === width && h === height)).toBe(true);
      expect(scene.dice.length).toBeGreaterThanOrEqual(1);
      expect(scene.dice.length).toBeLessThanOrEqual(25);
      // a die's top face is drawn smaller than the drawn size when tilted or shrunk to fit, never larger
      for (const d of scene.dice) expect(d.size).toBeLessThanOrEqual(71);
      const sizesHere = scene.dice.map((d) => d.size);
      expect(Math.max(...sizesHere)).toBeGreaterThan(14);
    }
    expect(sizes.size).toBeGreaterThan(1);
  });
});

describe('crowded scenes', () => {
  it('fill a test tray with 13–25 readable dice, where the coloured set holds at most 12', () => {
    let most = 0;
    for (let i = 0; i < 8; i++) {
      const { scene } = syntheticSetScene(i, 1, 'crowded');
      // a die that finds no room even shrunk is left out, so a tray may hold a few fewer than drawn
      expect(scene.dice.length).toBeGreaterThan(10);
      expect(scene.dice.length).toBeLessThanOrEqual(25);
      for (const d of scene.dice) expect(d.unreadable).toBeUndefined();
      most = Math.max(most, scene.dice.length);
      const coloured = syntheticSetScene(i, 1, 'coloured').scene;
      expect(coloured.dice.length).toBeLessThanOrEqual(12);
    }
    expect(most).toBeGreaterThan(18);
  });

  it('fill a training frame with more dice than any plain scene, and leave the plain scene as it was', async () => {
    const { syntheticSample } = await import('../../server/vision/training/samples.ts');
    let most = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const crowded = await syntheticSample(seed, { crowded: true });
      const plain = await syntheticSample(seed);
      const again = await syntheticSample(seed, { crowded: false });
      expect(Buffer.from(again.pixels.data).equals(Buffer.from(plain.pixels.data))).toBe(true);
      // training drops a die that does not fit, and a full tray drops more
      expect(crowded.dice.length).toBeGreaterThan(plain.dice.length);
      most = Math.max(most, crowded.dice.length);
      const unit = crowded.pixels.width / 640;
      // 20–70 px, ±10 % per die, leaning dice drawn up to 15 % bigger
      for (const d of crowded.dice) expect(d.size!).toBeLessThanOrEqual(70 * 1.1 * 1.15 * unit + 1e-6);
    }
    expect(most).toBeGreaterThan(14);
  });
});
