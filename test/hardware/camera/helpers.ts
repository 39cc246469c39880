import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventEmitter } from 'node:events';
import sharp from 'sharp';
import type { GreyFrame } from '../../../server/hardware/camera/settle.ts';
import type { ReadOptions, ReadRegion } from '../../../server/hardware/ports.ts';

export const SHARED = resolve(process.env.FLIGHTDECK_SHARED ?? join(import.meta.dirname, '../../../../shared'));
export const WEBCAM_DATA = join(SHARED, 'datasets/webcam-white-dice');

export function tempDir(prefix = 'fd-cam-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A JPEG of a grey tray with light squares ("dice") at the given pixel positions. */
export async function trayJpeg(squares: { x: number; y: number; size?: number }[], opts: { width?: number; height?: number; background?: number } = {}): Promise<Buffer> {
  const width = opts.width ?? 320;
  const height = opts.height ?? 240;
  const bg = opts.background ?? 90;
  const composites = await Promise.all(
    squares.map(async (s) => {
      const size = s.size ?? 24;
      const input = await sharp({ create: { width: size, height: size, channels: 3, background: { r: 240, g: 240, b: 235 } } }).png().toBuffer();
      return { input, left: Math.round(s.x - size / 2), top: Math.round(s.y - size / 2) };
    }),
  );
  return sharp({ create: { width, height, channels: 3, background: { r: bg, g: bg + 10, b: bg } } })
    .composite(composites)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A flat grey frame with bright squares (for the settle detector). */
export function greyFrame(width: number, height: number, squares: { x: number; y: number; size: number }[], noise = 0, seed = 1): GreyFrame {
  const data = new Uint8Array(width * height).fill(80);
  let s = seed >>> 0;
  const rand = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  if (noise > 0) for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, 80 + Math.round((rand() * 2 - 1) * noise)));
  for (const q of squares) {
    for (let y = Math.max(0, q.y); y < Math.min(height, q.y + q.size); y++) {
      for (let x = Math.max(0, q.x); x < Math.min(width, q.x + q.size); x++) data[y * width + x] = 230;
    }
  }
  return { width, height, data };
}

/** Resolves with the first event (name) whose payload passes `test`; rejects after `ms`. */
export function waitForEvent<T>(em: EventEmitter, name: string, test: (v: T) => boolean = () => true, ms = 20_000): Promise<T> {
  return new Promise((resolveP, reject) => {
    const timer = setTimeout(() => {
      em.off(name, on);
      reject(new Error(`timed out after ${ms} ms waiting for "${name}"`));
    }, ms);
    const on = (v: T) => {
      if (!test(v)) return;
      clearTimeout(timer);
      em.off(name, on);
      resolveP(v);
    };
    em.on(name, on);
  });
}

/**
 * A test reader for the test images of trayJpeg/squaresJpeg: finds bright squares and reads the face
 * from their grey level (face f is drawn at level 150 + 15 f; level 120 means unreadable). Real
 * image decoding, so frames go through the feed exactly as camera frames do.
 */
export class SquareDiceReader {
  readonly backend = 'test-squares';
  reads = 0;
  active = 0;
  maxActive = 0;
  /** the part of the frame each read was asked to look in (undefined: the whole frame) */
  readonly regions: (ReadRegion | undefined)[] = [];
  constructor(private readonly delayMs = 0) {}

  async read(image: Buffer, options?: ReadOptions): Promise<{ width: number; height: number; dice: { x: number; y: number; w: number; h: number; face: number | null; score: number }[] }> {
    this.reads++;
    this.regions.push(options?.within);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      const { width, height } = info;
      const seen = new Uint8Array(width * height);
      const dice = [];
      for (let i = 0; i < width * height; i++) {
        if (seen[i] || data[i] < 110) continue;
        const stack = [i];
        seen[i] = 1;
        let n = 0, sx = 0, sy = 0, sum = 0, x0 = width, x1 = 0, y0 = height, y1 = 0;
        while (stack.length) {
          const j = stack.pop()!;
          const x = j % width, y = (j - x) / width;
          n++; sx += x; sy += y; sum += data[j];
          x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
          for (const k of [x > 0 ? j - 1 : -1, x < width - 1 ? j + 1 : -1, j - width, j + width]) {
            if (k >= 0 && k < width * height && !seen[k] && data[k] >= 110) {
              seen[k] = 1;
              stack.push(k);
            }
          }
        }
        if (n < 30) continue;
        const level = sum / n;
        const f = Math.round((level - 150) / 15);
        dice.push({ x: sx / n, y: sy / n, w: x1 - x0 + 1, h: y1 - y0 + 1, face: level < 140 ? null : Math.min(6, Math.max(1, f)), score: 1 });
      }
      return { width, height, dice };
    } finally {
      this.active--;
    }
  }
}

/** A grey-tray JPEG with squares whose grey level encodes a face for SquareDiceReader (face null: unreadable). */
export async function squaresJpeg(dice: { x: number; y: number; face: number | null; size?: number }[], width = 320, height = 240): Promise<Buffer> {
  const composites = await Promise.all(
    dice.map(async (d) => {
      const size = d.size ?? 24;
      const v = d.face === null ? 120 : 150 + 15 * d.face;
      const input = await sharp({ create: { width: size, height: size, channels: 3, background: { r: v, g: v, b: v } } }).png().toBuffer();
      return { input, left: Math.round(d.x - size / 2), top: Math.round(d.y - size / 2) };
    }),
  );
  return sharp({ create: { width, height, channels: 3, background: { r: 60, g: 60, b: 60 } } })
    .composite(composites)
    .jpeg({ quality: 95 })
    .toBuffer();
}
