/** Pure: turn detections and classifier probabilities into SeenDie readings, with honest "not sure". */
import type { SeenDie } from '../http/protocol.ts';
import { CLASS_BLURRED, CLASS_COCKED, CLASS_NONE } from './spec.ts';

export interface Detection {
  /** centre of the top face, frame pixels */
  x: number;
  y: number;
  /** top-face size, frame pixels */
  size: number;
  /** detector confidence 0..1 */
  score: number;
}

export interface DecisionThresholds {
  /**
   * drop a detection when P(none) is at least this (0.5 to 1.14.0; 0.3 since 1.15.0, chosen on the tuning sets:
   * the same faces, fewer extras; models/TRAINING.md, steps 182–183)
   */
  none: number;
  /** below this face probability the die is reported unreadable ('unsure') */
  face: number;
  /**
   * a die is unreadable (cocked, or its pips cut or covered) when P(unreadable pose) is more than this ×
   * the six faces' total (1: whichever is more likely). 0.8 since 2026-12-03 (1 before): a die leaning on
   * another die or against the tray wall that the classifier names a face often gives "cocked" nearly as
   * much as its faces, and a flat die seldom does. Chosen on the tuning sets (seed 2 leaning, coloured and
   * close camera, crowded seed 4; 300 frames each, replayed from the classifier's outputs): a face named for
   * 56 of the 550 leaning dice instead of 65, for 1 of 1 909, 2 of 5 715 and none of 1 011 flat dice more
   * said "not sure" (0.8 rather than 0.75, which stops 2 more guesses for 4 more flat dice; models/TRAINING.md,
   * "The cocked ratio lowered for leaning dice").
   */
  cocked: number;
  /**
   * a die whose top face reaches beyond the frame by more than this × size is 'edge' whatever the
   * classifier says: by then every face but a one has lost a pip (pips reach to 0.1–0.2 × size from
   * the face's edge), with a margin for the detector's error in centre and size (about 0.1 × size).
   * A less cut die is read when the classifier, trained on cut dice with and without lost pips, sees
   * all its pips.
   */
  edge: number;
  /** a die reaching beyond the frame by more than this × size and not readable is 'edge', not 'cocked' */
  cut: number;
  /**
   * a 'not sure' detection whose centre is closer than this × size to a die read with a face, and which
   * looks smaller than `sideFaceSize` × that die, is that die's visible side (a webcam shows the sides of dice
   * away from the frame centre half a die deep or more, foreshortened, so the detector sizes them
   * smaller), and is dropped. Its centre lies 0.5 × size + half its depth from the top face's; two dice
   * lying flat are at least one size apart.
   * 0 keeps them all.
   */
  sideFace: number;
  sideFaceSize: number;
  /**
   * a cocked, blurred or 'not sure' die whose score (detector peak × the probability of what is said)
   * is below this is not reported: too faint to tell from a side face, a shadow or a token. Cut dice
   * ('edge') are always reported. 0 reports them all.
   */
  faint: number;
}

export const DEFAULT_THRESHOLDS: DecisionThresholds = { none: 0.3, face: 0.4, cocked: 0.8, edge: 0.3, cut: 0.02, sideFace: 0.9, sideFaceSize: 0.8, faint: 0.15 };

/** How far (pixels) a square top face of side `size` centred at (x, y) reaches beyond a width×height frame; 0 inside. */
export function beyondFrame(x: number, y: number, size: number, width: number, height: number): number {
  const half = size / 2;
  return Math.max(half - x, x + half - width, half - y, y + half - height, 0);
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

export function decideDice(dets: Detection[], probs: ArrayLike<number>[], width: number, height: number, t: DecisionThresholds = DEFAULT_THRESHOLDS): SeenDie[] {
  const out: SeenDie[] = [];
  dets.forEach((d, i) => {
    const p = probs[i];
    if (p[CLASS_NONE] >= t.none) return;
    let best = 0;
    for (let k = 1; k < 6; k++) if (p[k] > p[best]) best = k;
    let faceMass = 0;
    for (let k = 0; k < 6; k++) faceMass += p[k];
    const outside = beyondFrame(d.x, d.y, d.size, width, height);
    const die: SeenDie = { x: round1(d.x), y: round1(d.y), w: round1(d.size), h: round1(d.size), face: best + 1, score: 0 };
    // score: how sure we are that this is a die AND of what we say about it
    if (outside > t.edge * d.size) {
      die.face = null;
      die.unreadable = 'edge';
      die.score = d.score * (1 - p[CLASS_NONE]);
    } else if (p[CLASS_COCKED] > t.cocked * faceMass && p[CLASS_COCKED] >= p[CLASS_BLURRED]) {
      // the classifier's "unreadable pose" class also stands for pips cut by the frame or covered by something
      die.face = null;
      die.unreadable = outside > t.cut * d.size ? 'edge' : 'cocked';
      die.score = d.score * p[CLASS_COCKED];
    } else if (p[CLASS_BLURRED] > faceMass) {
      die.face = null;
      die.unreadable = 'blurred';
      die.score = d.score * p[CLASS_BLURRED];
    } else if (p[best] < t.face) {
      die.face = null;
      die.unreadable = 'unsure';
      die.score = d.score * (1 - p[best]);
    } else {
      die.score = d.score * p[best];
    }
    die.score = Math.round(die.score * 1000) / 1000;
    if (die.face === null && die.unreadable !== 'edge' && die.score < t.faint) return;
    out.push(die);
  });
  return dropSideFaces(out, t.sideFace, t.sideFaceSize);
}

export function dropSideFaces(dice: SeenDie[], spacing: number, smaller: number): SeenDie[] {
  const read = dice.filter((d) => d.face !== null);
  const isSideOf = (d: SeenDie, r: SeenDie): boolean => Math.hypot(r.x - d.x, r.y - d.y) < spacing * r.w && d.w < smaller * r.w;
  return dice.filter((d) => d.unreadable !== 'unsure' || !read.some((r) => isSideOf(d, r)));
}
