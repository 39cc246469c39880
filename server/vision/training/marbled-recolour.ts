/**
 * Real training photos recoloured into marbled dice: each white die with black pips becomes a die of two
 * swirled colours with pips that show on both (the generator's own marbled looks and swirls), keeping
 * the real drilled pips, shading, slant, side faces and blur that the synthetic marbled dice only
 * imitate. The swirl lies on each labelled die's top face (a disc fading out at its edge); the rest of the
 * photo takes the die's first colour, as `recolour.ts` recolours the table.
 */
import type { Rng } from '../../synth/random.ts';
import { randomLook } from '../../synth/scene.ts';
import { marblePattern, type Marble } from '../../synth/marble.ts';
import { to8bit, type Rgb } from '../../synth/image.ts';
import type { RgbPixels } from '../decode.ts';
import type { FrameSample } from './samples.ts';

/** One photo's marbled look: its pips, its two colours, and each die's own swirl. */
export interface MarbledTone {
  pip: Rgb;
  body: Rgb;
  marble: Rgb;
  /** one per die of the sample, in its order: the swirl's centre, reach (px) and pattern */
  swirls: { x: number; y: number; reach: number; swirl: Marble }[];
}

/**
 * A die's side from the box its labels draw around the pips (`pipSpan`, the box's longer side): a lone
 * pip is about a fifth of the face, the other faces' pips span a little over half of it.
 */
export function dieSizeFromPips(face: number, pipSpan: number): number {
  return face === 1 ? pipSpan * 5 : pipSpan * 1.8;
}

/** The swirl's reach from a die's centre, in die sides: its top face, fading out at the face's edge. */
const SWIRL_REACH = 0.6;
const SWIRL_FADE_FROM = 0.75;

/** A marbled look (as the generator draws them) and a swirl for each die of a photo. */
export function drawMarbledRecolour(rng: Rng, dice: FrameSample['dice']): MarbledTone {
  const look = randomLook(rng, 'marbled');
  const swirls = dice.map((d) => {
    const size = d.size ?? dieSizeFromPips(d.cls + 1, d.pipSpan ?? 0);
    const swirl = marblePattern(Math.max(size, 8), rng.range(0.6, 1.8), rng.range(0, Math.PI), rng.range(1, 4));
    return { x: d.x, y: d.y, reach: Math.max(size, 8) * SWIRL_REACH, swirl };
  });
  return { pip: to8bit(look.pip), body: to8bit(look.body), marble: to8bit(look.marble ?? look.body), swirls };
}

/** How much of the second colour shows at (x, y): the swirl, fading out at the edge of each die's disc. */
function marbleShare(tone: MarbledTone, x: number, y: number): number {
  let share = 0;
  for (const s of tone.swirls) {
    const r = Math.hypot(x - s.x, y - s.y) / s.reach;
    if (r >= 1) continue;
    const fade = r <= SWIRL_FADE_FROM ? 1 : (1 - r) / (1 - SWIRL_FADE_FROM);
    share = Math.max(share, s.swirl.at(x - s.x, y - s.y) * fade);
  }
  return share;
}

/** The photo recoloured by lightness: black becomes the pips' colour, white the swirled body's. */
export function marbledRecolourPixels(pixels: RgbPixels, tone: MarbledTone): RgbPixels {
  const { pip, body, marble } = tone;
  const data = new Uint8Array(pixels.data.length);
  const src = pixels.data;
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      const i = (y * pixels.width + x) * 3;
      const l = (0.299 * src[i] + 0.587 * src[i + 1] + 0.114 * src[i + 2]) / 255;
      const m = marbleShare(tone, x + 0.5, y + 0.5);
      for (let c = 0; c < 3; c++) {
        const light = body[c] + (marble[c] - body[c]) * m;
        data[i + c] = Math.round(pip[c] + (light - pip[c]) * l);
      }
    }
  }
  return { data, width: pixels.width, height: pixels.height };
}

/** The same frame, the same dice, made marbled. */
export function withMarbledRecolour(sample: FrameSample, tone: MarbledTone): FrameSample {
  return { ...sample, pixels: marbledRecolourPixels(sample.pixels, tone) };
}
