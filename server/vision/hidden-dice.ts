/**
 * Scoring dice that something lies over (a synthetic set drawn with occluders, server/synth/occluder.ts):
 * a die with a pip hidden cannot be read, so the right answer is "not sure" or nothing. Such dice are
 * not labelled with a face; a set lists them apart (`hidden.json`), and the readings on them are set aside
 * from the face, recall and precision figures and counted here (pure).
 */
import { matchImage, type LabelBox, type PredictedDie } from './scoring.ts';

/** A hidden die: centre and whole-die box, in pixels once `inPixels` has scaled it to its frame. */
export interface HiddenDie {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface HiddenReads {
  hidden: number;
  /** reported as "not sure" */
  notSure: number;
  /** reported with a face: a guess, right or wrong */
  guessed: number;
  notFound: number;
}

/**
 * The predictions that are not on a hidden die (those matched to a labelled die first, as the scoring
 * matches them), and how the hidden dice were read.
 */
export function setAsideHidden<P extends PredictedDie>(labels: LabelBox[], hidden: HiddenDie[], preds: P[]): { preds: P[]; reads: HiddenReads } {
  const free = matchImage(labels, preds).unmatchedPredictions;
  const onHidden = matchImage(
    hidden.map((h) => ({ ...h, face: 0 })),
    free.map((i) => preds[i]),
  );
  const setAside = new Set(onHidden.pairs.map(([, k]) => free[k]));
  const faces = onHidden.pairs.map(([, k]) => preds[free[k]].face);
  return {
    preds: preds.filter((_, i) => !setAside.has(i)),
    reads: {
      hidden: hidden.length,
      notSure: faces.filter((f) => f === null).length,
      guessed: faces.filter((f) => f !== null).length,
      notFound: onHidden.unmatchedLabels.length,
    },
  };
}

/** Hidden dice given as fractions of the frame (as `hidden.json` holds them) in pixels of a width × height frame. */
export function inPixels(dice: readonly HiddenDie[], width: number, height: number): HiddenDie[] {
  return dice.map((d) => ({ x: d.x * width, y: d.y * height, w: d.w * width, h: d.h * height }));
}

export function addHiddenReads(a: HiddenReads, b: HiddenReads): HiddenReads {
  return { hidden: a.hidden + b.hidden, notSure: a.notSure + b.notSure, guessed: a.guessed + b.guessed, notFound: a.notFound + b.notFound };
}

/**
 * Parses a set's `hidden.json`: { "image file": [{ x, y, w, h }, …] }, centre and box as fractions of the
 * frame (as YOLO labels are); throws a clear error on anything else.
 */
export function parseHiddenDice(text: string, source: string): Map<string, HiddenDie[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON (${(err as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${source}: expected an object of image name → hidden dice`);
  const out = new Map<string, HiddenDie[]>();
  for (const [image, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) throw new Error(`${source}: "${image}" should list hidden dice`);
    out.set(
      image,
      list.map((d: unknown, i) => {
        const box = d as Record<string, unknown>;
        const ok = typeof d === 'object' && d !== null && ['x', 'y', 'w', 'h'].every((k) => typeof box[k] === 'number' && box[k] >= 0 && box[k] <= 1);
        if (!ok) throw new Error(`${source}: "${image}" die ${i} needs x, y, w, h as fractions of the frame (0 to 1)`);
        return { x: box.x as number, y: box.y as number, w: box.w as number, h: box.h as number };
      }),
    );
  }
  return out;
}
