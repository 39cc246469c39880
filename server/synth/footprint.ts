/**
 * Where a die covers the table seen from above, as a convex polygon, and whether two such polygons
 * overlap (separating-axis test). Dice lying flat cannot overlap; a scene that drew one over another
 * would hide a die its labels call readable.
 */
import type { DiePose } from './die.ts';

export type Point = [number, number];

/** Corners of the (possibly foreshortened) top face of a die, before any rounding of its corners. */
export function topFaceCorners(p: DiePose): Point[] {
  const half = p.size / 2;
  const c = Math.cos(p.angle);
  const s = Math.sin(p.angle);
  return ([[-1, -1], [1, -1], [1, 1], [-1, 1]] as const).map(([u, v]): Point => {
    const lx = u * half;
    const ly = v * half * p.squash;
    return [p.cx + lx * c - ly * s, p.cy + lx * s + ly * c];
  });
}

/**
 * What a die covers: its top face for a die lying flat (its sides show under its neighbours' top faces,
 * which are drawn over them); for a leaning die, drawn over everything, its top face and base and the
 * sides between (the hull of both).
 */
export function dieFootprint(p: DiePose, leaning: boolean): Point[] {
  const top = topFaceCorners(p);
  if (!leaning) return top;
  return convexHull([...top, ...top.map(([x, y]): Point => [x + p.ox, y + p.oy])]);
}

/** Andrew's monotone chain; counter-clockwise, no repeated points. */
export function convexHull(points: Point[]): Point[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Point[]): Point[] => {
    const out: Point[] = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...half(pts), ...half([...pts].reverse())];
}

/** True when the convex polygons share more than a sliver `tolerance` pixels deep. */
export function polygonsOverlap(a: Point[], b: Point[], tolerance = 0): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const [x0, y0] = poly[i];
      const [x1, y1] = poly[(i + 1) % poly.length];
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (len === 0) continue;
      const nx = (y0 - y1) / len;
      const ny = (x1 - x0) / len;
      const [aMin, aMax] = project(a, nx, ny);
      const [bMin, bMax] = project(b, nx, ny);
      if (Math.min(aMax, bMax) - Math.max(aMin, bMin) <= tolerance) return false;
    }
  }
  return true;
}

function project(poly: Point[], nx: number, ny: number): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const [x, y] of poly) {
    const d = x * nx + y * ny;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  return [min, max];
}
