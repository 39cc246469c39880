/**
 * How steady the dice of a still tray read, frame after frame (`npm run dice:flicker`). Pure.
 * A labelled die's answer in a frame is the face it was read as, 'unsure' (found, no face said) or
 * 'missed'; it flickers in a frame whose answer differs from its answer in the frame read before.
 */
import { matchImage, median, type LabelBox, type PredictedDie } from './scoring.ts';
import { asideMatches, SET_ASIDE_FILES, type SetAsideDie, type SetAsideKind, type SetAsideReads } from './set-aside-dice.ts';
import { sameFaces } from '../dice/faces.ts';
import type { Face } from '../dice/types.ts';

export type Answer = number | 'unsure' | 'missed';

/** Each label's answer among `preds` (matched as dice:eval matches). */
export function answersOf(labels: readonly LabelBox[], preds: readonly PredictedDie[]): Answer[] {
  const answers: Answer[] = labels.map(() => 'missed');
  for (const [li, pi] of matchImage([...labels], [...preds]).pairs) answers[li] = preds[pi].face ?? 'unsure';
  return answers;
}

/**
 * Each set-aside die's answer (a die with no right face: leaning, or a pip covered) among the predictions
 * not taken by a labelled die, matched as dice:eval sets them aside (set-aside-dice.ts).
 */
export function asideAnswersOf(labels: readonly LabelBox[], aside: readonly SetAsideDie[], preds: readonly PredictedDie[]): Answer[] {
  return asideMatches(labels, aside, preds).map((i) => (i < 0 ? 'missed' : (preds[i].face ?? 'unsure')));
}

/** Frames whose answer differs from the one before it. */
export function changes(sequence: readonly Answer[]): number {
  let n = 0;
  for (let i = 1; i < sequence.length; i++) if (sequence[i] !== sequence[i - 1]) n++;
  return n;
}

export interface EmittedReading {
  /** index of the frame that completed it */
  frame: number;
  faces: number[];
  kept: number[];
  unreadable: number;
}

export interface StillTrayRecord {
  /** the faces of the labelled dice */
  faces: number[];
  frames: number;
  /** per frame: each labelled die's answer from the reader alone (null: the frame was not read) */
  raw: (Answer[] | null)[];
  /** the same after the stabiliser, as the dashboard shows the dice */
  shown: (Answer[] | null)[];
  /** the stable readings the camera passed on to the game */
  readings: EmittedReading[];
  /** frames the settle detector did not take as settled (the first few, and any the noise made look like motion) */
  unsettledFrames: number;
  /** the dice with no right face (leaning, a pip covered), each of its kind, and their answers frame by frame as `raw` and `shown` */
  aside?: { kinds: SetAsideKind[]; raw: (Answer[] | null)[]; shown: (Answer[] | null)[] };
}

/** How the dashboard showed the set-aside dice of one kind in the last frame read, and how often any was named a face. */
export interface AsideSteadiness {
  kind: SetAsideKind;
  about: string;
  /** in the last frame read of each tray, after the stabiliser: "not sure", a face, not found */
  last: SetAsideReads;
  /** dice the dashboard showed with a face in any frame */
  everShownWithFace: number;
  /** frames read × dice, and those the reader alone named a face in */
  rawDieFrames: number;
  rawWithFace: number;
}

export interface AnswerSteadiness {
  /** die-frames with an answer (frames read × labelled dice) */
  dieFrames: number;
  /** answers that differ from the same die's answer in the frame read before */
  changes: number;
  changesPer100DieFrames: number;
  /** dice whose answer changed at least once */
  diceThatChanged: number;
  /** dice whose answer was their true face in every frame read */
  diceAlwaysRight: number;
}

export interface FlickerSummary {
  scenes: number;
  dice: number;
  frames: number;
  framesRead: number;
  unsettledFrames: number;
  raw: AnswerSteadiness;
  shown: AnswerSteadiness;
  readings: {
    total: number;
    /** readings after a scene's first: each changed what the game was told about dice that did not move */
    afterFirst: number;
    /**
     * complete readings (no die unreadable: the ones a table sends to the game as a roll) whose dice
     * differ from the scene's complete reading before: each would have changed the roll
     */
    rollChanges: number;
    /** scenes with at least one such change */
    scenesWithRollChange: number;
    scenesWithoutReading: number;
    scenesWithOneReading: number;
    /** first (last) reading equal to the labelled faces, nothing unreadable but the set-aside dice */
    firstRight: number;
    lastRight: number;
    /** frames from the first frame to the one that completed the first reading */
    medianFramesToFirst: number | null;
  };
  /** the set-aside dice, by kind (none when the trays have none) */
  aside: AsideSteadiness[];
}

function asideSteadiness(records: readonly StillTrayRecord[]): AsideSteadiness[] {
  const byKind = new Map<SetAsideKind, AsideSteadiness>();
  for (const r of records) {
    if (!r.aside) continue;
    const raw = r.aside.raw.filter((f): f is Answer[] => f !== null);
    const shown = r.aside.shown.filter((f): f is Answer[] => f !== null);
    r.aside.kinds.forEach((kind, die) => {
      let s = byKind.get(kind);
      if (!s) byKind.set(kind, (s = { kind, about: SET_ASIDE_FILES[kind].about, last: { dice: 0, notSure: 0, guessed: 0, notFound: 0 }, everShownWithFace: 0, rawDieFrames: 0, rawWithFace: 0 }));
      s.last.dice++;
      const last = shown.at(-1)?.[die] ?? 'missed';
      if (last === 'unsure') s.last.notSure++;
      else if (last === 'missed') s.last.notFound++;
      else s.last.guessed++;
      if (shown.some((f) => typeof f[die] === 'number')) s.everShownWithFace++;
      s.rawDieFrames += raw.length;
      s.rawWithFace += raw.filter((f) => typeof f[die] === 'number').length;
    });
  }
  const order = Object.keys(SET_ASIDE_FILES);
  return [...byKind.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

function rollChanges(readings: readonly EmittedReading[]): number {
  const rolls = readings.filter((e) => e.unreadable === 0).map((e) => [...e.faces, ...e.kept] as Face[]);
  return rolls.filter((roll, i) => i > 0 && !sameFaces(roll, rolls[i - 1])).length;
}

function steadiness(records: readonly StillTrayRecord[], pick: (r: StillTrayRecord) => (Answer[] | null)[]): AnswerSteadiness {
  let dieFrames = 0;
  let changed = 0;
  let diceThatChanged = 0;
  let diceAlwaysRight = 0;
  for (const r of records) {
    const read = pick(r).filter((frame): frame is Answer[] => frame !== null);
    r.faces.forEach((face, die) => {
      const sequence = read.map((frame) => frame[die]);
      const n = changes(sequence);
      dieFrames += sequence.length;
      changed += n;
      if (n > 0) diceThatChanged++;
      if (sequence.length > 0 && sequence.every((a) => a === face)) diceAlwaysRight++;
    });
  }
  return { dieFrames, changes: changed, changesPer100DieFrames: dieFrames ? (100 * changed) / dieFrames : 0, diceThatChanged, diceAlwaysRight };
}

export function summariseFlicker(records: readonly StillTrayRecord[]): FlickerSummary {
  // a die with no right face is rightly unreadable (or not there at all)
  const right = (r: StillTrayRecord, e: EmittedReading | undefined) =>
    !!e && e.unreadable <= (r.aside?.kinds.length ?? 0) && e.kept.length === 0 && sameFaces(e.faces as Face[], r.faces as Face[]);
  const firsts = records.flatMap((r) => (r.readings.length ? [r.readings[0].frame + 1] : []));
  const changesPerScene = records.map((r) => rollChanges(r.readings));
  return {
    scenes: records.length,
    dice: records.reduce((n, r) => n + r.faces.length, 0),
    frames: records.reduce((n, r) => n + r.frames, 0),
    framesRead: records.reduce((n, r) => n + r.raw.filter((f) => f !== null).length, 0),
    unsettledFrames: records.reduce((n, r) => n + r.unsettledFrames, 0),
    raw: steadiness(records, (r) => r.raw),
    shown: steadiness(records, (r) => r.shown),
    readings: {
      total: records.reduce((n, r) => n + r.readings.length, 0),
      afterFirst: records.reduce((n, r) => n + Math.max(0, r.readings.length - 1), 0),
      rollChanges: changesPerScene.reduce((a, b) => a + b, 0),
      scenesWithRollChange: changesPerScene.filter((n) => n > 0).length,
      scenesWithoutReading: records.filter((r) => r.readings.length === 0).length,
      scenesWithOneReading: records.filter((r) => r.readings.length === 1).length,
      firstRight: records.filter((r) => right(r, r.readings[0])).length,
      lastRight: records.filter((r) => right(r, r.readings.at(-1))).length,
      medianFramesToFirst: firsts.length ? median(firsts) : null,
    },
    aside: asideSteadiness(records),
  };
}
