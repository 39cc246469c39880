import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { meanOverViews, orientedViews } from '../../server/vision/preprocess.ts';

// one 3×3 single-channel-looking crop (all channels equal) with a mark in the top-right corner
const crop = [
  [0, 0, 1],
  [0, 0, 0],
  [0, 0, 0],
];
const asTensor = (rows: number[][]): tf.Tensor4D => tf.tensor4d(rows.flatMap((r) => r.flatMap((v) => [v, v, v])), [1, 3, 3, 3]);
const channel0 = (t: tf.Tensor4D, i: number): number[][] => (t.slice([i, 0, 0, 0], [1, 3, 3, 1]).reshape([3, 3]).arraySync() as number[][]);

describe('classifier views', () => {
  it('keeps one view as it is', () => {
    const v = orientedViews(asTensor(crop), 1);
    expect(v.shape).toEqual([1, 3, 3, 3]);
    expect(channel0(v, 0)).toEqual(crop);
  });

  it('turns the crop by quarter turns, then mirrors them', () => {
    const v = orientedViews(asTensor(crop), 8);
    expect(v.shape).toEqual([8, 3, 3, 3]);
    const corners = Array.from({ length: 8 }, (_, i) => {
      const m = channel0(v, i);
      return [m[0][0], m[0][2], m[2][2], m[2][0]].indexOf(1);
    });
    // the mark visits all four corners under the turns, and again under the mirrored turns
    expect(new Set(corners.slice(0, 4)).size).toBe(4);
    expect(new Set(corners.slice(4)).size).toBe(4);
    // each view is a rotation or mirror: the centre stays and one pixel stays marked
    for (let i = 0; i < 8; i++) expect(channel0(v, i).flat().reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('keeps each die in its own row when there are several', () => {
    const two = tf.concat([asTensor(crop), asTensor(crop.map((r) => r.map(() => 0)))], 0);
    const v = orientedViews(two, 4);
    expect(v.shape).toEqual([8, 3, 3, 3]);
    // view-major: rows 1, 3, 5, 7 are the blank crop's views
    for (const i of [1, 3, 5, 7]) expect(channel0(v, i).flat().every((x) => x === 0)).toBe(true);
    for (const i of [0, 2, 4, 6]) expect(channel0(v, i).flat().some((x) => x === 1)).toBe(true);
  });

  it('averages each die over its views', () => {
    // 2 views × 2 dice, view-major
    const probs = tf.tensor2d([
      [1, 0],
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    const m = meanOverViews(probs, 2);
    expect(m.arraySync()).toEqual([
      [0.5, 0.5],
      [0, 1],
    ]);
  });
});
