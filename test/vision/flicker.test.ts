import { describe, expect, it } from 'vitest';
import { answersOf, asideAnswersOf, changes, summariseFlicker, type StillTrayRecord } from '../../server/vision/flicker.ts';

const labels = [
  { x: 100, y: 100, w: 40, h: 40, face: 4 },
  { x: 300, y: 200, w: 40, h: 40, face: 2 },
  { x: 500, y: 400, w: 40, h: 40, face: 6 },
];

describe('answersOf', () => {
  it('gives each labelled die its face, "unsure" for a die found with no face, "missed" for none near it', () => {
    const preds = [
      { x: 302, y: 198, face: null },
      { x: 104, y: 97, face: 5 },
      { x: 400, y: 400, face: 6 }, // 100 px from the third die: too far to be it
    ];
    expect(answersOf(labels, preds)).toEqual([5, 'unsure', 'missed']);
  });
});

describe('asideAnswersOf', () => {
  it('gives a die with no right face what the readings not taken by a labelled die say of it', () => {
    const leaning = [{ x: 130, y: 100, w: 40, h: 40 }, { x: 600, y: 50, w: 40, h: 40 }, { x: 200, y: 400, w: 40, h: 40 }];
    const preds = [
      { x: 104, y: 97, face: 5 }, // the first labelled die's, though the leaning die is near too
      { x: 598, y: 52, face: null },
      { x: 203, y: 401, face: 3 },
    ];
    expect(asideAnswersOf(labels, leaning, preds)).toEqual(['missed', 'unsure', 3]);
    expect(asideAnswersOf(labels, [], preds)).toEqual([]);
  });
});

describe('changes', () => {
  it('counts the frames whose answer differs from the one before', () => {
    expect(changes([4, 4, 5, 4, 4])).toBe(2);
    expect(changes([4, 'unsure', 'missed', 'missed'])).toBe(2);
    expect(changes([3])).toBe(0);
    expect(changes([])).toBe(0);
  });
});

describe('summariseFlicker', () => {
  const steady: StillTrayRecord = {
    faces: [4, 2],
    frames: 5,
    raw: [null, null, [4, 2], [4, 2], [4, 3]],
    shown: [null, null, [4, 2], [4, 2], [4, 2]],
    readings: [{ frame: 3, faces: [2, 4], kept: [], unreadable: 0 }],
    unsettledFrames: 2,
  };
  const shaky: StillTrayRecord = {
    faces: [6],
    frames: 5,
    raw: [null, [6], null, ['unsure'], [6]],
    shown: [null, [6], null, [6], [6]],
    readings: [
      { frame: 1, faces: [6], kept: [], unreadable: 0 },
      { frame: 3, faces: [], kept: [], unreadable: 1 },
    ],
    unsettledFrames: 2,
  };
  const silent: StillTrayRecord = { faces: [1], frames: 5, raw: [null, null, null, null, null], shown: [null, null, null, null, null], readings: [], unsettledFrames: 5 };

  it('counts changes over the frames read only, per die, before and after the stabiliser', () => {
    const s = summariseFlicker([steady, shaky, silent]);
    expect(s).toMatchObject({ scenes: 3, dice: 4, frames: 15, framesRead: 6, unsettledFrames: 9 });
    // steady: the second die 2, 2, 3 (one change); shaky: 6, unsure, 6 (two changes over the gap)
    expect(s.raw).toEqual({ dieFrames: 9, changes: 3, changesPer100DieFrames: (100 * 3) / 9, diceThatChanged: 2, diceAlwaysRight: 1 });
    expect(s.shown).toEqual({ dieFrames: 9, changes: 0, changesPer100DieFrames: 0, diceThatChanged: 0, diceAlwaysRight: 3 });
  });

  it('counts the readings the game was told, and whether the first and last were the labelled faces', () => {
    const r = summariseFlicker([steady, shaky, silent]).readings;
    expect(r).toEqual({
      total: 3,
      afterFirst: 1,
      rollChanges: 0,
      scenesWithRollChange: 0,
      scenesWithoutReading: 1,
      scenesWithOneReading: 1,
      firstRight: 2,
      lastRight: 1, // shaky's last reading has its die unreadable
      medianFramesToFirst: 3, // frames 4 and 2
    });
  });

  it('follows the dice with no right face apart: the last frame shown, a face in any frame, the reader alone', () => {
    const leaning: StillTrayRecord = {
      ...steady,
      aside: {
        kinds: ['leaningOnDice', 'leaningOnWall', 'leaningOnDice'],
        raw: [null, null, ['unsure', 3, 'missed'], [4, 3, 'missed'], ['unsure', 3, 'unsure']],
        shown: [null, null, ['unsure', 3, 'missed'], ['unsure', 3, 'missed'], ['unsure', 'unsure', 'missed']],
      },
      // the two labelled dice and the two leaning dice found, "not sure": the right answer
      readings: [{ frame: 3, faces: [2, 4], kept: [], unreadable: 2 }],
    };
    const s = summariseFlicker([leaning, steady]);
    expect(s.aside).toEqual([
      { kind: 'leaningOnDice', about: 'dice leaning on another die', last: { dice: 2, notSure: 1, guessed: 0, notFound: 1 }, everShownWithFace: 0, rawDieFrames: 6, rawWithFace: 1 },
      { kind: 'leaningOnWall', about: 'dice leaning against the tray wall', last: { dice: 1, notSure: 1, guessed: 0, notFound: 0 }, everShownWithFace: 1, rawDieFrames: 3, rawWithFace: 3 },
    ]);
    expect(s.readings).toMatchObject({ firstRight: 2, lastRight: 2 });
    // a reading with more dice unreadable than the tray has dice with no right face is wrong
    expect(summariseFlicker([{ ...leaning, readings: [{ frame: 3, faces: [2, 4], kept: [], unreadable: 4 }] }]).readings.firstRight).toBe(0);
    expect(summariseFlicker([steady]).aside).toEqual([]);
  });

  it('takes a reading with a die in the kept zone, or one die short, as wrong', () => {
    const kept: StillTrayRecord = { ...steady, readings: [{ frame: 3, faces: [4], kept: [2], unreadable: 0 }] };
    const short: StillTrayRecord = { ...steady, readings: [{ frame: 3, faces: [4], kept: [], unreadable: 0 }] };
    expect(summariseFlicker([kept, short]).readings).toMatchObject({ firstRight: 0, lastRight: 0 });
    expect(summariseFlicker([]).readings.medianFramesToFirst).toBeNull();
  });

  it('counts a change of the roll only between complete readings (an unreadable die holds the roll back)', () => {
    const r = (frame: number, faces: number[], unreadable = 0, kept: number[] = []) => ({ frame, faces, kept, unreadable });
    const churn: StillTrayRecord = {
      ...steady,
      readings: [r(3, [2, 4]), r(5, [2], 1), r(7, [2, 4]), r(9, [2, 5]), r(11, [2], 0, [5]), r(13, [2, 4])],
    };
    // [2,4] → (held back) → [2,4] same → [2,5] change → [2,5] (one die kept) same → [2,4] change
    expect(summariseFlicker([churn]).readings).toMatchObject({ total: 6, afterFirst: 5, rollChanges: 2, scenesWithRollChange: 1 });
    expect(summariseFlicker([churn, steady, churn]).readings).toMatchObject({ rollChanges: 4, scenesWithRollChange: 2 });
  });
});
