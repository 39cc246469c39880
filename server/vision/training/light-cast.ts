/**
 * Room light of another colour and strength on a training photo: the real photos were all taken in
 * one light, and dice under a warm lamp turn cream, under LEDs bluish, in a dim room dark.
 */
import type { Rng } from '../../synth/random.ts';
import { castPixels } from '../camera-variation.ts';
import type { FrameSample } from './samples.ts';

export interface LightCastRange {
  /** the warmest and the coolest light drawn, as per-channel gains before brightness */
  warm: readonly [number, number, number];
  cool: readonly [number, number, number];
  brightness: readonly [number, number];
}

/**
 * `narrow`: the range dice models 1.17.0 to 1.21.0 were taught (warm room light to daylight LEDs);
 * `wide` reaches a bulb with no white balance (`--camera tungsten`) and a bluer daylight, short of
 * `candle` and `skylight`.
 */
export const LIGHT_CAST_RANGES = {
  narrow: { warm: [1.12, 1, 0.62], cool: [0.85, 1, 1.15], brightness: [0.5, 1.15] },
  wide: { warm: [1.22, 1, 0.45], cool: [0.78, 1, 1.25], brightness: [0.4, 1.2] },
} satisfies Record<string, LightCastRange>;

export type LightCastRangeName = keyof typeof LIGHT_CAST_RANGES;

export function isLightCastRange(name: string): name is LightCastRangeName {
  return Object.hasOwn(LIGHT_CAST_RANGES, name);
}

/** A random light: a point between the coolest and the warmest colour, times a brightness. */
export function drawLightCast(rng: Rng, range: LightCastRange = LIGHT_CAST_RANGES.narrow): [number, number, number] {
  const warmth = rng.range(-1, 1);
  const end = warmth >= 0 ? range.warm : range.cool;
  const t = Math.abs(warmth);
  const brightness = rng.range(...range.brightness);
  return [0, 1, 2].map((c) => (1 + (end[c] - 1) * t) * brightness) as [number, number, number];
}

/** The same frame, the same dice, in another light. */
export function withLightCast(sample: FrameSample, gains: [number, number, number]): FrameSample {
  return { ...sample, pixels: castPixels(sample.pixels, gains) };
}
