import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dieSupport, LEAN_TILT, leaningPose, wallSupport } from '../../server/synth/leaning.ts';
import { Rng } from '../../server/synth/random.ts';
import { renderScene, type SceneOptions } from '../../server/synth/scene.ts';
import { syntheticSetScene, writeSyntheticSet } from '../../server/synth/test-set.ts';
import { SET_ASIDE_FILES } from '../../server/vision/set-aside-dice.ts';
import { classOf } from '../../server/vision/training/samples.ts';
import { readYoloFolder } from '../../server/vision/yolo-dataset.ts';

describe('a die leaning on a support (geometry)', () => {
  it('lies against its support, foreshortened across it, its base showing on the side away from it', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const pose = leaningPose({ x: 100, y: 200, nx: 1, ny: 0 }, 40, 1, new Rng(seed));
      expect(pose.squash).toBeGreaterThanOrEqual(Math.cos(LEAN_TILT[1]) - 1e-9);
      expect(pose.squash).toBeLessThanOrEqual(Math.cos(LEAN_TILT[0]) + 1e-9);
      // the top face's centre half its foreshortened side from the support, straight out from it
      expect(pose.cx - 100).toBeCloseTo((pose.size * pose.squash) / 2, 6);
      expect(pose.cy).toBe(200);
      // the base away from the support, by the sine of the tilt
      expect(pose.ox).toBeCloseTo(pose.size * Math.sqrt(1 - pose.squash ** 2), 6);
      expect(pose.oy).toBeCloseTo(0, 9);
      // foreshortened along the support's normal: the face's local y axis (-sin, cos) lies along (1, 0)
      expect(Math.abs(-Math.sin(pose.angle))).toBeGreaterThan(Math.cos(0.12) - 1e-9);
      // nearer the camera than a die lying flat: drawn as big or up to a tenth bigger
      expect(pose.size).toBeGreaterThanOrEqual(40);
      expect(pose.size).toBeLessThanOrEqual(44);
    }
  });

  it('rests on the edge of another die\'s top face, whichever way that die is turned', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const base = { cx: 300, cy: 200, size: 50, angle: seed / 7, ox: 0, oy: 0, squash: 1, blurX: 0, blurY: 0 };
      const s = dieSupport(base, new Rng(seed));
      expect(Math.hypot(s.nx, s.ny)).toBeCloseTo(1, 9);
      const d = Math.hypot(s.x - 300, s.y - 200);
      expect(d).toBeGreaterThanOrEqual(25 - 1e-9);
      expect(d).toBeLessThanOrEqual(25 * Math.SQRT2 + 1e-9);
      // the normal points straight out from the die's centre
      expect(((s.x - 300) * s.nx + (s.y - 200) * s.ny) / d).toBeCloseTo(1, 9);
    }
  });

  it('chooses only walls inside the frame, pointing into the tray, away from its corners', () => {
    const tray = { x0: 40, y0: -10, x1: 600, y1: 450 };
    const seen = new Set<string>();
    for (let seed = 1; seed <= 60; seed++) {
      const s = wallSupport(tray, 640, 480, 30, new Rng(seed))!;
      seen.add(`${s.nx},${s.ny}`);
      if (s.nx !== 0) expect(s.y).toBeGreaterThanOrEqual(30);
      else expect(s.x).toBeGreaterThanOrEqual(70);
      // the inward normal: from the wall towards the tray's middle
      expect((320 - s.x) * s.nx + (220 - s.y) * s.ny).toBeGreaterThan(0);
    }
    // the top wall lies outside the frame
    expect([...seen].sort()).toEqual(['-1,0', '0,-1', '1,0']);
    expect(wallSupport({ x0: -5, y0: -5, x1: 700, y1: 500 }, 640, 480, 30, new Rng(1))).toBeNull();
  });
});

describe('scenes with leaning dice', () => {
  const options = (seed: number, leaning: boolean): SceneOptions => ({ width: 640, height: 480, faces: [1, 2, 3, 4, 5, 6], seed, mode: 'test', colour: 'any', dieSize: 45, leaning });

  it('add one to three unreadable leaning dice, on dice and against walls, and place the readable dice as without them', () => {
    const on = { die: 0, wall: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const plain = renderScene(options(seed, false));
      const scene = renderScene(options(seed, true));
      const leaning = scene.dice.filter((d) => d.unreadable === 'cocked');
      expect(leaning.length).toBeLessThanOrEqual(3);
      for (const d of leaning) on[d.leansOn!]++;
      const flat = scene.dice.filter((d) => !d.unreadable);
      expect(flat.map((d) => [d.x, d.y, d.face])).toEqual(plain.dice.map((d) => [d.x, d.y, d.face]));
      // the whole die in the frame: its top face at least half a side in, its box never clipped to less than a side
      for (const d of leaning) {
        expect(Math.min(d.x, d.y, 640 - d.x, 480 - d.y)).toBeGreaterThanOrEqual(d.size * 0.45);
        expect(Math.max(d.w, d.h)).toBeGreaterThan(d.size);
      }
      expect(plain.dice.every((d) => d.unreadable === undefined && d.leansOn === undefined)).toBe(true);
    }
    expect(on.die).toBeGreaterThan(20);
    expect(on.wall).toBeGreaterThan(5);
  });

  it('teach a leaning die as the cocked class', () => {
    const die = { x: 0, y: 0, w: 10, h: 10, size: 10, face: 4, pips: [] };
    expect(classOf({ ...die, unreadable: 'cocked', leansOn: 'wall' })).toBe(7);
  });

  it('make a test set that lists its leaning dice apart from the labels', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'leaning-set-'));
    try {
      await writeSyntheticSet(dir, 6, 2, undefined, 'leaning');
      const onDice = JSON.parse(await readFile(join(dir, SET_ASIDE_FILES.leaningOnDice.file), 'utf8'));
      const onWall = JSON.parse(await readFile(join(dir, SET_ASIDE_FILES.leaningOnWall.file), 'utf8'));
      const labelled = await readYoloFolder(dir);
      for (let i = 0; i < 6; i++) {
        const { scene } = syntheticSetScene(i, 2, 'leaning');
        const name = `synthetic_000${i}.jpg`;
        const count = (on: 'die' | 'wall') => scene.dice.filter((d) => d.leansOn === on).length;
        expect(onDice[name]?.length ?? 0).toBe(count('die'));
        expect(onWall[name]?.length ?? 0).toBe(count('wall'));
        expect(labelled.find((l) => l.relPath === name)!.labels.length).toBe(scene.dice.filter((d) => !d.unreadable).length);
      }
      expect(Object.keys(onDice).length + Object.keys(onWall).length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
