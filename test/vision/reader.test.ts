import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { createDiceReader, VisionInputError, type VisionDiceReader } from '../../server/vision/index.ts';
import * as tf from '@tensorflow/tfjs';
import { renderTray } from '../../server/synth/index.ts';
import { renderScene } from '../../server/synth/scene.ts';
import { syntheticSetScene } from '../../server/synth/test-set.ts';
import { photoMosaic } from '../../server/vision/photo-mosaic.ts';
import { readYoloFolder, sharedDir } from '../../server/vision/yolo-dataset.ts';
import { scoreImages } from '../../server/vision/scoring.ts';
import { REGION_MARGIN_PX } from '../../server/vision/region.ts';
import { fineLookScale, firstLookScale } from '../../server/vision/fine-look.ts';
import { regionLook } from '../../server/vision/region.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const validDir = join(sharedDir(repoRoot), 'datasets', 'webcam-white-dice', 'valid');
const haveReal = existsSync(validDir);
if (!haveReal) console.warn(`real dice photos not found at ${validDir}: real-image tests skipped (set FLIGHTDECK_SHARED)`);

let reader: VisionDiceReader;

beforeAll(async () => {
  reader = await createDiceReader();
});

afterAll(() => reader?.dispose());

describe('dice reader on synthetic trays', () => {
  it('finds every die and reads the faces of a demo tray', async () => {
    const items = [];
    for (const seed of [1, 2, 3, 4]) {
      const tray = await renderTray({ faces: [1, 2, 3, 4, 5, 6, seed], seed });
      const r = await reader.read(tray.image);
      expect(r.width).toBe(640);
      expect(r.height).toBe(480);
      items.push({ labels: tray.dice.map((d) => ({ ...d })), preds: r.dice });
    }
    const s = scoreImages(items);
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.precision).toBeGreaterThanOrEqual(0.95);
    expect(s.faceAccuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('reads raw RGB the same way as encoded bytes', async () => {
    const tray = await renderTray({ faces: [2, 5, 6], seed: 11 });
    const { data, info } = await sharp(tray.image).raw().toBuffer({ resolveWithObject: true });
    const fromRaw = await reader.readRaw({ raw: new Uint8Array(data), width: info.width, height: info.height });
    const fromJpeg = await reader.read(tray.image);
    expect(fromRaw).toEqual(fromJpeg);
  });

  it('a second look in four orientations changes only the doubtful dice', async () => {
    // without the closer look, which also moves the doubtful dice (next test)
    const once = await createDiceReader({ views: 1, closerLook: 0 });
    const everyCropTwice = await createDiceReader({ views: 4, reviewBelow: 1, closerLook: 0 });
    const doubtfulOnly = await createDiceReader({ views: 4, reviewBelow: 0.9999, closerLook: 0 });
    try {
      let secondLooks = 0;
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const tray = await renderTray({ faces: [1, 2, 3, 4, 5, 6, 3], seed });
        const [a, b, c] = await Promise.all([once, everyCropTwice, doubtfulOnly].map((r) => r.read(tray.image)));
        const at = (r: typeof a) => r.dice.map((d) => [d.x, d.y, d.w]);
        // the detector decides where the dice are; the views only re-read faces
        expect(at(b)).toEqual(at(a));
        expect(at(c)).toEqual(at(a));
        // each die keeps its first reading or takes the four-view one; a sure first reading is kept
        c.dice.forEach((d, i) => expect([a.dice[i], b.dice[i]]).toContainEqual(d));
        a.dice.forEach((d, i) => {
          if (d.score >= 0.9999) expect(c.dice[i]).toEqual(d);
        });
        secondLooks += c.dice.filter((d, i) => JSON.stringify(d) !== JSON.stringify(a.dice[i])).length;
      }
      // some of these 56 dice were doubtful: the second look happened
      expect(secondLooks).toBeGreaterThan(0);
    } finally {
      for (const r of [once, everyCropTwice, doubtfulOnly]) r.dispose();
    }
  });

  it('a closer look places doubtful dice again, nearer their true centres, and keeps no tensors', async () => {
    const plain = await createDiceReader({ closerLook: 0 });
    try {
      const errors = { before: 0, after: 0 };
      let moved = 0;
      let tensorsAfterFirst = -1;
      // small dice of hard looks: the first look is often unsure of them
      const looks = ['marbled', 'translucent', 'black', 'any'] as const;
      for (let i = 0; i < 24; i++) {
        const scene = renderScene({ width: 640, height: 480, faces: [1, 2, 3, 4, 5, 6, 2, 5], seed: 7000 + i, mode: 'test', colour: looks[i % 4], dieSize: 22 });
        const jpeg = await scene.image.toJpeg(75);
        const [a, b] = [await plain.read(jpeg), await reader.read(jpeg)];
        if (i === 0) tensorsAfterFirst = tf.memory().numTensors;
        expect(b.dice).toHaveLength(a.dice.length);
        const error = (x: number, y: number): number => Math.min(...scene.dice.map((d) => Math.hypot(d.x - x, d.y - y) / d.size));
        a.dice.forEach((d, k) => {
          const e = b.dice[k];
          if (d.x === e.x && d.y === e.y) return;
          moved++;
          // only a die the first look was not sure of is looked at again
          expect(d.score).toBeLessThan(0.9);
          errors.before += error(d.x, d.y);
          errors.after += error(e.x, e.y);
        });
      }
      expect(moved).toBeGreaterThan(10);
      expect(errors.after).toBeLessThan(errors.before);
      expect(tf.memory().numTensors).toBe(tensorsAfterFirst);
    } finally {
      plain.dispose();
    }
  });

  it('frees every tensor it holds when disposed', async () => {
    const before = tf.memory().numTensors;
    const other = await createDiceReader();
    await other.read((await renderTray({ faces: [3, 4], seed: 5 })).image);
    expect(tf.memory().numTensors).toBeGreaterThan(before);
    other.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('finds nothing on an empty table', async () => {
    const tray = await renderTray({ faces: [], seed: 5 });
    const r = await reader.read(tray.image);
    expect(r.dice.filter((d) => d.face !== null)).toEqual([]);
  });
});

describe('dice reader input errors', () => {
  it('rejects empty, corrupt and truncated images with VisionInputError', async () => {
    await expect(reader.read(Buffer.alloc(0))).rejects.toBeInstanceOf(VisionInputError);
    await expect(reader.read(Buffer.from('this is not an image'))).rejects.toBeInstanceOf(VisionInputError);
    const tray = await renderTray({ faces: [1], seed: 1 });
    await expect(reader.read(tray.image.subarray(0, 200))).rejects.toBeInstanceOf(VisionInputError);
    await expect(reader.readRaw({ raw: new Uint8Array(10), width: 640, height: 480 })).rejects.toThrow(/needs 921600 bytes/);
    await expect(reader.readRaw({ raw: new Uint8Array(0), width: 0, height: 0 })).rejects.toBeInstanceOf(VisionInputError);
  });

  it('reads a PNG of any size', async () => {
    const tray = await renderTray({ faces: [4, 4], seed: 9, width: 1024, height: 576 });
    const png = await sharp(tray.image).png().toBuffer();
    const r = await reader.read(png);
    expect([r.width, r.height]).toEqual([1024, 576]);
    expect(r.dice.length).toBeGreaterThanOrEqual(1);
  });

  it('reads a photo stored turned with an EXIF orientation upright, as a viewer and its labels show it', async () => {
    const tray = await renderTray({ faces: [1, 3, 5, 6], seed: 4 });
    const upright = await reader.read(tray.image);
    // pixels stored a quarter turn anticlockwise, tagged "turn 90° clockwise to show" (EXIF orientation 6)
    const stored = await sharp(await sharp(tray.image).rotate(270).toBuffer()).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(stored).metadata()).orientation).toBe(6);
    const turned = await reader.read(stored);
    expect([turned.width, turned.height]).toEqual([640, 480]);
    expect(turned.dice.length).toBe(upright.dice.length);
    for (const d of upright.dice) {
      const same = turned.dice.find((t) => Math.hypot(t.x - d.x, t.y - d.y) < d.w / 4);
      expect(same?.face).toBe(d.face);
    }
  });
});

describe('dice reader on large frames', () => {
  it('finds small dice in 1280×720 to 1920×1080 frames by a fine look, which the first look alone misses', async () => {
    const items: { labels: { x: number; y: number; w: number; h: number; face: number }[]; raw: { raw: Uint8Array; width: number; height: number } }[] = [];
    for (let i = 0; i < 6; i++) {
      const { scene } = syntheticSetScene(i, 11, 'large-frame');
      items.push({ labels: scene.dice, raw: { raw: new Uint8Array(scene.image.toBytes()), width: scene.image.width, height: scene.image.height } });
    }
    expect(items.some((it) => it.raw.width >= 1280)).toBe(true);
    const firstOnly = await createDiceReader({ fineLook: false });
    try {
      const score = async (r: VisionDiceReader) => {
        const scored = [];
        for (const it of items) scored.push({ labels: it.labels, preds: (await r.readRaw(it.raw)).dice });
        return scoreImages(scored);
      };
      const fine = await score(reader);
      const first = await score(firstOnly);
      expect(fine.dice).toBeGreaterThan(30);
      expect(fine.recall).toBeGreaterThanOrEqual(0.95);
      expect(fine.faceAccuracy).toBeGreaterThanOrEqual(0.9);
      expect(fine.recall).toBeGreaterThan(first.recall);
    } finally {
      firstOnly.dispose();
    }
  });
});

describe('dice reader looking in part of the frame (a calibrated tray)', () => {
  type Read = Awaited<ReturnType<VisionDiceReader['read']>>;
  /** each die of `whole` whose top face lies inside `inside` is found in `part` at the same place with the same face */
  const expectSameDice = (whole: Read, part: Read, inside: (d: Read['dice'][number]) => boolean) => {
    const wanted = whole.dice.filter(inside);
    expect(part.dice.filter(inside).length).toBe(wanted.length);
    for (const d of wanted) {
      const match = part.dice.find((p) => Math.hypot(p.x - d.x, p.y - d.y) < 3);
      expect(match, `die at ${d.x},${d.y}`).toBeDefined();
      expect(match!.face).toBe(d.face);
    }
    return wanted.length;
  };

  it('reads the dice in the region as the whole frame does, and finds none beyond its margin, at 640×480 and 1920×1080', async () => {
    let compared = 0;
    for (const [width, height] of [[640, 480], [1920, 1080]]) {
      // dice 40 px across in the large frame, which its fine look finds
      const dieSize = width > 640 ? (40 * 640) / width : undefined;
      // the bottom right of the frame: with its margins, under half of it, so each look cuts a window
      const within = { x: 0.45, y: 0.45, w: 0.55, h: 0.55 };
      const [left, top] = [within.x * width, within.y * height];
      // dice are reported up to REGION_MARGIN_PX of the first look beyond the region
      const margin = REGION_MARGIN_PX / firstLookScale(width, height);
      const far = (d: { x: number; y: number }) => d.x < left - margin || d.y < top - margin;
      let beyond = 0;
      for (const seed of [1, 2, 3, 4, 5]) {
        const tray = await renderTray({ faces: [1, 2, 3, 4, 5, 6, seed], seed, width, height, style: { dieSize } });
        const whole = await reader.read(tray.image);
        const part = await reader.read(tray.image, { within });
        compared += expectSameDice(whole, part, (d) => d.x - d.w / 2 > left && d.y - d.h / 2 > top);
        beyond += whole.dice.filter(far).length;
        expect(part.dice.filter(far)).toEqual([]);
      }
      // the trays had dice inside and far outside the region
      expect(beyond).toBeGreaterThan(10);
    }
    expect(compared).toBeGreaterThan(8);
  });

  it('reads a tray that fills most of the view as the whole frame does, through a window nearly the frame', async () => {
    let compared = 0;
    for (const [width, height] of [[640, 480], [1920, 1080]]) {
      const dieSize = width > 640 ? (40 * 640) / width : undefined;
      const within = { x: 0.12, y: 0.12, w: 0.76, h: 0.76 };
      const [left, top, right, bottom] = [within.x * width, within.y * height, (within.x + within.w) * width, (within.y + within.h) * height];
      for (const seed of [1, 2, 3]) {
        const tray = await renderTray({ faces: [1, 2, 3, 4, 5, 6, seed], seed, width, height, style: { dieSize } });
        const whole = await reader.read(tray.image);
        const part = await reader.read(tray.image, { within });
        compared += expectSameDice(whole, part, (d) => d.x - d.w / 2 > left && d.y - d.h / 2 > top && d.x + d.w / 2 < right && d.y + d.h / 2 < bottom);
      }
    }
    expect(compared).toBeGreaterThan(15);
  });

  it('refuses a region outside the image with VisionInputError, and reads the next frame', async () => {
    const tray = await renderTray({ faces: [2, 4], seed: 3 });
    await expect(reader.read(tray.image, { within: { x: 0.5, y: 0, w: 0.6, h: 1 } })).rejects.toBeInstanceOf(VisionInputError);
    await expect(reader.read(tray.image, { within: { x: 0, y: 0, w: Number.NaN, h: 1 } })).rejects.toThrow(/region\.w must be a number/);
    expect((await reader.read(tray.image, { within: { x: 0, y: 0, w: 1, h: 1 } })).dice.length).toBe(2);
  });

  it('reads on as its tray asks for windows of many sizes, holding no more tensors, and gives them all back', async () => {
    const [width, height] = [1280, 720];
    const tray = await renderTray({ faces: [1, 2, 3, 4, 5, 6, 3], seed: 11, width, height, style: { dieSize: (40 * 640) / width } });
    // trays of ten shapes, from tall to wide, each looked at first and finely
    const regions = Array.from({ length: 10 }, (_, k) => ({ x: 0.3, y: 0.3, w: 0.1 + 0.03 * k, h: 0.38 - 0.025 * k }));
    const sizes = new Set(
      regions.flatMap((within) =>
        [firstLookScale(width, height), fineLookScale(width, height)!].map((scale) => {
          const { input } = regionLook(width, height, scale, within);
          return `${input.width}x${input.height}`;
        }),
      ),
    );
    expect(sizes.size).toBeGreaterThan(15);
    const before = tf.memory().numTensors;
    const other = await createDiceReader();
    try {
      const firstTime = await other.read(tray.image, { within: regions[0] });
      const held = tf.memory().numTensors;
      for (let round = 0; round < 2; round++) {
        for (const within of regions) {
          const part = await other.read(tray.image, { within });
          expect(part.dice.length).toBeGreaterThan(0);
        }
      }
      expect(tf.memory().numTensors).toBe(held);
      expect(await other.read(tray.image, { within: regions[0] })).toEqual(firstTime);
    } finally {
      other.dispose();
    }
    expect(tf.memory().numTensors).toBe(before);
  });

  it.skipIf(!haveReal)('reads a real tray seen in a quarter of a camera\'s view: the validation photos four to a frame', async () => {
    const images = await readYoloFolder(validDir);
    const items = [];
    let compared = 0;
    const within = { x: 0.5, y: 0.5, w: 0.5, h: 0.5 };
    for (let k = 0; k + 4 <= images.length; k += 4) {
      const { jpeg, labels } = await photoMosaic(images.slice(k, k + 4), 2);
      const whole = await reader.read(jpeg);
      const part = await reader.read(jpeg, { within });
      const inQuarter = (d: { x: number; y: number }) => d.x >= whole.width / 2 && d.y >= whole.height / 2;
      compared += expectSameDice(whole, part, (d) => d.x - d.w / 2 > whole.width / 2 && d.y - d.h / 2 > whole.height / 2);
      const quarterLabels = labels.map((l) => ({ x: l.cx * whole.width, y: l.cy * whole.height, w: l.w * whole.width, h: l.h * whole.height, face: l.face })).filter(inQuarter);
      items.push({ labels: quarterLabels, preds: part.dice.filter(inQuarter) });
    }
    expect(compared).toBeGreaterThan(40);
    const s = scoreImages(items);
    expect(s.dice).toBeGreaterThan(50);
    expect(s.recall).toBeGreaterThanOrEqual(0.98);
    expect(s.precision).toBeGreaterThanOrEqual(0.98);
    expect(s.faceAccuracy).toBeGreaterThanOrEqual(0.97);
  });
});

describe.skipIf(!haveReal)('dice reader on real photos (webcam-white-dice/valid)', () => {
  // regression guards a little under the measured figures (models/README.md), not the quality targets
  it('finds and reads the dice of the validation photos', async () => {
    const images = await readYoloFolder(validDir);
    const items = [];
    for (const img of images) {
      const r = await reader.read(await readFile(img.path));
      items.push({ labels: img.labels.map((l) => ({ x: l.cx * r.width, y: l.cy * r.height, w: l.w * r.width, h: l.h * r.height, face: l.face })), preds: r.dice });
    }
    const s = scoreImages(items);
    expect(s.dice).toBeGreaterThan(200);
    expect(s.recall).toBeGreaterThanOrEqual(0.98);
    expect(s.precision).toBeGreaterThanOrEqual(0.98);
    expect(s.faceAccuracy).toBeGreaterThanOrEqual(0.97);
  });

  it('reads the same photos four to a frame, as a camera of twice the resolution sees dice of their size', async () => {
    const images = await readYoloFolder(validDir);
    const items = [];
    for (let k = 0; k + 4 <= images.length; k += 4) {
      const { jpeg, labels } = await photoMosaic(images.slice(k, k + 4), 2);
      const r = await reader.read(jpeg);
      expect([r.width, r.height]).toEqual([1280, 960]);
      items.push({ labels: labels.map((l) => ({ x: l.cx * r.width, y: l.cy * r.height, w: l.w * r.width, h: l.h * r.height, face: l.face })), preds: r.dice });
    }
    const s = scoreImages(items);
    expect(s.dice).toBeGreaterThan(200);
    expect(s.recall).toBeGreaterThanOrEqual(0.98);
    expect(s.precision).toBeGreaterThanOrEqual(0.98);
    expect(s.faceAccuracy).toBeGreaterThanOrEqual(0.97);
  });
});
