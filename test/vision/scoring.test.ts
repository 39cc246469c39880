import { describe, expect, it } from 'vitest';
import { formatConfusion, matchImage, matchRadius, median, percentile, scoreImages, type LabelBox } from '../../server/vision/scoring.ts';

const label = (x: number, y: number, face: number, w = 60, h = 60): LabelBox => ({ x, y, w, h, face });

describe('matchImage', () => {
  it('uses 0.6 × max(w, h) but at least 25 px', () => {
    expect(matchRadius(label(0, 0, 1, 100, 50))).toBe(60);
    expect(matchRadius(label(0, 0, 1, 5, 8))).toBe(25);
  });

  it('matches within the radius and not beyond it', () => {
    const m = matchImage([label(100, 100, 3, 4, 4)], [{ x: 124, y: 100, face: 3 }]);
    expect(m.pairs).toEqual([[0, 0]]);
    const miss = matchImage([label(100, 100, 3, 4, 4)], [{ x: 126, y: 100, face: 3 }]);
    expect(miss.pairs).toEqual([]);
    expect(miss.unmatchedLabels).toEqual([0]);
    expect(miss.unmatchedPredictions).toEqual([0]);
  });

  it('is greedy by distance: the closest pair wins, each prediction used once', () => {
    const labels = [label(100, 100, 1), label(140, 100, 2)];
    const preds = [{ x: 135, y: 100, face: 2 }, { x: 101, y: 100, face: 1 }];
    const m = matchImage(labels, preds);
    expect(m.pairs.sort()).toEqual([[0, 1], [1, 0]]);
    const one = matchImage(labels, [{ x: 120, y: 100, face: 1 }]);
    expect(one.pairs.length).toBe(1);
    expect(one.unmatchedLabels.length).toBe(1);
  });
});

describe('scoreImages', () => {
  it('computes face accuracy, recall, precision, whole-roll accuracy and the confusion matrix', () => {
    const s = scoreImages([
      // perfect image
      { labels: [label(100, 100, 1), label(300, 100, 6)], preds: [{ x: 102, y: 99, face: 1 }, { x: 298, y: 103, face: 6 }] },
      // one wrong face, one unreadable, one extra prediction
      {
        labels: [label(100, 100, 5), label(300, 300, 6)],
        preds: [{ x: 100, y: 100, face: 6 }, { x: 300, y: 300, face: null }, { x: 500, y: 400, face: 2 }],
      },
      // a missed die
      { labels: [label(50, 50, 2)], preds: [] },
    ]);
    expect(s.images).toBe(3);
    expect(s.dice).toBe(5);
    expect(s.found).toBe(4);
    expect(s.correct).toBe(2);
    expect(s.faceAccuracy).toBeCloseTo(2 / 5);
    expect(s.recall).toBeCloseTo(4 / 5);
    expect(s.predictions).toBe(5);
    expect(s.precision).toBeCloseTo(4 / 5);
    expect(s.wholeRollAccuracy).toBeCloseTo(1 / 3);
    expect(s.extra).toBe(1);
    expect(s.confusion[4][5]).toBe(1); // 5 read as 6
    expect(s.confusion[5][6]).toBe(1); // 6 unreadable
    expect(s.confusion[1][7]).toBe(1); // 2 missed
    expect(s.confusion[0][0]).toBe(1);
    expect(formatConfusion(s.confusion).split('\n')).toHaveLength(7);
  });

  it('an image with no dice and no predictions is a whole-roll success; an extra prediction is not', () => {
    expect(scoreImages([{ labels: [], preds: [] }]).wholeRollAccuracy).toBe(1);
    expect(scoreImages([{ labels: [], preds: [{ x: 1, y: 1, face: 3 }] }]).wholeRollAccuracy).toBe(0);
  });
});

describe('median and percentile', () => {
  it('work on unsorted input', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(median([])).toBe(0);
  });
});
