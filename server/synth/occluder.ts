/**
 * Things lying over dice: a fingertip reaching into the tray, a pencil across it, the corner of a card.
 * Each is drawn over one die, at a random place on its top face, so it may hide none, some or all of its
 * pips; the scene then labels that die by what can still be seen (scene.ts).
 */
import type { RgbImage, Rgb } from './image.ts';
import type { Rng } from './random.ts';

export type OccluderKind = 'finger' | 'pencil' | 'card';

interface Shape {
  /** signed distance from the occluder's outline, pixels: negative inside */
  distance(x: number, y: number): number;
  /** a box, pixels, that holds the whole shape */
  bounds: { x0: number; y0: number; x1: number; y1: number };
}

export interface Occluder extends Shape {
  kind: OccluderKind;
}

const SKIN: Rgb[] = [[0.93, 0.76, 0.64], [0.84, 0.62, 0.48], [0.66, 0.45, 0.32], [0.45, 0.3, 0.2], [0.3, 0.2, 0.14]];

function capsule(x0: number, y0: number, x1: number, y1: number, r: number): Shape {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy || 1;
  return {
    distance: (x, y) => {
      const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / len2));
      return Math.hypot(x - (x0 + t * dx), y - (y0 + t * dy)) - r;
    },
    bounds: { x0: Math.min(x0, x1) - r, y0: Math.min(y0, y1) - r, x1: Math.max(x0, x1) + r, y1: Math.max(y0, y1) + r },
  };
}

function rotatedRect(cx: number, cy: number, halfW: number, halfH: number, angle: number): Shape {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const extentX = Math.abs(c) * halfW + Math.abs(s) * halfH;
  const extentY = Math.abs(s) * halfW + Math.abs(c) * halfH;
  return {
    distance: (x, y) => {
      const u = Math.abs((x - cx) * c + (y - cy) * s) - halfW;
      const v = Math.abs(-(x - cx) * s + (y - cy) * c) - halfH;
      return Math.max(u, v);
    },
    bounds: { x0: cx - extentX, y0: cy - extentY, x1: cx + extentX, y1: cy + extentY },
  };
}

/**
 * One occluder over the die centred at (cx, cy) with top face `size`: its edge, tip or corner falls within
 * 0.6 × size of the centre, coming from a random direction.
 */
export function placeOccluder(rng: Rng, cx: number, cy: number, size: number): { occluder: Occluder; colour: Rgb; shade: boolean } {
  const kind = rng.pick<OccluderKind>(['finger', 'finger', 'pencil', 'card']);
  const a = rng.range(0, Math.PI * 2);
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const tx = cx + rng.range(-0.6, 0.6) * size;
  const ty = cy + rng.range(-0.6, 0.6) * size;
  if (kind === 'finger') {
    const r = rng.range(0.3, 0.55) * size;
    const len = rng.range(3, 8) * size;
    const skin = rng.pick(SKIN);
    const colour: Rgb = [skin[0] * rng.range(0.9, 1.1), skin[1] * rng.range(0.9, 1.1), skin[2] * rng.range(0.9, 1.1)];
    return { occluder: { kind, ...capsule(tx, ty, tx + ux * len, ty + uy * len, r) }, colour, shade: true };
  }
  if (kind === 'pencil') {
    const r = rng.range(0.07, 0.16) * size;
    const half = rng.range(2, 5) * size;
    const colour: Rgb = [rng.next(), rng.next(), rng.next()];
    return { occluder: { kind, ...capsule(tx - ux * half, ty - uy * half, tx + ux * half, ty + uy * half, r) }, colour, shade: true };
  }
  const halfW = rng.range(1.5, 3) * size;
  const halfH = rng.range(1, 2) * size;
  const angle = rng.range(0, Math.PI * 2);
  // the card's corner at the tip point: its centre lies a half-diagonal away, along the card's axes
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const ccx = tx + c * halfW - s * halfH;
  const ccy = ty + s * halfW + c * halfH;
  const colour: Rgb = rng.chance(0.5) ? [0.9, 0.9, 0.86] : [rng.next(), rng.next(), rng.next()];
  return { occluder: { kind, ...rotatedRect(ccx, ccy, halfW, halfH, angle) }, colour, shade: false };
}

/** Paints the occluder, anti-aliased (over its bounds and a pixel more); round ones darken towards their outline. */
export function drawOccluder(img: RgbImage, occluder: Occluder, colour: Rgb, shade: boolean): void {
  const { bounds } = occluder;
  for (let y = Math.max(0, Math.floor(bounds.y0) - 1); y < Math.min(img.height, Math.ceil(bounds.y1) + 1); y++) {
    for (let x = Math.max(0, Math.floor(bounds.x0) - 1); x < Math.min(img.width, Math.ceil(bounds.x1) + 1); x++) {
      const d = occluder.distance(x + 0.5, y + 0.5);
      const cover = Math.min(1, Math.max(0, 0.5 - d));
      if (cover <= 0) continue;
      const k = shade ? 0.7 + 0.3 * Math.min(1, -d / 6) : 1;
      img.blend(x, y, [colour[0] * k, colour[1] * k, colour[2] * k], cover);
    }
  }
}

/** Whether the occluder hides a pip: it covers the pip's centre, or comes within a third of its radius of it. */
export function hidesPip(occluder: Occluder, pip: [number, number], pipRadius: number): boolean {
  return occluder.distance(pip[0], pip[1]) < pipRadius / 3;
}
