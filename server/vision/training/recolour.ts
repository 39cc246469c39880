/**
 * Real training photos recoloured: their white dice with black pips become dice of another colour with
 * pips that contrast with it, keeping the real shading, slant, side faces and blur that the synthetic
 * dice only imitate. The table is recoloured with them (a tone between the two).
 */
import type { Rng } from '../../synth/random.ts';
import { randomLook, type DiceColour } from '../../synth/scene.ts';
import { to8bit } from '../../synth/image.ts';
import { duotonePixels, type Duotone } from '../camera-variation.ts';
import type { FrameSample } from './samples.ts';

/** Blue is left out on purpose: `dice:eval --camera blue` then checks a colour no recoloured photo taught. */
export const RECOLOUR_KINDS = ['black', 'red', 'green', 'yellow', 'purple'] as const satisfies readonly DiceColour[];

/** A plain die's look of one of RECOLOUR_KINDS, as the colours black (the pips) and white (the body) become. */
export function drawRecolour(rng: Rng): Duotone {
  const look = randomLook(rng, rng.pick(RECOLOUR_KINDS));
  return { dark: to8bit(look.pip), light: to8bit(look.body) };
}

/** The same frame, the same dice, recoloured. */
export function withRecolour(sample: FrameSample, tone: Duotone): FrameSample {
  return { ...sample, pixels: duotonePixels(sample.pixels, tone) };
}
