/** Procedural table and tray surfaces: felt, wood, cloth, plain; a tray with walls and a kept-dice zone. */
import type { RgbImage, Rgb } from './image.ts';
import { ValueNoise, type Rng } from './random.ts';

export type Surface = 'felt' | 'wood' | 'cloth' | 'plain';
export const SURFACES: readonly Surface[] = ['felt', 'wood', 'cloth', 'plain'];

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const FELT_COLOURS: Rgb[] = [
  [0.12, 0.35, 0.16], [0.1, 0.2, 0.42], [0.45, 0.08, 0.1], [0.25, 0.25, 0.27], [0.06, 0.06, 0.07],
  [0.35, 0.15, 0.4], [0.6, 0.55, 0.45], [0.15, 0.3, 0.35],
];
const WOOD_COLOURS: Rgb[] = [[0.85, 0.78, 0.62], [0.62, 0.42, 0.24], [0.4, 0.25, 0.14], [0.75, 0.6, 0.42], [0.3, 0.2, 0.13]];

function randomColour(rng: Rng): Rgb {
  return [rng.next(), rng.next(), rng.next()];
}

/** Fill the pixels of `area` with a surface texture. */
export function paintSurface(img: RgbImage, area: Rect, kind: Surface, rng: Rng): void {
  const w = img.width;
  const h = img.height;
  const low = new ValueNoise(rng.fork(), w, h, rng.range(60, 220));
  const fine = new ValueNoise(rng.fork(), w, h, rng.range(1.5, 4));
  const lowAmp = rng.range(0.02, 0.12);
  let base: Rgb;
  let pattern: (x: number, y: number) => number;
  if (kind === 'felt') {
    base = rng.chance(0.8) ? rng.pick(FELT_COLOURS) : randomColour(rng);
    const amp = rng.range(0.03, 0.1);
    pattern = (x, y) => 1 + amp * (fine.at(x, y) - 0.5) * 2;
  } else if (kind === 'wood') {
    base = rng.pick(WOOD_COLOURS);
    const angle = rng.range(-0.3, 0.3) + (rng.chance(0.5) ? Math.PI / 2 : 0);
    const ca = Math.cos(angle);
    const sa = Math.sin(angle);
    const freq = rng.range(0.04, 0.15);
    const warp = new ValueNoise(rng.fork(), w, h, rng.range(30, 90));
    const warpAmp = rng.range(10, 40);
    const amp = rng.range(0.04, 0.14);
    pattern = (x, y) => {
      const v = -x * sa + y * ca + warpAmp * warp.at(x, y);
      const grain = Math.sin(v * freq) * 0.5 + 0.5;
      return 1 - amp * grain * grain + 0.03 * (fine.at(x, y) - 0.5);
    };
  } else if (kind === 'cloth') {
    base = randomColour(rng);
    const period = rng.range(2.5, 7);
    const amp = rng.range(0.05, 0.15);
    pattern = (x, y) => 1 + amp * Math.sin((x * 2 * Math.PI) / period) * Math.sin((y * 2 * Math.PI) / period) + 0.04 * (fine.at(x, y) - 0.5);
  } else {
    base = rng.chance(0.5) ? randomColour(rng) : (Array(3).fill(rng.range(0.1, 0.95)) as Rgb);
    pattern = (x, y) => 1 + 0.015 * (fine.at(x, y) - 0.5);
  }
  const c: Rgb = [0, 0, 0];
  for (let y = Math.max(0, area.y0); y < Math.min(h, area.y1); y++) {
    for (let x = Math.max(0, area.x0); x < Math.min(w, area.x1); x++) {
      const f = pattern(x, y) * (1 + lowAmp * (low.at(x, y) - 0.5) * 2);
      c[0] = base[0] * f;
      c[1] = base[1] * f;
      c[2] = base[2] * f;
      img.blend(x, y, c, 1);
    }
  }
}

/** A tray: a wall band of `wall` pixels around `inner`, lit on one side, with a soft inner shadow. */
export function paintTrayWall(img: RgbImage, inner: Rect, wall: number, colour: Rgb, rng: Rng): void {
  const light = rng.range(0.75, 1.15);
  const dark = rng.range(0.5, 0.8);
  for (let y = Math.max(0, inner.y0 - wall); y < Math.min(img.height, inner.y1 + wall); y++) {
    for (let x = Math.max(0, inner.x0 - wall); x < Math.min(img.width, inner.x1 + wall); x++) {
      const inside = x >= inner.x0 && x < inner.x1 && y >= inner.y0 && y < inner.y1;
      if (inside) {
        const d = Math.min(x - inner.x0, inner.x1 - 1 - x, y - inner.y0, inner.y1 - 1 - y);
        if (d < wall * 0.6) img.scale(x, y, 0.75 + 0.25 * (d / (wall * 0.6)));
        continue;
      }
      const side = y < inner.y0 ? light : y >= inner.y1 ? dark : x < inner.x0 ? (light + dark) / 2 : dark * 1.05;
      img.blend(x, y, [colour[0] * side, colour[1] * side, colour[2] * side], 1);
    }
  }
}

/** Global light: a linear brightness gradient, a colour cast and a vignette. */
export function applyLighting(img: RgbImage, rng: Rng): void {
  const gx = rng.range(-0.35, 0.35) / img.width;
  const gy = rng.range(-0.35, 0.35) / img.height;
  const level = rng.range(0.65, 1.15);
  const cast: Rgb = [rng.range(0.88, 1.12), rng.range(0.92, 1.06), rng.range(0.82, 1.12)];
  const vignette = rng.range(0, 0.35);
  const cx = img.width / 2;
  const cy = img.height / 2;
  const rr = cx * cx + cy * cy;
  const d = img.data;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const r2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / rr;
      const f = level * (1 + gx * (x - cx) + gy * (y - cy)) * (1 - vignette * r2);
      const i = (y * img.width + x) * 3;
      d[i] *= f * cast[0];
      d[i + 1] *= f * cast[1];
      d[i + 2] *= f * cast[2];
    }
  }
}

/** Sensor noise: gaussian per channel with a shared luminance part. */
export function addNoise(img: RgbImage, sigma: number, rng: Rng): void {
  if (sigma <= 0) return;
  const d = img.data;
  for (let i = 0; i < d.length; i += 3) {
    const l = rng.normal() * sigma;
    d[i] += l + rng.normal() * sigma * 0.5;
    d[i + 1] += l + rng.normal() * sigma * 0.5;
    d[i + 2] += l + rng.normal() * sigma * 0.5;
  }
}
