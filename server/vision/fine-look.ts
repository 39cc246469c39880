/**
 * The fine look at a large frame (pure geometry and merging). The detector learned dice 10–60 of its
 * input pixels across: what a 640×480 frame, letterboxed into the spec's 320×240, gives for dice of
 * 20–120 frame pixels. A larger frame is shrunk further for the first look, so dice of the same pixel
 * size fall below what the detector knows (a 1280×960 frame: dice under 40 px; a 1920×1080 one: under
 * 60 px), though a 1080p webcam over a tray sees 16 mm dice at about that size. For such a frame the
 * reader runs the same fully convolutional detector once more on the whole frame at FINE_SCALE, and
 * keeps from each look the dice of the sizes it sees well (models/README.md, "Large frames").
 */
import type { Detection } from './decide.ts';
import { ceil16, letterboxFor, type InputSize } from './preprocess.ts';

/** Detector-input pixels per frame pixel of the fine look: the scale a 640×480 frame is first seen at. */
export const FINE_SCALE = 0.5;

/** The fine look's input at most (about 4× the work of the first look's 320×240 on each side's square). */
export const FINE_MAX_INPUT: InputSize = { width: 1024, height: 768 };

/** A frame is looked at finely when that magnifies it at least this much over the first look. */
const MIN_GAIN = 1.25;

/** The largest die, in fine-look input pixels, the fine look is trusted with (the detector learned up to 60). */
export const FINE_LOOK_MAX_PX = 60;

/** The scale the first look sees a frame at (the spec's letterbox). */
export function firstLookScale(width: number, height: number): number {
  return letterboxFor(width, height).scale;
}

/**
 * The detector input of the fine look at a `width` × `height` frame: the frame at FINE_SCALE (less for
 * a frame beyond FINE_MAX_INPUT's), each side rounded up to a multiple of 16; null for a frame the first
 * look already sees at nearly that scale (640×480 and smaller).
 */
export function fineLookInput(width: number, height: number): InputSize | null {
  const scale = fineLookScale(width, height);
  if (scale === null) return null;
  // FINE_MAX_INPUT's sides are multiples of 16, so rounding up never passes them
  return { width: ceil16(width * scale), height: ceil16(height * scale) };
}

/** Detector-input pixels per frame pixel of the fine look at a `width` × `height` frame; null where fineLookInput is. */
export function fineLookScale(width: number, height: number): number | null {
  const scale = Math.min(FINE_SCALE, FINE_MAX_INPUT.width / width, FINE_MAX_INPUT.height / height);
  return scale < firstLookScale(width, height) * MIN_GAIN ? null : scale;
}

/** A die the first look sees at least this many detector pixels across is left to it (what it was tuned on). */
export const FIRST_LOOK_MIN_PX = 20;

/** How far from a die's centre (× its size) its sides and pips may be taken for dice of their own. */
const DIE_REACH = 1;

/**
 * The dice of both looks (frame pixels), each die once. A die the first look sees at FIRST_LOOK_MIN_PX or
 * more (at `firstScale`) stays as the first look found it, and fine-look peaks within DIE_REACH of it (its
 * pips and sides, seen as dice of their own at the finer scale) are dropped. The fine look places the
 * smaller dice, up to FINE_LOOK_MAX_PX at `fineScale`; a smaller die of the first look is kept where the
 * fine look found nothing within `sameDie` × the larger size. Strongest first.
 */
export function mergeLooks(first: Detection[], fine: Detection[], firstScale: number, fineScale: number, sameDie: number): Detection[] {
  const firstOwns = first.filter((d) => d.size * firstScale >= FIRST_LOOK_MIN_PX);
  const withinReach = (d: Detection): boolean => firstOwns.some((b) => Math.abs(d.x - b.x) < b.size * DIE_REACH && Math.abs(d.y - b.y) < b.size * DIE_REACH);
  const kept = [...firstOwns, ...fine.filter((d) => d.size * fineScale <= FINE_LOOK_MAX_PX && !withinReach(d))];
  const near = (a: Detection, b: Detection): boolean => Math.hypot(a.x - b.x, a.y - b.y) < sameDie * Math.max(a.size, b.size);
  for (const d of first) {
    if (firstOwns.includes(d) || kept.some((k) => near(k, d))) continue;
    kept.push(d);
  }
  return kept.sort((a, b) => b.score - a.score);
}
