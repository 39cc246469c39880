/**
 * The geometry of drawing and adjusting the tray and kept zone on the camera set-up page, in shares of
 * the image (0..1): a dragged rectangle, four tapped corners, one corner moved. What comes out is what
 * the service accepts (`parseArea`), or null.
 */
import { CalibrationError, MIN_SIDE, parseArea } from '../../../server/hardware/camera/calibration.ts';
import type { AreaConfig } from '../types.ts';

export type Point = { x: number; y: number };
export type Rect = { x: number; y: number; w: number; h: number };

const round3 = (v: number) => Math.round(v * 1000) / 1000;
const clamp01 = (v: number) => round3(Math.min(Math.max(v, 0), 1));

/** The rectangle dragged between two points of the image, or null when too small to be a tray. */
export function dragRect(a: Point, b: Point): Rect | null {
  const x0 = clamp01(Math.min(a.x, b.x));
  const y0 = clamp01(Math.min(a.y, b.y));
  const x1 = clamp01(Math.max(a.x, b.x));
  const y1 = clamp01(Math.max(a.y, b.y));
  if (x1 - x0 < MIN_SIDE || y1 - y0 < MIN_SIDE) return null;
  return { x: x0, y: y0, w: round3(x1 - x0), h: round3(y1 - y0) };
}

/**
 * Four tapped corners as a quad, in order around their centre whatever order they were tapped in (the
 * service refuses a quad whose edges cross); null when they enclose too little to be a tray.
 */
export function cornersQuad(corners: Point[]): { quad: [number, number][] } | null {
  if (corners.length !== 4) return null;
  const cx = corners.reduce((a, c) => a + c.x, 0) / 4;
  const cy = corners.reduce((a, c) => a + c.y, 0) / 4;
  const ordered = [...corners].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
  let twice = 0;
  for (let i = 0; i < 4; i++) {
    const p = ordered[i]!;
    const q = ordered[(i + 1) % 4]!;
    twice += p.x * q.y - q.x * p.y;
  }
  if (Math.abs(twice) / 2 < MIN_SIDE * MIN_SIDE * 4) return null;
  return { quad: ordered.map((c) => [clamp01(c.x), clamp01(c.y)]) };
}

/** How wide an area is across its narrower way, in pixels of a width × height image (a quad's opposite sides averaged). */
export function areaNarrowestPx(area: AreaConfig, width: number, height: number): number {
  const c = areaCorners(area).map((p) => ({ x: p.x * width, y: p.y * height }));
  const side = (i: number) => Math.hypot(c[(i + 1) % 4]!.x - c[i]!.x, c[(i + 1) % 4]!.y - c[i]!.y);
  return Math.min((side(0) + side(2)) / 2, (side(1) + side(3)) / 2);
}

/** An area's four corners: a rectangle's from its top left going clockwise, a quad's in its own order. */
export function areaCorners(area: AreaConfig): Point[] {
  if ('quad' in area) return area.quad.map(([x, y]) => ({ x, y }));
  return [
    { x: area.x, y: area.y },
    { x: area.x + area.w, y: area.y },
    { x: area.x + area.w, y: area.y + area.h },
    { x: area.x, y: area.y + area.h },
  ];
}

function accepted(area: AreaConfig): boolean {
  try {
    parseArea(area, 'area');
    return true;
  } catch (e) {
    if (e instanceof CalibrationError) return false;
    throw e;
  }
}

/**
 * The area with its corner `index` moved to `to`: a rectangle stays one (the opposite corner stays
 * put), a quad keeps its other three corners. Null when the result is not an area the service takes
 * (too small, or a quad whose edges cross).
 */
export function moveCorner(area: AreaConfig, index: number, to: Point): AreaConfig | null {
  const corners = areaCorners(area);
  if (!Number.isInteger(index) || index < 0 || index >= corners.length) return null;
  let moved: AreaConfig | null;
  if ('quad' in area) {
    moved = { quad: corners.map((c, i) => (i === index ? [clamp01(to.x), clamp01(to.y)] : [c.x, c.y])) };
  } else {
    moved = dragRect(corners[(index + 2) % 4]!, to);
  }
  return moved && accepted(moved) ? moved : null;
}

/**
 * The corner nearest to a point of the image, among the given areas' corners, within `reach` pixels on
 * screen (the image shown `width` × `height` pixels); null when none is that near.
 */
export function nearestCorner<Z extends string>(
  areas: { zone: Z; area: AreaConfig }[],
  at: Point,
  shown: { width: number; height: number },
  reach: number,
): { zone: Z; index: number } | null {
  let best: { zone: Z; index: number } | null = null;
  let bestDistance = Infinity;
  for (const { zone, area } of areas) {
    const corners = areaCorners(area);
    for (let index = 0; index < corners.length; index++) {
      const c = corners[index]!;
      const d = Math.hypot((c.x - at.x) * shown.width, (c.y - at.y) * shown.height);
      if (d <= reach && d < bestDistance) {
        best = { zone, index };
        bestDistance = d;
      }
    }
  }
  return best;
}

/** The bounds of an area, as a rectangle. */
function boundsOf(area: AreaConfig): Rect {
  const corners = areaCorners(area);
  const x0 = Math.min(...corners.map((c) => c.x));
  const y0 = Math.min(...corners.map((c) => c.y));
  return { x: x0, y: y0, w: Math.max(...corners.map((c) => c.x)) - x0, h: Math.max(...corners.map((c) => c.y)) - y0 };
}

/**
 * A first rectangle to adjust corner by corner (from the keyboard, or as a start for a finger): the tray
 * most of the image; the kept zone the right fifth of the tray (of the image when no tray is set).
 */
export function startingArea(zone: 'tray' | 'keptZone', tray: AreaConfig | null): Rect {
  if (zone === 'tray') return { x: 0.1, y: 0.1, w: 0.8, h: 0.8 };
  const within = tray ? boundsOf(tray) : { x: 0.05, y: 0.1, w: 0.9, h: 0.8 };
  const w = Math.max(round3(within.w / 5), MIN_SIDE);
  const y = round3(Math.min(within.y, 1 - MIN_SIDE));
  return { x: round3(Math.min(within.x + within.w - w, 1 - w)), y, w, h: round3(Math.min(Math.max(within.h, MIN_SIDE), 1 - y)) };
}
