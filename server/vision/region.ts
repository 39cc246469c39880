/**
 * Looking for dice in a part of the frame only: the calibrated tray and kept zone, which the server
 * knows (a webcam often sees more of the table than the tray). Each detector look keeps the scale it has
 * on the whole frame, so dice look the size the detector learned and every threshold holds; it only sees
 * less of the frame, and reports no die beyond the region and its margin. Pure geometry.
 */
import type { ReadRegion } from '../hardware/ports.ts';
import { VisionInputError } from './errors.ts';
import { ceil16, type FrameWindow, type InputSize } from './preprocess.ts';

/**
 * Detector-input pixels added around the region on each side: half the largest die the detector learned
 * (60), so that a die whose centre lies on the region's edge is seen whole, with a little table round it.
 */
export const REGION_MARGIN_PX = 32;

/** Throws VisionInputError unless `region` is a rectangle of positive size inside 0..1 image coordinates. */
export function checkRegion(region: ReadRegion): ReadRegion {
  const { x, y, w, h } = (region ?? {}) as Partial<ReadRegion>;
  const values = { x, y, w, h };
  for (const [name, v] of Object.entries(values)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new VisionInputError(`region.${name} must be a number in 0..1 image coordinates (got ${JSON.stringify(v)})`);
    }
  }
  const [rx, ry, rw, rh] = [x!, y!, w!, h!];
  if (rx < 0 || ry < 0 || rw <= 0 || rh <= 0 || rx + rw > 1 + 1e-9 || ry + rh > 1 + 1e-9) {
    throw new VisionInputError(`region {x: ${rx}, y: ${ry}, w: ${rw}, h: ${rh}} must lie inside the image (0..1) and have a size`);
  }
  return { x: rx, y: ry, w: rw, h: rh };
}

/** The part of the frame (pixels) `region` and REGION_MARGIN_PX round it cover, for a look at `scale`. */
export function regionWindow(frameWidth: number, frameHeight: number, scale: number, region: ReadRegion): FrameWindow {
  const margin = REGION_MARGIN_PX / scale;
  const x0 = Math.max(0, Math.floor(region.x * frameWidth - margin));
  const y0 = Math.max(0, Math.floor(region.y * frameHeight - margin));
  const x1 = Math.min(frameWidth, Math.ceil((region.x + region.w) * frameWidth + margin));
  const y1 = Math.min(frameHeight, Math.ceil((region.y + region.h) * frameHeight + margin));
  return { x0, y0, width: x1 - x0, height: y1 - y0 };
}

export function windowHolds(window: FrameWindow, x: number, y: number): boolean {
  return x >= window.x0 && x <= window.x0 + window.width && y >= window.y0 && y <= window.y0 + window.height;
}

/** `[start, length]` of `want` frame pixels holding `[a, b)`, centred on it and kept inside `0..full`. */
function grow(a: number, b: number, want: number, full: number): [number, number] {
  const length = Math.min(full, Math.max(b - a, Math.round(want)));
  const start = Math.min(Math.max(0, a - Math.floor((length - (b - a)) / 2)), full - length);
  return [start, length];
}

/**
 * The window of a `frameWidth` × `frameHeight` frame a detector look at `scale` (detector-input pixels
 * per frame pixel) needs for `region` (regionWindow), and the detector input that holds it at that scale
 * (sides multiples of 16; the window is widened, inside the frame, to fill them). However large the
 * window, it costs no more than the whole frame: the input is resampled from the window's pixels alone.
 */
export function regionLook(frameWidth: number, frameHeight: number, scale: number, region: ReadRegion): { window: FrameWindow; input: InputSize } {
  const seen = regionWindow(frameWidth, frameHeight, scale, region);
  const input = { width: ceil16(seen.width * scale), height: ceil16(seen.height * scale) };
  const [x0, width] = grow(seen.x0, seen.x0 + seen.width, input.width / scale, frameWidth);
  const [y0, height] = grow(seen.y0, seen.y0 + seen.height, input.height / scale, frameHeight);
  return { window: { x0, y0, width, height }, input };
}
