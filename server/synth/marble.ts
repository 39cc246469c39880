/**
 * The swirl of a marbled die: how much of its second colour shows at a point of its faces. Real marbled
 * dice mix their two colours in soft clouds, flowing streaks, thin veins or wavy bands, each die its own;
 * until 2026-11-27 the generator drew only the wavy bands, with the same sharpness on every die.
 */
import { clamp01 } from './image.ts';
import { Rng } from './random.ts';

export type MarbleStyle = 'bands' | 'clouds' | 'flow' | 'veins';

/** Share of marbled dice drawn in each style. */
export const MARBLE_STYLES: readonly [MarbleStyle, number][] = [
  ['bands', 0.25],
  ['clouds', 0.25],
  ['flow', 0.3],
  ['veins', 0.2],
];

export interface Marble {
  style: MarbleStyle;
  /** 0 = first colour, 1 = second, at (x, y) pixels in the die's own frame */
  at(x: number, y: number): number;
}

/**
 * The three draws a die already takes for its swirl (`frequency` 0.6–1.8, `angle` 0–π, `warp` 1–4) pick
 * and shape it, so drawing a marbled die takes no more random numbers than before and every other die
 * of a scene is drawn as it was.
 */
export function marblePattern(size: number, frequency: number, angle: number, warp: number): Marble {
  const rng = Rng.fromDraws(frequency * 1e6, angle * 1e8, warp * 1e7);
  const style = pickStyle(rng.next());
  const ca = Math.cos(angle);
  const sa = Math.sin(angle);
  if (style === 'bands') {
    const f = frequency / size;
    return {
      style,
      at: (x, y) => clamp01(0.5 + 0.5 * Math.sin((x * ca + y * sa) * f * 6 + warp * Math.sin(y * f * 4))),
    };
  }
  const noiseSeed = rng.int(0, 2 ** 30);
  const cycles = rng.range(0.6, 1.2) * (0.5 + frequency);
  const toField = (x: number, y: number): [number, number] => [((x * ca + y * sa) / size) * cycles + 17.3, ((y * ca - x * sa) / size) * cycles + 5.1];
  if (style === 'veins') {
    const width = rng.range(0.025, 0.08);
    const level = rng.range(0.4, 0.6);
    return {
      style,
      at: (x, y) => {
        const [u, v] = toField(x, y);
        const n = fbm(u, v, noiseSeed);
        return Math.exp(-(((n - level) / width) ** 2));
      },
    };
  }
  const softness = rng.range(0.03, 0.16);
  const level = rng.range(0.42, 0.58);
  const swirl = style === 'flow' ? rng.range(1.5, 4) * (1 + warp / 4) : 0;
  return {
    style,
    at: (x, y) => {
      let [u, v] = toField(x, y);
      if (swirl > 0) {
        const du = fbm(u + 3.7, v + 1.9, noiseSeed + 1) - 0.5;
        const dv = fbm(u - 2.3, v + 6.1, noiseSeed + 2) - 0.5;
        u += swirl * du;
        v += swirl * dv;
      }
      return smoothstep(level - softness, level + softness, fbm(u, v, noiseSeed));
    },
  };
}

function pickStyle(r: number): MarbleStyle {
  let acc = 0;
  for (const [style, share] of MARBLE_STYLES) {
    acc += share;
    if (r < acc) return style;
  }
  return MARBLE_STYLES[MARBLE_STYLES.length - 1][0];
}

/** Three octaves of value noise, about 0..1 (mean 0.5). */
function fbm(x: number, y: number, seed: number): number {
  return (valueNoise(x, y, seed) * 4 + valueNoise(x * 2.03 + 11.1, y * 2.03 - 7.7, seed + 101) * 2 + valueNoise(x * 4.1 - 3.3, y * 4.1 + 9.2, seed + 202)) / 7;
}

function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = fade(x - ix);
  const fy = fade(y - iy);
  const a = lattice(ix, iy, seed);
  const b = lattice(ix + 1, iy, seed);
  const c = lattice(ix, iy + 1, seed);
  const d = lattice(ix + 1, iy + 1, seed);
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

function lattice(ix: number, iy: number, seed: number): number {
  let h = Math.imul(ix, 0x27d4eb2d) ^ Math.imul(iy, 0x165667b1) ^ Math.imul(seed, 0x61c88647);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

function fade(t: number): number {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

function smoothstep(lo: number, hi: number, v: number): number {
  const t = clamp01((v - lo) / (hi - lo));
  return t * t * (3 - 2 * t);
}
