import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventEmitter } from 'node:events';
import sharp from 'sharp';
import type { GreyFrame } from '../../../server/hardware/camera/settle.ts';

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
