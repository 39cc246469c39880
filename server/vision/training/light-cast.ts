/**
 * Room light of another colour and strength on a training photo: the real photos were all taken in
 * one light, and dice under a warm lamp turn cream, under LEDs bluish, in a dim room dark.
 */
import type { Rng } from '../../synth/random.ts';
import { castPixels } from '../camera-variation.ts';
import type { FrameSample } from './samples.ts';

/** The warmest and coolest light drawn, as per-channel gains before brightness. */
export const LIGHT_CAST_RANGE = {
  warm: [1.12, 1, 0.62] as const,
  cool: [0.85, 1, 1.15] as const,
  brightness: [0.5, 1.15] as const,
};

/** A random light: a point between the coolest and the warmest colour, times a brightness. */
export function drawLightCast(rng: Rng): [number, number, number] {
  const warmth = rng.range(-1, 1);
  const end = warmth >= 0 ? LIGHT_CAST_RANGE.warm : LIGHT_CAST_RANGE.cool;
  const t = Math.abs(warmth);
  const brightness = rng.range(...LIGHT_CAST_RANGE.brightness);
  return [0, 1, 2].map((c) => (1 + (end[c] - 1) * t) * brightness) as [number, number, number];
}

/** The same frame, the same dice, in another light. */
export function withLightCast(sample: FrameSample, gains: [number, number, number]): FrameSample {
  return { ...sample, pixels: castPixels(sample.pixels, gains) };
}
