import { describe, expect, it } from 'vitest';
import { areaUnderPrecision, averagePrecision, formatAveragePrecision, type ScoredDie } from '../../server/vision/average-precision.ts';
import type { LabelBox } from '../../server/vision/scoring.ts';

const die = (x: number, face: number): LabelBox => ({ x, y: 100, w: 40, h: 40, face });
const seen = (x: number, face: number | null, score: number): ScoredDie => ({ x, y: 100, face, score });

describe('areaUnderPrecision', () => {
  it('is 1 when every hit comes before every false detection, whatever follows', () => {
    expect(areaUnderPrecision([true, true, false, false], 2)).toBe(1);
  });

  it('weighs a false detection by where it ranks', () => {
    // precision 1/2 at recall 1/2 lifted by the later 2/3 at recall 1
    expect(areaUnderPrecision([false, true, true], 2)).toBeCloseTo(2 / 3, 10);
    // recall 1/2 at precision 1, then 2/3 at recall 1
    expect(areaUnderPrecision([true, false, true], 2)).toBeCloseTo(0.5 + 0.5 * (2 / 3), 10);
  });

  it('stops at the recall reached: dice never found add no area', () => {
    expect(areaUnderPrecision([true], 4)).toBe(0.25);
    expect(areaUnderPrecision([], 3)).toBe(0);
  });

  it('refuses a face with no labelled die', () => {
    expect(() => areaUnderPrecision([false], 0)).toThrow(/at least one labelled die/);
  });
});

describe('averagePrecision', () => {
  it('is 1 for every labelled face read right, and null for faces no die shows', () => {
    const ap = averagePrecision([{ labels: [die(100, 1), die(200, 5)], preds: [seen(102, 1, 0.9), seen(198, 5, 0.8)] }]);
    expect(ap.byFace).toEqual([1, null, null, null, 1, null]);
    expect(ap.mean).toBe(1);
  });

  it('counts a misread die against the face said and the face shown', () => {
    const ap = averagePrecision([{ labels: [die(100, 1), die(200, 5)], preds: [seen(100, 1, 0.9), seen(200, 6, 0.8)] }]);
    // the 5 was never found as a 5; the 6 said is a false detection of a face no die shows
    expect(ap.byFace).toEqual([1, null, null, null, 0, null]);
    expect(ap.mean).toBe(0.5);
  });

  it('takes a second prediction on a die already found for a false detection, ranked by score across images', () => {
    const items = [
      { labels: [die(100, 3), die(300, 3)], preds: [seen(101, 3, 0.9), seen(99, 3, 0.95)] },
      { labels: [die(100, 3)], preds: [seen(100, 3, 0.5)] },
    ];
    // ranks: 0.95 hit, 0.9 the same die again (false), 0.5 hit; the die at 300 never found
    expect(averagePrecision(items).byFace[2]).toBeCloseTo(1 / 3 + (1 / 3) * (2 / 3), 10);
  });

  it('lets "not sure" dice and dice beyond the match radius count for no face', () => {
    const ap = averagePrecision([{ labels: [die(100, 2)], preds: [seen(100, null, 0.99), seen(100 + 26, 2, 0.9), seen(100, 2, 0.4)] }]);
    // a 40 px label matches within max(25, 0.6 × 40) = 25 px: the 0.9 prediction is a false detection
    expect(ap.byFace[1]).toBeCloseTo(0.5, 10);
  });

  it('names each face in its report', () => {
    const text = formatAveragePrecision({ byFace: [1, 0.5, null, 1, 1, 1], mean: 0.9 });
    expect(text).toMatch(/^mAP 90\.0 % \(AP by face 1: 100\.0 %, 2: 50\.0 %, 3: -, 4: 100\.0 %/);
  });
});
