/**
 * Geometry of the closer look at a doubtful die (pure). The detector sees a 640×480 frame at half size,
 * so a 20 px die covers a few of its cells and its centre may come out a sixth of its size off: enough
 * to crop it badly and misread it. The reader runs the detector again on a window of the frame around
 * such a die, zoomed so that the die measures `targetPx` detector-input pixels, and places and sizes the
 * die again from the peak nearest the first centre (models/TRAINING.md, "The closer look").
 */
import type { Detection } from './decide.ts';
import type { Peak } from './heatmap.ts';
import { inputToFrame, letterboxFor, type FrameWindow, type InputSize, type Letterbox } from './preprocess.ts';

/**
 * The detector input a window is letterboxed into: the detector is fully convolutional, and a window of
 * about four dice across needs no more (a sixth of the first look's pixels, so looks are cheap).
 */
export const CLOSER_LOOK_INPUT: InputSize = { width: 128, height: 96 };

/** A window that would magnify the die less than this over the first look is not worth a detector pass. */
const MIN_ZOOM = 1.05;

/** A peak further than this × the die's size from the first centre is another die. */
const SAME_DIE = 0.5;

/**
 * The window of the frame (CLOSER_LOOK_INPUT's aspect, inside the frame) in which `die` measures
 * `targetPx` detector-input pixels, or null when that is hardly closer than the whole frame (big dice).
 */
export function closerLookWindow(die: Detection, frameWidth: number, frameHeight: number, targetPx: number): FrameWindow | null {
  const into = CLOSER_LOOK_INPUT;
  const width = Math.min(frameWidth, Math.round((into.width * die.size) / targetPx));
  const height = Math.min(frameHeight, Math.round((into.height * die.size) / targetPx));
  if (width < 1 || height < 1) return null;
  const firstScale = letterboxFor(frameWidth, frameHeight).scale;
  const scale = Math.min(into.width / width, into.height / height);
  if (scale < firstScale * MIN_ZOOM) return null;
  const x0 = Math.max(0, Math.min(frameWidth - width, Math.round(die.x - width / 2)));
  const y0 = Math.max(0, Math.min(frameHeight - height, Math.round(die.y - height / 2)));
  return { x0, y0, width, height };
}

/**
 * `die` placed and sized by the window's peak nearest its first centre (peaks in the window's letterboxed
 * detector input), keeping its first score; null when no peak lies within half its size.
 */
export function placeAgain(die: Detection, peaks: Peak[], box: Letterbox, window: FrameWindow): Detection | null {
  let best: Detection | null = null;
  let bestDistance = SAME_DIE * die.size;
  for (const p of peaks) {
    const placed = inputToFrame(box, p, window);
    const distance = Math.hypot(placed.x - die.x, placed.y - die.y);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = { ...placed, score: die.score };
    }
  }
  return best;
}
