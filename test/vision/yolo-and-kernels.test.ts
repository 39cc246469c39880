import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { parseYoloLabels } from '../../server/vision/yolo-dataset.ts';
import { conv2dBackpropFilterFromMatMul } from '../../server/vision/wasm-training-kernels.ts';

describe('parseYoloLabels', () => {
  it('reads class k as face k+1 and skips blank lines', () => {
    expect(parseYoloLabels('0 0.5 0.5 0.1 0.1\n\n5 0.25 0.75 0.2 0.2\n')).toEqual([
      { cx: 0.5, cy: 0.5, w: 0.1, h: 0.1, face: 1 },
      { cx: 0.25, cy: 0.75, w: 0.2, h: 0.2, face: 6 },
    ]);
  });

  it('names the line of a malformed label', () => {
    expect(() => parseYoloLabels('0 0.5 0.5 0.1\n', 'a.txt')).toThrow(/a\.txt:1/);
    expect(() => parseYoloLabels('0 0.5 0.5 0.1 0.1\n6 0.5 0.5 0.1 0.1', 'b.txt')).toThrow(/b\.txt:2: class 6/);
  });
});

describe('Conv2DBackpropFilter built from matMul', () => {
  it('equals the gradient TF.js computes (cpu backend), with stride and same padding', async () => {
    await tf.setBackend('cpu');
    const x = tf.randomNormal([2, 9, 11, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
    const w = tf.randomNormal([3, 3, 3, 4], 0, 1, 'float32', 3) as tf.Tensor4D;
    for (const [stride, pad] of [[1, 'same'], [2, 'same'], [1, 'valid']] as const) {
      const y = tf.conv2d(x, w, stride, pad);
      const dy = tf.randomNormal(y.shape, 0, 1, 'float32', 2) as tf.Tensor4D;
      const ref = tf.grad((ww) => tf.conv2d(x, ww as tf.Tensor4D, stride, pad).mul(dy).sum())(w);
      const got = conv2dBackpropFilterFromMatMul(x, dy, { strides: stride, pad, dataFormat: 'NHWC', filterShape: [3, 3, 3, 4] });
      expect(got.shape).toEqual([3, 3, 3, 4]);
      expect(tf.max(tf.abs(ref.sub(got))).dataSync()[0]).toBeLessThan(1e-3);
    }
  });
});
