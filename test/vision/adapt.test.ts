import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { checkScore, splitForCheck, tablePhotoSample } from '../../server/vision/training/adapt.ts';
import { CLASS_COCKED, type ModelSpec } from '../../server/vision/spec.ts';
import { modelName, taughtCheckOf, taughtPhotosOf } from '../../server/vision/model-store.ts';
import { readYoloFolder } from '../../server/vision/yolo-dataset.ts';
import { syntheticSetLook, syntheticSetScene, tableDiceLook, writeSyntheticSet } from '../../server/synth/test-set.ts';
import { renderScene } from '../../server/synth/scene.ts';
import type { DieLook } from '../../server/synth/die.ts';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const cli = ['--import', 'tsx', join(repoRoot, 'server/cli/adapt-model.ts')];

describe('splitForCheck', () => {
  it('keeps every k-th photo back, the first among them, and teaches the rest', () => {
    const photos = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(splitForCheck(photos, 3)).toEqual({ teach: ['b', 'c', 'e', 'f'], check: ['a', 'd', 'g'] });
    expect(splitForCheck(photos, 2)).toEqual({ teach: ['b', 'd', 'f'], check: ['a', 'c', 'e', 'g'] });
  });

  it('keeps none back for 0 and refuses a split that would teach nothing', () => {
    expect(splitForCheck(['a', 'b'], 0)).toEqual({ teach: ['a', 'b'], check: [] });
    expect(() => splitForCheck(['a'], 1)).toThrow(RangeError);
    expect(() => splitForCheck(['a'], -2)).toThrow(RangeError);
    expect(() => splitForCheck(['a'], 2.5)).toThrow(RangeError);
  });
});

describe("a synthetic table's dice ('table' sets)", () => {
  it('draws every die of every frame in the one look of the colour asked for', () => {
    const look = tableDiceLook(1, 'marbled');
    expect(look.marble).toBeDefined();
    expect(tableDiceLook(1, 'marbled')).toEqual(look);
    expect(tableDiceLook(2, 'marbled')).not.toEqual(look);
    expect(tableDiceLook(1, 'red').marble).toBeUndefined();
    expect(syntheticSetLook(5, 1, 'table', 'translucent')).toBe('translucent');
    // the same look in frames drawn apart: their dice's top-face pixels share the body colours
    const a = syntheticSetScene(0, 1, 'table', 'red').scene;
    const b = syntheticSetScene(7, 1, 'table', 'red').scene;
    expect(a.dice.length).toBeGreaterThan(0);
    expect(b.dice.length).toBeGreaterThan(0);
    expect(syntheticSetScene(0, 1, 'table', 'red').scene.dice).toEqual(a.dice);
  });

  it('renderScene with a look draws every die in it: each face-2 die green at its centre, between its pips', () => {
    const green: DieLook = { body: [0.1, 0.8, 0.1], pip: [0.95, 0.95, 0.95], opacity: 1, pipRadius: 0.09, pipSpacing: 0.26, corner: 0.15, bigOne: 1 };
    for (const seed of [3, 4, 5]) {
      const { image, dice } = renderScene({ width: 640, height: 480, faces: [2, 2, 2, 2, 2, 2, 2, 2], seed, mode: 'test', dieSize: 50, look: green });
      expect(dice.length).toBeGreaterThan(0);
      for (const d of dice) {
        const i = (Math.round(d.y) * 640 + Math.round(d.x)) * 3;
        const [r, g, b] = image.data.subarray(i, i + 3);
        expect(g, `die at ${d.x.toFixed(0)},${d.y.toFixed(0)} of scene ${seed}`).toBeGreaterThan(1.5 * Math.max(r, b));
      }
    }
  });
});

describe('tablePhotoSample', () => {
  it("makes a labelled photo's dice faces and its cocked dice unreadable, in pixels", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'table-photo-'));
    try {
      await writeSyntheticSet(dir, 1, 3, undefined, 'table', 'blue');
      const [photo] = await readYoloFolder(dir);
      const s = await tablePhotoSample(photo, [{ x: 0.5, y: 0.5, w: 0.1, h: 0.05 }]);
      expect(s.pixels.width).toBe(640);
      expect(s.dice).toHaveLength(photo.labels.length + 1);
      photo.labels.forEach((l, i) => {
        expect(s.dice[i].cls).toBe(l.face - 1);
        expect(s.dice[i].x).toBeCloseTo(l.cx * 640, 6);
        expect(s.dice[i].size).toBeGreaterThan(0);
      });
      expect(s.dice.at(-1)).toEqual({ x: 320, y: 240, size: 64 * 0.85, cls: CLASS_COCKED });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('modelName', () => {
  it("names the version, and the table's photos a taught model learned from", () => {
    const spec = { version: '1.22.0' } as ModelSpec;
    expect(modelName({ spec, training: {} })).toBe('1.22.0');
    expect(modelName({ spec, training: { tableDice: { teachPhotos: 20, date: '2026-12-02T08:00:00.000Z' } } })).toBe("1.22.0, taught 20 photos of a table's dice on 2026-12-02");
  });

  it('taughtCheckOf: the check on the photos kept back a taught model records, none when it is missing or damaged', () => {
    const figures = { photos: 3, dice: 12, faceAccuracy: 0.75, recall: 1, precision: 0.9, extra: 1 };
    expect(taughtCheckOf({ training: { tableDice: { check: { before: { ...figures, cockedDice: 2 }, after: figures } } } })).toEqual({ before: figures, after: figures });
    expect(taughtCheckOf({ training: {} })).toBeNull();
    expect(taughtCheckOf({ training: { tableDice: { check: { before: figures } } } })).toBeNull();
    expect(taughtCheckOf({ training: { tableDice: { check: { before: figures, after: { ...figures, recall: '1' } } } } })).toBeNull();
  });

  it('taughtPhotosOf: the folder and the photos a taught model learned from, none for the shipped one', () => {
    expect(taughtPhotosOf({ training: {} })).toBeNull();
    expect(taughtPhotosOf({ training: { tableDice: { photos: '/data/dice-samples', taught: ['a.jpg', 7, 'b.jpg'] } } })).toEqual({ folder: '/data/dice-samples', photos: ['a.jpg', 'b.jpg'] });
  });
});

describe('checkScore', () => {
  it('counts right faces less extra dice over the labelled dice', () => {
    expect(checkScore({ dice: 100, faceAccuracy: 0.95, extra: 2 })).toBeCloseTo(0.93, 10);
    expect(checkScore({ dice: 0, faceAccuracy: 0, extra: 3 })).toBe(0);
  });
});

async function adapt(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [...cli, ...args], { cwd: repoRoot, maxBuffer: 1 << 24 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe('npm run model:adapt', () => {
  it('refuses bad arguments with its usage, before any teaching', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adapt-args-'));
    try {
      const cases: [string[], string][] = [
        [['--out', join(dir, 'out')], '--photos DIR is needed'],
        [['--photos', join(dir, 'missing'), '--out', join(dir, 'out')], 'is not a folder'],
        [['--photos', dir], '--out DIR is needed'],
        [['--photos', dir, '--out', join(dir, 'out')], 'no labelled photos in --photos'],
        [['--photos', dir, '--out', join(dir, 'out'), '--check-every', '1'], '--check-every 1 would keep every photo back'],
        [['--photos', dir, '--out', join(dir, 'out'), '--check', dir, '--check-every', '3'], 'give one'],
        [['--photos', dir, '--out', join(dir, 'out'), '--epochs', '0'], '--epochs must be an integer from 1 to 50'],
        [['--photos', dir, '--out', join(dir, 'out'), '--learning-rate', 'fast'], '--learning-rate must be a number'],
        [['--photos', dir, '--out', join(dir, 'out'), '--detector-steps', 'many'], '--detector-steps must be an integer'],
        [['--photos', dir, '--out', join(dir, 'out'), '--detector-learning-rate', '2'], '--detector-learning-rate must be a number between 0 and 1'],
        [['--photos', dir, '--out', join(repoRoot, 'models')], 'is the model taught from'],
        [['--photos', dir, '--out', join(repoRoot, 'server')], 'holds something other than a dice model'],
      ];
      const results = await Promise.all(cases.map(([args]) => adapt(args)));
      results.forEach((r, i) => {
        expect(r.code, cases[i][1]).toBe(2);
        expect(r.stderr).toContain(cases[i][1]);
        expect(r.stderr).toContain('usage: npm run model:adapt');
        expect(r.stderr).not.toContain('    at ');
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("teaches a table's photos, checks on the ones kept back and writes the model only as good or better", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adapt-run-'));
    try {
      const photos = join(dir, 'photos');
      await writeSyntheticSet(photos, 4, 2, undefined, 'table', 'marbled');
      await writeFile(join(photos, 'cocked.json'), JSON.stringify({ 'synthetic_0001.jpg': [{ x: 0.05, y: 0.05, w: 0.05, h: 0.05 }] }));
      // a damaged photo among those taught is left out, named, and the rest still teach
      await writeFile(join(photos, 'synthetic_0004.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]));
      await writeFile(join(photos, 'synthetic_0004.txt'), '0 0.5 0.5 0.1 0.1\n');
      const out = join(dir, 'taught');
      const r = await adapt(['--photos', photos, '--out', out, '--check-every', '3', '--scenes', '2', '--real-photos', '0', '--epochs', '1', '--per-die', '2', '--detector-steps', '3', '--keep-worse']);
      expect(r.stderr).not.toContain('    at ');
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect(result.tableDice).toMatchObject({ teachPhotos: 2, checkPhotos: 2, teachCocked: 1, leftOut: ['synthetic_0004.jpg'] });
      expect(r.stderr).toContain('synthetic_0004.jpg left out:');
      expect(result.before.photos).toBe(2);
      expect(result.after.dice).toBe(result.before.dice);
      expect(result.written).toBe(true);
      expect(r.stdout).toMatch(/^before: \d+ dice on 2 photos, face/m);
      expect(r.stdout).toMatch(/^after: \d+ dice on 2 photos, face/m);
      const spec = JSON.parse(await readFile(join(out, 'spec.json'), 'utf8'));
      expect(spec.training.tableDice.teachPhotos).toBe(2);
      // the check goes with the model written
      expect(spec.training.tableDice.check).toEqual({ before: result.before, after: result.after });
      expect(r.stderr).toContain(`FLIGHTDECK_MODEL=${out}`);
      expect(spec.training.classifierRuns.at(-1).command).toContain('npm run model:adapt');
      expect(spec.training.detectorRuns.at(-1)).toMatchObject({ detectorSteps: 3, tableDice: { teachPhotos: 2 } });
      expect(existsSync(join(out, 'detector', 'model.json'))).toBe(true);
      expect(existsSync(join(out, 'classifier', 'model.json'))).toBe(true);
      expect(existsSync(`${out}.part`)).toBe(false);
      // the photos it was taught are named, and dice:eval leaves them out of the taught model's figures
      expect(spec.training.tableDice.taught).toEqual(['synthetic_0001.jpg', 'synthetic_0002.jpg']);
      const evaluated = await run(process.execPath, ['--import', 'tsx', join(repoRoot, 'server/cli/dice-eval.ts'), '--model', out, '--data', photos], { cwd: repoRoot });
      expect(evaluated.stdout).toContain('photos this model was taught (npm run model:adapt), left out: 2 of 5');
      expect(evaluated.stdout).toContain("taught 2 photos of a table's dice on");
      expect(JSON.parse(evaluated.stdout.trim().split('\n').at(-1)!).images).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
