/**
 * Scoring dice a set holds unreadable on purpose: a die with a pip covered by a fingertip, pencil or
 * card (server/synth/occluder.ts), a die leaning on another die or against the tray wall
 * (server/synth/leaning.ts), a die a player marked cocked on a photo of their own dice (dice-sample.ts). The right answer for such a die is "not sure" (or nothing); it is not
 * labelled with a face, but listed in a file of its own beside the labels (SET_ASIDE_FILES), and the
 * readings on it are set aside from the face, recall and precision figures and counted here (pure).
 */
import { matchImage, type LabelBox, type PredictedDie } from './scoring.ts';

/** The files a set lists its set-aside dice in, each with what its dice are. */
export const SET_ASIDE_FILES = {
  hidden: { file: 'hidden.json', about: 'hidden dice (a pip covered)' },
  leaningOnDice: { file: 'leaning-on-dice.json', about: 'dice leaning on another die' },
  leaningOnWall: { file: 'leaning-on-wall.json', about: 'dice leaning against the tray wall' },
  cocked: { file: 'cocked.json', about: 'dice a player marked cocked (no face up)' },
} as const;

export type SetAsideKind = keyof typeof SET_ASIDE_FILES;

/** A set-aside die: centre and whole-die box, in pixels once `inPixels` has scaled it to its frame. */
export interface SetAsideDie {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SetAsideReads {
  dice: number;
  /** reported as "not sure" */
  notSure: number;
  /** reported with a face: a guess, right or wrong */
  guessed: number;
  notFound: number;
}

export const NO_READS: SetAsideReads = { dice: 0, notSure: 0, guessed: 0, notFound: 0 };

/**
 * The predictions that are not on a set-aside die (those matched to a labelled die first, as the scoring
 * matches them), and how the set-aside dice were read.
 */
export function setAside<P extends PredictedDie>(labels: LabelBox[], aside: SetAsideDie[], preds: P[]): { preds: P[]; reads: SetAsideReads } {
  const matches = asideMatches(labels, aside, preds);
  const taken = new Set(matches.filter((i) => i >= 0));
  const faces = matches.filter((i) => i >= 0).map((i) => preds[i].face);
  return {
    preds: preds.filter((_, i) => !taken.has(i)),
    reads: {
      dice: aside.length,
      notSure: faces.filter((f) => f === null).length,
      guessed: faces.filter((f) => f !== null).length,
      notFound: matches.filter((i) => i < 0).length,
    },
  };
}

/**
 * For each set-aside die, the prediction it is read by (its index in `preds`; -1: none), among those
 * not matched to a labelled die first, matched as the scoring matches.
 */
export function asideMatches(labels: readonly LabelBox[], aside: readonly SetAsideDie[], preds: readonly PredictedDie[]): number[] {
  const free = matchImage([...labels], [...preds]).unmatchedPredictions;
  const onAside = matchImage(
    aside.map((h) => ({ ...h, face: 0 })),
    free.map((i) => preds[i]),
  );
  const matches = aside.map(() => -1);
  for (const [a, k] of onAside.pairs) matches[a] = free[k];
  return matches;
}

/** Set-aside dice given as fractions of the frame (as the files hold them) in pixels of a width × height frame. */
export function inPixels(dice: readonly SetAsideDie[], width: number, height: number): SetAsideDie[] {
  return dice.map((d) => ({ x: d.x * width, y: d.y * height, w: d.w * width, h: d.h * height }));
}

export function addReads(a: SetAsideReads, b: SetAsideReads): SetAsideReads {
  return { dice: a.dice + b.dice, notSure: a.notSure + b.notSure, guessed: a.guessed + b.guessed, notFound: a.notFound + b.notFound };
}

/** One line of figures: how many, "not sure", read with a face, not found. */
export function formatReads(kind: SetAsideKind, r: SetAsideReads): string {
  return `${SET_ASIDE_FILES[kind].about}, not labelled, their readings set aside: ${r.dice}, "not sure" ${r.notSure}, read with a face ${r.guessed}, not found ${r.notFound}`;
}

/**
 * Parses a JSON file of image name → value (`what` names the value in the error for anything else);
 * `parseValue` checks each value and throws its own error, naming the source and image.
 */
export function parseImageMap<T>(text: string, source: string, what: string, parseValue: (value: unknown, image: string) => T): Map<string, T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON (${(err as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${source}: expected an object of image name → ${what}`);
  return new Map(Object.entries(raw).map(([image, value]) => [image, parseValue(value, image)]));
}

/**
 * Parses a set-aside file: { "image file": [{ x, y, w, h }, …] }, centre and box as fractions of the
 * frame (as YOLO labels are); throws a clear error on anything else.
 */
export function parseSetAsideDice(text: string, source: string): Map<string, SetAsideDie[]> {
  return parseImageMap(text, source, 'dice', (list, image) => {
    if (!Array.isArray(list)) throw new Error(`${source}: "${image}" should list dice`);
    return list.map((d: unknown, i) => {
      const box = d as Record<string, unknown>;
      const ok = typeof d === 'object' && d !== null && ['x', 'y', 'w', 'h'].every((k) => typeof box[k] === 'number' && box[k] >= 0 && box[k] <= 1);
      if (!ok) throw new Error(`${source}: "${image}" die ${i} needs x, y, w, h as fractions of the frame (0 to 1)`);
      return { x: box.x as number, y: box.y as number, w: box.w as number, h: box.h as number };
    });
  });
}
