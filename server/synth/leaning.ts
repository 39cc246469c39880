/**
 * Where a die leaning on another die or against the tray wall lies (SceneOptions.leaning; pure geometry).
 * A leaning die stands on one edge, an upper edge resting on its support. Seen from above, its top face
 * is foreshortened across the support (by the cosine of its tilt) and lies against it, and its base shows
 * on the side away from it, by the sine of its tilt.
 */
import type { Rect } from './background.ts';
import type { DiePose } from './die.ts';
import type { Point } from './footprint.ts';
import type { Rng } from './random.ts';

/** Tilt of a leaning die from lying flat, radians: from a die just lifted (25°) to one standing steeply. */
export const LEAN_TILT: readonly [number, number] = [(25 * Math.PI) / 180, (60 * Math.PI) / 180];

/** Where a leaning die touches its support: a point of the support's face and the face's unit normal, towards the die. */
export interface Support {
  x: number;
  y: number;
  nx: number;
  ny: number;
}

/**
 * The pose of a die of top-face side `size` (lying flat) leaning on `support`. `reach`: the top face's
 * centre lies this many half foreshortened sides from the support (under 1: its upper edge lies over the
 * support, as over another die's top edge).
 */
export function leaningPose(support: Support, size: number, reach: number, rng: Rng): DiePose {
  const tilt = rng.range(...LEAN_TILT);
  const squash = Math.cos(tilt);
  // its raised top face is nearer the camera
  const s = size * rng.range(1.0, 1.1);
  const d = ((s * squash) / 2) * reach;
  const lean = s * Math.sin(tilt);
  // the face's local y (the foreshortened axis) along the support's normal, give or take a few degrees
  const angle = Math.atan2(-support.nx, support.ny) + rng.range(-0.12, 0.12);
  return {
    cx: support.x + support.nx * d,
    cy: support.y + support.ny * d,
    size: s,
    angle,
    ox: support.nx * lean,
    oy: support.ny * lean,
    squash,
    blurX: 0,
    blurY: 0,
  };
}

/** A support on the side of a die lying flat at `base`, in a random direction. */
export function dieSupport(base: DiePose, rng: Rng): Support {
  const dir = rng.range(0, Math.PI * 2);
  // distance from the centre to the edge of its (turned) top face along dir
  const rel = dir - base.angle;
  const d = base.size / 2 / Math.max(Math.abs(Math.cos(rel)), Math.abs(Math.sin(rel)));
  const nx = Math.cos(dir);
  const ny = Math.sin(dir);
  return { x: base.cx + nx * d, y: base.cy + ny * d, nx, ny };
}

/**
 * A support on one of the tray's inner walls (`tray`: the floor inside them), at least `margin` from its
 * corners; only walls inside the width × height frame are chosen. Null when none is.
 */
export function wallSupport(tray: Rect, width: number, height: number, margin: number, rng: Rng): Support | null {
  const walls: Support[] = [];
  const along = (a: number, b: number): number | null => (b - a > 2 * margin ? rng.range(a + margin, b - margin) : null);
  const xs = along(Math.max(0, tray.x0), Math.min(width, tray.x1));
  const ys = along(Math.max(0, tray.y0), Math.min(height, tray.y1));
  if (ys !== null && tray.x0 > 0) walls.push({ x: tray.x0, y: ys, nx: 1, ny: 0 });
  if (ys !== null && tray.x1 < width) walls.push({ x: tray.x1, y: ys, nx: -1, ny: 0 });
  if (xs !== null && tray.y0 > 0) walls.push({ x: xs, y: tray.y0, nx: 0, ny: 1 });
  if (xs !== null && tray.y1 < height) walls.push({ x: xs, y: tray.y1, nx: 0, ny: -1 });
  return walls.length > 0 ? rng.pick(walls) : null;
}

/** The square around a pip of radius `r` at (x, y), as a polygon for the footprint overlap test. */
export function pipSquare([x, y]: Point, r: number): Point[] {
  return [
    [x - r, y - r],
    [x + r, y - r],
    [x + r, y + r],
    [x - r, y + r],
  ];
}
