import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  areaBounds,
  areaContains,
  estimateTrayFromEmptyFrame,
  parseArea,
  parseCalibration,
  readingRegion,
  watchMask,
  zoneOf,
} from '../../../server/hardware/camera/calibration.ts';
import { estimateTrayFromImage } from '../../../server/hardware/camera/tray-estimate.ts';
import { WEBCAM_DATA } from './helpers.ts';

/** A noisy wood-like table with a matte felt rectangle (the tray) at the given pixel box. */
async function tableWithTray(
  box: { left: number; top: number; width: number; height: number },
  width = 640,
  height = 480,
  felt: { grain: number; light: (x: number, y: number) => number } = { grain: 8, light: () => 1 },
): Promise<Buffer> {
  const table = Buffer.alloc(width * height * 3);
  let s = 12345;
  const rand = () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s / 2 ** 32;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const grain = 40 * Math.sin(x / 9 + Math.sin(y / 23) * 3) + (rand() - 0.5) * 60;
      const i = (y * width + x) * 3;
      table[i] = Math.max(0, Math.min(255, 150 + grain));
      table[i + 1] = Math.max(0, Math.min(255, 100 + grain * 0.8));
      table[i + 2] = Math.max(0, Math.min(255, 60 + grain * 0.5));
    }
  }
  const cloth = Buffer.alloc(box.width * box.height * 3);
  for (let i = 0; i < cloth.length; i += 3) {
    const n = (rand() - 0.5) * felt.grain;
    const p = i / 3;
    const lit = felt.light((p % box.width) / box.width, Math.floor(p / box.width) / box.height);
    cloth[i] = Math.min(255, (40 + n) * lit);
    cloth[i + 1] = Math.min(255, (95 + n) * lit);
    cloth[i + 2] = Math.min(255, (55 + n) * lit);
  }
  const feltPng = await sharp(cloth, { raw: { width: box.width, height: box.height, channels: 3 } }).png().toBuffer();
  return sharp(table, { raw: { width, height, channels: 3 } })
    .composite([{ input: feltPng, left: box.left, top: box.top }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('tray areas', () => {
  it('parses rectangles and quads in normalised coordinates', () => {
    expect(parseArea({ x: 0.1, y: 0.2, w: 0.5, h: 0.6 }, 'tray')).toEqual({ kind: 'rect', x: 0.1, y: 0.2, w: 0.5, h: 0.6 });
    const q = parseArea({ quad: [[0.1, 0.1], [0.9, 0.15], [0.85, 0.9], [0.12, 0.85]] }, 'tray');
    expect(q.kind).toBe('quad');
    expect(areaContains(q, 0.5, 0.5)).toBe(true);
    expect(areaContains(q, 0.05, 0.5)).toBe(false);
    expect(areaContains(q, 0.88, 0.13)).toBe(false);
  });

  it('rejects bad areas with the field named', () => {
    expect(() => parseArea({ x: 0.5, y: 0, w: 0.6, h: 0.5 }, 'camera.tray')).toThrow(/camera.tray: the rectangle goes past the image edge/);
    expect(() => parseArea({ x: -0.1, y: 0, w: 0.5, h: 0.5 }, 'camera.tray')).toThrow(/camera.tray.x: must be between 0 and 1/);
    expect(() => parseArea({ x: 0, y: 0, w: 0.001, h: 0.5 }, 't')).toThrow(/at least/);
    expect(() => parseArea({ x: 0, y: 0, w: '1', h: 0.5 }, 't')).toThrow(/t.w: must be a number/);
    expect(() => parseArea({ x: 0, y: 0, w: 1, h: 1, z: 2 }, 't')).toThrow(/unknown field\(s\) z/);
    expect(() => parseArea({ quad: [[0, 0], [1, 1], [1, 0], [0, 1]] }, 't')).toThrow(/edges cross/);
    expect(() => parseArea({ quad: [[0, 0], [1, 0], [1, 1]] }, 't')).toThrow(/4 corners/);
    expect(() => parseArea([0, 0, 1, 1], 't')).toThrow(/must be \{x, y, w, h\}/);
    expect(() => parseCalibration({ x: 0, y: 0, w: 1, h: 1 }, { x: 2, y: 0, w: 0.1, h: 0.1 })).toThrow(/camera.keptZone.x/);
  });

  it('puts dice in the rolling zone, the kept zone, or outside (ignored)', () => {
    const cal = parseCalibration({ x: 0.1, y: 0.1, w: 0.6, h: 0.8 }, { x: 0.72, y: 0.1, w: 0.2, h: 0.8 });
    expect(zoneOf(cal, 320, 240, 640, 480)).toBe('rolling');
    expect(zoneOf(cal, 520, 240, 640, 480)).toBe('kept');
    expect(zoneOf(cal, 20, 240, 640, 480)).toBe('outside');
    expect(zoneOf(cal, 620, 20, 640, 480)).toBe('outside');
    const none = parseCalibration(undefined, undefined);
    expect(zoneOf(none, 5, 5, 640, 480)).toBe('rolling');
  });

  it('masks the tray and the kept zone for motion detection', () => {
    const cal = parseCalibration({ x: 0, y: 0, w: 0.5, h: 1 }, { x: 0.75, y: 0, w: 0.25, h: 0.5 });
    const m = watchMask(cal, 8, 4);
    expect(Array.from(m)).toEqual([1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]);
  });

  it('gives the reader the rectangle holding the tray and the kept zone, or nothing when the whole image is the tray', () => {
    const round = (r: { x: number; y: number; w: number; h: number } | null) => r && Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 1e9) / 1e9]));
    expect(readingRegion(parseCalibration(null, null))).toBeNull();
    // a kept zone alone does not narrow the whole-image tray
    expect(readingRegion(parseCalibration(null, { x: 0.8, y: 0, w: 0.2, h: 0.5 }))).toBeNull();
    expect(round(readingRegion(parseCalibration({ x: 0.1, y: 0.2, w: 0.5, h: 0.6 }, null)))).toEqual({ x: 0.1, y: 0.2, w: 0.5, h: 0.6 });
    expect(round(readingRegion(parseCalibration({ x: 0.1, y: 0.2, w: 0.5, h: 0.6 }, { x: 0.7, y: 0.1, w: 0.2, h: 0.3 })))).toEqual({ x: 0.1, y: 0.1, w: 0.8, h: 0.7 });
    // a tray seen at an angle: the rectangle its corners lie in
    const quad = parseCalibration({ quad: [[0.2, 0.1], [0.8, 0.15], [0.9, 0.9], [0.1, 0.85]] }, null);
    expect(round(readingRegion(quad))).toEqual({ x: 0.1, y: 0.1, w: 0.8, h: 0.8 });
    expect(areaBounds(quad.tray!)).toEqual(readingRegion(quad));
    // a rectangle reaching the edge within the parser's rounding gives a region inside the image
    const edge = readingRegion(parseCalibration({ x: 0.3, y: 0.2, w: 0.7 + 5e-10, h: 0.8 + 5e-10 }, null))!;
    expect(edge.x + edge.w).toBeLessThanOrEqual(1);
    expect(edge.y + edge.h).toBeLessThanOrEqual(1);
  });
});

describe('empty-tray estimate', () => {
  it('finds the felt rectangle on a grainy table', async () => {
    const img = await tableWithTray({ left: 96, top: 72, width: 400, height: 320 });
    const est = await estimateTrayFromImage(img);
    expect(est.tray.x).toBeCloseTo(96 / 640, 1);
    expect(est.tray.y).toBeCloseTo(72 / 480, 1);
    expect(Math.abs(est.tray.x - 96 / 640)).toBeLessThan(0.03);
    expect(Math.abs(est.tray.y - 72 / 480)).toBeLessThan(0.03);
    expect(Math.abs(est.tray.x + est.tray.w - 496 / 640)).toBeLessThan(0.03);
    expect(Math.abs(est.tray.y + est.tray.h - 392 / 480)).toBeLessThan(0.03);
    expect(est.fill).toBeGreaterThan(0.9);
    // the felt's colour (green), not the table's
    expect(est.colour[1]).toBeGreaterThan(est.colour[0]);
    // the estimate is a valid calibration
    expect(() => parseArea({ x: est.tray.x, y: est.tray.y, w: est.tray.w, h: est.tray.h }, 'tray')).not.toThrow();
  });

  it('finds the whole felt under a lamp that lights one side of it', async () => {
    const box = { left: 64, top: 48, width: 448, height: 360 };
    // 1.9 × brighter on the right than on the left: the felt's colour, not its brightness, stays
    for (const light of [(x: number) => 1 + 0.9 * x, (x: number, y: number) => 1 + 0.9 * Math.exp(-((x - 0.8) ** 2 + (y - 0.7) ** 2) / 0.15)]) {
      const felt = { grain: 8, light };
      const est = await estimateTrayFromImage(await tableWithTray(box, 640, 480, felt));
      expect(Math.abs(est.tray.x - 64 / 640)).toBeLessThan(0.03);
      expect(Math.abs(est.tray.y - 48 / 480)).toBeLessThan(0.03);
      expect(Math.abs(est.tray.x + est.tray.w - 512 / 640)).toBeLessThan(0.03);
      expect(Math.abs(est.tray.y + est.tray.h - 408 / 480)).toBeLessThan(0.03);
    }
  });

  it('refuses a frame with no large uniform region', async () => {
    const rgb = new Uint8Array(160 * 120 * 3);
    let s = 7;
    for (let i = 0; i < rgb.length; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      rgb[i] = s >>> 24;
    }
    expect(() => estimateTrayFromEmptyFrame({ width: 160, height: 120, channels: 3, data: rgb })).toThrow(/no large uniform region/);
    expect(() => estimateTrayFromEmptyFrame({ width: 8, height: 8, channels: 1, data: new Uint8Array(64) })).toThrow(/too small/);
  });

  it('reads a real webcam photo without crashing (wooden desk, no tray)', async (ctx) => {
    const file = join(WEBCAM_DATA, 'unlabeled', 'dice_1.jpg');
    if (!existsSync(file)) {
      ctx.skip(`real webcam photos not found at ${WEBCAM_DATA} (set FLIGHTDECK_SHARED)`);
      return;
    }
    // either an estimate inside the image or the clear refusal; never anything else
    try {
      const est = await estimateTrayFromImage(readFileSync(file));
      expect(est.tray.x + est.tray.w).toBeLessThanOrEqual(1.0001);
      expect(est.tray.y + est.tray.h).toBeLessThanOrEqual(1.0001);
    } catch (err) {
      expect((err as Error).message).toMatch(/no large uniform region/);
    }
  });
});
