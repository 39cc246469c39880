/**
 * Photos of the players' own dice saved with their labels: the checks on what a player sends, the
 * folder the store writes (read back by the evaluation's own readers), and `npm run dice:eval` on it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Frame } from '../../server/hardware/ports.ts';
import { DiceSampleStore, sampleStem } from '../../server/store/dice-sample-store.ts';
import { syntheticSetScene } from '../../server/synth/test-set.ts';
import { checkSampleDice, MAX_SAMPLE_DICE, parseReadRegions, READ_REGIONS_FILE, sampleLabels, SampleError, type SampleDie } from '../../server/vision/dice-sample.ts';
import { parseSetAsideDice, SET_ASIDE_FILES } from '../../server/vision/set-aside-dice.ts';
import { readYoloFolder } from '../../server/vision/yolo-dataset.ts';
import { evaluateFolder } from '../../server/vision/evaluate-folder.ts';
import type { DiceReader } from '../../server/hardware/ports.ts';

const AT = Date.UTC(2026, 11, 2, 6, 15, 4, 123);
const die = (over: Partial<Record<keyof SampleDie, unknown>> = {}) => ({ x: 100, y: 80, w: 30, h: 28, face: 4, ...over });

describe('checkSampleDice', () => {
  it('takes faces 1..6 and "cocked" for dice inside the frame', () => {
    const dice = [die(), die({ face: 'cocked', x: 0, y: 480 }), die({ face: 1, x: 640, w: 640, h: 480 })];
    expect(checkSampleDice(dice, 640, 480)).toEqual(dice);
    expect(checkSampleDice([], 640, 480)).toEqual([]);
  });

  it('refuses a die outside the part of the photo the camera reads', () => {
    const tray = { x: 0.25, y: 0.25, w: 0.5, h: 0.5 };
    expect(checkSampleDice([die({ x: 160, y: 120 }), die({ x: 480, y: 360 }), die({ x: 320, y: 240 })], 640, 480, tray)).toHaveLength(3);
    for (const [x, y] of [[159, 240], [481, 240], [320, 119], [320, 361]]) {
      expect(() => checkSampleDice([die({ x: 320, y: 240 }), die({ x, y })], 640, 480, tray)).toThrow(`die 2: its centre (${x}, ${y}) lies outside the part of the photo the camera reads`);
    }
  });

  it('refuses, naming the die and the field, anything else', () => {
    const cases: [unknown, RegExp][] = [
      [{ dice: 1 }, /dice must be a list/],
      [[null], /die 1: expected \{ x, y, w, h, face \}/],
      [[die(), die({ x: '5' })], /die 2: x must be a number of pixels/],
      [[die({ h: Number.NaN })], /die 1: h must be a number of pixels/],
      [[die({ x: 641 })], /die 1: its centre \(641, 80\) is outside the 640×480 frame/],
      [[die({ y: -1 })], /outside the 640×480 frame/],
      [[die({ w: 1 })], /die 1: its size 1×28 px is not between 2 px and the frame's/],
      [[die({ h: 481 })], /its size 30×481 px/],
      [[die({ face: 7 })], /die 1: face must be 1 to 6, or "cocked" .*\(got 7\)/],
      [[die({ face: 2.5 })], /face must be 1 to 6/],
      [[die({ face: 'leaning' })], /\(got "leaning"\)/],
      [[die({ face: undefined })], /\(got nothing\)/],
      [Array.from({ length: MAX_SAMPLE_DICE + 1 }, () => die()), new RegExp(`at most ${MAX_SAMPLE_DICE} dice a photo \\(got ${MAX_SAMPLE_DICE + 1}\\)`)],
    ];
    for (const [dice, message] of cases) {
      expect(() => checkSampleDice(dice, 640, 480)).toThrow(SampleError);
      expect(() => checkSampleDice(dice, 640, 480)).toThrow(message);
    }
  });
});

describe('sampleLabels', () => {
  it('puts faces on label lines and cocked dice aside, both as fractions of the frame', () => {
    const { labels, cocked } = sampleLabels(
      [
        { x: 320, y: 120, w: 64, h: 48, face: 6 },
        { x: 64, y: 240, w: 32, h: 24, face: 'cocked' },
      ],
      640,
      480,
    );
    expect(labels).toEqual([{ cx: 0.5, cy: 0.25, w: 0.1, h: 0.1, face: 6 }]);
    expect(cocked).toEqual([{ x: 0.1, y: 0.5, w: 0.05, h: 0.05 }]);
  });
});

describe('parseReadRegions', () => {
  it('reads each photo\'s region, and names the photo and field of a bad one', () => {
    expect(parseReadRegions('{"a.jpg": {"x": 0.1, "y": 0, "w": 0.5, "h": 1}}', 'r.json')).toEqual(new Map([['a.jpg', { x: 0.1, y: 0, w: 0.5, h: 1 }]]));
    expect(() => parseReadRegions('[', 'r.json')).toThrow(/^r\.json: not JSON/);
    expect(() => parseReadRegions('[]', 'r.json')).toThrow(/r\.json: expected an object/);
    expect(() => parseReadRegions('{"a.jpg": {"x": 0.1, "y": 0, "w": 0.5}}', 'r.json')).toThrow(/r\.json: "a\.jpg": region\.h must be a number/);
    expect(() => parseReadRegions('{"a.jpg": {"x": 0.6, "y": 0, "w": 0.5, "h": 1}}', 'r.json')).toThrow(/"a\.jpg": region .* must lie inside the image/);
  });
});

describe('DiceSampleStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fd-samples-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const jpeg = (w = 64, h = 48) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 30, b: 30 } } }).jpeg().toBuffer();
  const frame = async (at: number, mime: Frame['mime'] = 'image/jpeg'): Promise<Frame> => ({
    at,
    mime,
    data: mime === 'image/jpeg' ? await jpeg() : await sharp(await jpeg()).png().toBuffer(),
  });
  it('names a photo by its table and capture time', () => {
    expect(sampleStem('default', AT)).toBe('default-20261202-061504-123');
  });

  it('writes the photo and labels the evaluation reads back, cocked dice in cocked.json', async () => {
    const store = new DiceSampleStore(join(dir, 'dice-samples'));
    expect(await store.count()).toBe(0);
    const f = await frame(AT);
    const saved = await store.save('default', { frame: f, width: 64, height: 48 }, [
      { x: 16, y: 12, w: 8, h: 8, face: 3 },
      { x: 48, y: 36, w: 10, h: 12, face: 1 },
      { x: 32, y: 24, w: 9, h: 9, face: 'cocked' },
    ]);
    expect(saved).toEqual({ image: 'default-20261202-061504-123.jpg', dice: 2, cocked: 1, replaced: false, saved: 1 });
    const folder = join(dir, 'dice-samples');
    expect((await readdir(folder)).sort()).toEqual(['classes.txt', 'cocked.json', 'default-20261202-061504-123.jpg', 'default-20261202-061504-123.txt']);
    expect(await readFile(join(folder, saved.image))).toEqual(f.data);
    const [image] = await readYoloFolder(folder);
    expect(image.relPath).toBe(saved.image);
    expect(image.labels).toEqual([
      { cx: 0.25, cy: 0.25, w: 0.125, h: 8 / 48, face: 3 },
      { cx: 0.75, cy: 0.75, w: 10 / 64, h: 0.25, face: 1 },
    ].map((l) => ({ ...l, h: Number(l.h.toFixed(6)) })));
    const cocked = parseSetAsideDice(await readFile(join(folder, SET_ASIDE_FILES.cocked.file), 'utf8'), 'cocked.json');
    expect(cocked.get(saved.image)).toEqual([{ x: 0.5, y: 0.5, w: 9 / 64, h: 9 / 48 }]);
    expect(await store.count()).toBe(1);
  });

  it('keeps the part of each photo the camera read, for the evaluation to read the same', async () => {
    const store = new DiceSampleStore(dir);
    const within = { x: 0.25, y: 0, w: 0.5, h: 0.75 };
    const a = await store.save('t', { frame: await frame(AT), width: 64, height: 48, within }, []);
    const b = await store.save('t', { frame: await frame(AT + 1), width: 64, height: 48 }, []);
    const regions = parseReadRegions(await readFile(join(dir, READ_REGIONS_FILE), 'utf8'), READ_REGIONS_FILE);
    expect(regions).toEqual(new Map([[a.image, within]]));
    expect(regions.has(b.image)).toBe(false);
  });

  it('removes a saved photo: its labels, the photo and its entries beside them', async () => {
    const store = new DiceSampleStore(join(dir, 'folder'));
    expect(await store.remove('t', await frame(AT))).toEqual({ removed: false, saved: 0 });
    expect(existsSync(join(dir, 'folder'))).toBe(false);
    const keep = await store.save('t', { frame: await frame(AT + 1), width: 64, height: 48, within: { x: 0, y: 0, w: 1, h: 0.5 } }, [{ x: 10, y: 10, w: 8, h: 8, face: 'cocked' }]);
    const f = await frame(AT);
    await store.save('t', { frame: f, width: 64, height: 48, within: { x: 0, y: 0, w: 0.5, h: 1 } }, [{ x: 10, y: 10, w: 8, h: 8, face: 'cocked' }]);
    expect(await store.remove('t', f)).toEqual({ removed: true, saved: 1 });
    expect((await readdir(join(dir, 'folder'))).sort()).toEqual(['classes.txt', 'cocked.json', keep.image, 'read-regions.json', keep.image.replace('.jpg', '.txt')].sort());
    expect(JSON.parse(await readFile(join(dir, 'folder', 'cocked.json'), 'utf8'))).toEqual({ [keep.image]: [{ x: 10 / 64, y: 10 / 48, w: 8 / 64, h: 8 / 48 }] });
    expect(Object.keys(JSON.parse(await readFile(join(dir, 'folder', READ_REGIONS_FILE), 'utf8')))).toEqual([keep.image]);
    expect(await store.remove('t', f)).toEqual({ removed: false, saved: 1 });
  });

  it('saving a photo again replaces its labels, and drops its cocked dice when none are left', async () => {
    const store = new DiceSampleStore(dir);
    const f = await frame(AT, 'image/png');
    await store.save('t2', { frame: f, width: 64, height: 48 }, [{ x: 10, y: 10, w: 8, h: 8, face: 'cocked' }]);
    const other = await store.save('t2', { frame: await frame(AT + 1), width: 64, height: 48 }, [{ x: 20, y: 20, w: 8, h: 8, face: 'cocked' }]);
    const again = await store.save('t2', { frame: f, width: 64, height: 48 }, [{ x: 10, y: 10, w: 8, h: 8, face: 5 }]);
    expect(again).toMatchObject({ image: 't2-20261202-061504-123.png', dice: 1, cocked: 0, replaced: true, saved: 2 });
    const images = await readYoloFolder(dir);
    expect(images.map((i) => [i.relPath, i.labels.map((l) => l.face)])).toEqual([
      ['t2-20261202-061504-123.png', [5]],
      ['t2-20261202-061504-124.jpg', []],
    ]);
    const cocked = parseSetAsideDice(await readFile(join(dir, 'cocked.json'), 'utf8'), 'cocked.json');
    expect([...cocked.keys()]).toEqual([other.image]);
  });

  it('keeps every photo of saves made at once', async () => {
    const store = new DiceSampleStore(dir);
    const frames = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => frame(AT + i * 1000)));
    const saved = await Promise.all(frames.map((f) => store.save('t', { frame: f, width: 64, height: 48 }, [{ x: 30, y: 20, w: 10, h: 10, face: 'cocked' }])));
    expect(new Set(saved.map((s) => s.image)).size).toBe(6);
    expect(await store.count()).toBe(6);
    const cocked = parseSetAsideDice(await readFile(join(dir, 'cocked.json'), 'utf8'), 'cocked.json');
    expect(cocked.size).toBe(6);
  });

  it('refuses to save over a damaged cocked.json, which it leaves as it was, and labels nothing', async () => {
    const store = new DiceSampleStore(dir);
    await writeFile(join(dir, 'cocked.json'), '{"a.jpg": [oops');
    await expect(store.save('t', { frame: await frame(AT), width: 64, height: 48 }, [{ x: 30, y: 20, w: 10, h: 10, face: 'cocked' }])).rejects.toThrow(/cocked\.json: not JSON/);
    expect(await readFile(join(dir, 'cocked.json'), 'utf8')).toBe('{"a.jpg": [oops');
    expect(await store.count()).toBe(0);
    expect(await readYoloFolder(dir)).toEqual([]);
    // the queue goes on after a failed save
    await writeFile(join(dir, 'cocked.json'), '{}');
    expect((await store.save('t', { frame: await frame(AT), width: 64, height: 48 }, [])).saved).toBe(1);
  });
});

describe('evaluateFolder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fd-samples-measure-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const reader: DiceReader = { backend: 'test', read: async () => ({ width: 64, height: 48, dice: [{ x: 16, y: 12, w: 8, h: 8, face: 3, score: 0.9 }] }) };
  const frame = async (at: number): Promise<Frame> => ({ at, mime: 'image/jpeg', data: await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 9, g: 9, b: 9 } } }).jpeg().toBuffer() });

  it('reads the most recent photos up to its limit', async () => {
    const store = new DiceSampleStore(dir);
    for (let i = 0; i < 3; i++) await store.save('t', { frame: await frame(AT + i * 1000), width: 64, height: 48 }, [{ x: 16, y: 12, w: 8, h: 8, face: i === 0 ? 5 : 3 }]);
    expect(await evaluateFolder(reader, dir)).toMatchObject({ labelledImages: 3, images: 3, dice: 3, faceAccuracy: 2 / 3, recall: 1 });
    // the oldest photo, the one read wrong, is left out
    expect(await evaluateFolder(reader, dir, 2)).toMatchObject({ labelledImages: 3, images: 2, dice: 2, faceAccuracy: 1 });
  });

  it('reads folders of several tables side by side as one set, each with its cocked dice and read regions', async () => {
    const asked: (object | undefined)[] = [];
    const seeing: DiceReader = { backend: 'test', read: async (_b, options) => (asked.push(options?.within), { width: 64, height: 48, dice: [{ x: 16, y: 12, w: 8, h: 8, face: 3, score: 0.9 }] }) };
    const within = { x: 0, y: 0, w: 0.5, h: 1 };
    // table a: the die read marked cocked (set aside, not an extra); table b: read right, within a region
    await new DiceSampleStore(join(dir, 'a')).save('a', { frame: await frame(AT), width: 64, height: 48 }, [{ x: 16, y: 12, w: 8, h: 8, face: 'cocked' }]);
    await new DiceSampleStore(join(dir, 'deeper', 'b')).save('b', { frame: await frame(AT), width: 64, height: 48, within }, [{ x: 16, y: 12, w: 8, h: 8, face: 3 }]);
    const e = await evaluateFolder(seeing, dir);
    expect(e).toMatchObject({ labelledImages: 2, images: 2, dice: 1, faceAccuracy: 1, recall: 1, precision: 1, extra: 0 });
    expect(e.setAside).toEqual([{ kind: 'cocked', about: SET_ASIDE_FILES.cocked.about, reads: { dice: 1, notSure: 0, guessed: 1, notFound: 0 } }]);
    expect(asked).toEqual([undefined, within]);
  });

  it('names the problem of a folder without photos, or with a damaged file beside them', async () => {
    await expect(evaluateFolder(reader, dir)).rejects.toThrow(/no labelled images in/);
    await new DiceSampleStore(dir).save('t', { frame: await frame(AT), width: 64, height: 48 }, []);
    await writeFile(join(dir, READ_REGIONS_FILE), '{"x.jpg": 3}');
    await expect(evaluateFolder(reader, dir)).rejects.toThrow(/read-regions\.json: "x\.jpg": region\.x must be a number/);
  });
});

describe('npm run dice:eval on a folder of saved photos', () => {
  it('scores the reader on the labelled dice and counts the dice marked cocked on a line of their own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fd-samples-eval-'));
    try {
      const { scene } = syntheticSetScene(0, 3);
      const { width, height } = scene.image;
      const readable = scene.dice.filter((d) => !d.unreadable);
      expect(readable.length).toBeGreaterThan(1);
      // a die marked cocked that is not one: its reading is set aside, not counted as an extra
      const [marked, ...labelled] = readable;
      const dice: SampleDie[] = [
        { x: marked.x, y: marked.y, w: marked.w, h: marked.h, face: 'cocked' },
        ...labelled.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face as SampleDie['face'] })),
      ];
      await new DiceSampleStore(dir).save('default', { frame: { at: AT, mime: 'image/jpeg', data: await scene.image.toJpeg(90) }, width: width, height: height }, dice);
      const repoRoot = resolve(import.meta.dirname, '..', '..');
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repoRoot, 'server/cli/dice-eval.ts'), '--data', dir], { cwd: repoRoot });
      const figures = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(figures).toMatchObject({ images: 1, dice: labelled.length });
      expect(figures.recall).toBe(1);
      expect(figures.precision).toBe(1);
      // the flat die marked cocked is read with its face: a guess on a die set aside, not an extra
      expect(stdout).toContain('dice a player marked cocked (no face up), not labelled, their readings set aside: 1, "not sure" 0, read with a face 1, not found 0');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('measures several tables\' folders side by side as one set, with each folder\'s figures', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fd-samples-tables-'));
    try {
      const repoRoot = resolve(import.meta.dirname, '..', '..');
      let labelled = 0;
      for (const [table, i] of [['table-a', 0], ['table-b', 2]] as const) {
        const { scene } = syntheticSetScene(i, 3);
        const { width, height } = scene.image;
        const dice = scene.dice.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face as SampleDie['face'] }));
        labelled += dice.length;
        await new DiceSampleStore(join(dir, table)).save(table, { frame: { at: AT, mime: 'image/jpeg', data: await scene.image.toJpeg(90) }, width, height }, dice);
      }
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repoRoot, 'server/cli/dice-eval.ts'), '--data', dir], { cwd: repoRoot });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ images: 2, dice: labelled });
      const table = stdout.split('\n').filter((l) => /^(folder|table-[ab]) /.test(l));
      expect(table.map((l) => l.split(/\s+/)[0])).toEqual(['folder', 'table-a', 'table-b']);
      expect(table[1]).toMatch(/^table-a\s+1\s+\d+\s+\d+\s+\d+\.\d%\s+\d+$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads only the part of a photo the camera read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fd-samples-region-'));
    try {
      // scene 1 of seed 3: two dice on the left half of the frame, three well to the right of it
      const { scene } = syntheticSetScene(1, 3);
      const { width, height } = scene.image;
      const left = scene.dice.filter((d) => d.x < width / 2);
      expect([left.length, scene.dice.length]).toEqual([2, 5]);
      const dice = left.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face as SampleDie['face'] }));
      const frame = { at: AT, mime: 'image/jpeg' as const, data: await scene.image.toJpeg(90) };
      await new DiceSampleStore(dir).save('default', { frame, width, height, within: { x: 0, y: 0, w: 0.5, h: 1 } }, dice);
      const repoRoot = resolve(import.meta.dirname, '..', '..');
      const evaluate = async () => {
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repoRoot, 'server/cli/dice-eval.ts'), '--data', dir], { cwd: repoRoot });
        return JSON.parse(stdout.trim().split('\n').at(-1)!);
      };
      expect(await evaluate()).toMatchObject({ images: 1, dice: 2, recall: 1, precision: 1 });
      // without the region the whole frame is read: the dice on the right are extras
      await rm(join(dir, READ_REGIONS_FILE));
      expect((await evaluate()).precision).toBeLessThan(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
