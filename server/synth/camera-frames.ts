/**
 * A still tray as a webcam films it, frame after frame: the same picture with, in each frame, sensor
 * noise of its own, a small change of exposure and up to a pixel or so of camera shake. Used to measure
 * how steady the readings of dice that do not move are (`npm run dice:flicker`).
 */
import { Rng } from './random.ts';

export interface CameraJitter {
  /** sensor noise: standard deviation in 8-bit levels, drawn for each pixel and channel */
  noise: number;
  /** exposure: each frame's levels multiplied by a factor drawn from 1 ± gain */
  gain: number;
  /** camera shake: each frame moved by a whole number of pixels, up to this, along each axis */
  shift: number;
}

/** Assumed for a webcam over a tray in room light (not measured on a camera here; see models/README.md). */
export const CAMERA_JITTER: CameraJitter = { noise: 3, gain: 0.03, shift: 1 };

export function validateCameraJitter(j: Partial<CameraJitter>): CameraJitter {
  const r = { ...CAMERA_JITTER, ...j };
  if (!Number.isFinite(r.noise) || r.noise < 0 || r.noise > 64) throw new RangeError(`camera noise must be 0..64 levels (got ${r.noise})`);
  if (!Number.isFinite(r.gain) || r.gain < 0 || r.gain > 0.5) throw new RangeError(`camera gain must be 0..0.5 (got ${r.gain})`);
  if (!Number.isInteger(r.shift) || r.shift < 0 || r.shift > 16) throw new RangeError(`camera shift must be a whole number of pixels, 0..16 (got ${r.shift})`);
  return r;
}

export interface StillPicture {
  /** 8-bit RGB, row-major */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface StillFrame {
  /** 8-bit RGB of the same size as the picture */
  data: Uint8Array;
  /** how far the picture moved in this frame, in pixels (what lay at x now lies at x + dx) */
  dx: number;
  dy: number;
}

/** One frame of `picture` under `jitter`; the same rng state gives the same frame. */
export function stillFrame(picture: StillPicture, rng: Rng, jitter: CameraJitter): StillFrame {
  const { data: src, width, height } = picture;
  if (src.length !== width * height * 3) throw new RangeError(`picture ${width}x${height} needs ${width * height * 3} bytes, got ${src.length}`);
  const dx = jitter.shift > 0 ? rng.int(-jitter.shift, jitter.shift) : 0;
  const dy = jitter.shift > 0 ? rng.int(-jitter.shift, jitter.shift) : 0;
  const factor = 1 + (jitter.gain > 0 ? rng.range(-jitter.gain, jitter.gain) : 0);
  const out = new Uint8Array(src.length);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(height - 1, Math.max(0, y - dy));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(width - 1, Math.max(0, x - dx));
      const s = (sy * width + sx) * 3;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = src[s + c] * factor + (jitter.noise > 0 ? rng.normal() * jitter.noise : 0) + 0.5;
        out[o + c] = v <= 0 ? 0 : v >= 255 ? 255 : v;
      }
    }
  }
  return { data: out, dx, dy };
}
