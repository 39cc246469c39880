import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelPathsFor, parseYoloLabels, readYoloFolder } from '../../server/vision/yolo-dataset.ts';
import { conv2dBackpropFilterByConv, conv2dBackpropInputByConv } from '../../server/vision/wasm-training-kernels.ts';

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

describe('readYoloFolder', () => {
  it('finds labels beside each image, or in the labels/ folder beside an images/ folder, as YOLO tools export them', async () => {
    expect(labelPathsFor(join('set', 'valid', 'images', 'a.JPG'))).toEqual([join('set', 'valid', 'images', 'a.txt'), join('set', 'valid', 'labels', 'a.txt')]);
    expect(labelPathsFor(join('set', 'b.png'))).toEqual([join('set', 'b.txt')]);
    const dir = await mkdtemp(join(tmpdir(), 'yolo-layout-'));
    try {
      await mkdir(join(dir, 'valid', 'images'), { recursive: true });
      await mkdir(join(dir, 'valid', 'labels'), { recursive: true });
      await writeFile(join(dir, 'valid', 'images', 'x.jpg'), 'not read here');
      await writeFile(join(dir, 'valid', 'labels', 'x.txt'), '2 0.5 0.5 0.1 0.1\n');
      await writeFile(join(dir, 'valid', 'images', 'unlabelled.jpg'), 'not read here');
      await writeFile(join(dir, 'side.png'), 'not read here');
      await writeFile(join(dir, 'side.txt'), '');
      const set = await readYoloFolder(dir);
      expect(set.map((i) => [i.relPath, i.labels.map((l) => l.face)])).toEqual([
        ['side.png', []],
        [join('valid', 'images', 'x.jpg'), [3]],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('convolution gradients written as forward convolutions (wasm training kernels)', () => {
  it('equal the gradients TF.js computes (cpu backend) for strides 1 and 2, same and valid padding, 3×3 and 1×1 filters', async () => {
    await tf.setBackend('cpu');
    const cases = [
      [9, 11, 3, 1, 'same'],
      [9, 11, 3, 2, 'same'],
      [10, 12, 3, 2, 'same'],
      [9, 11, 3, 1, 'valid'],
      [10, 11, 3, 2, 'valid'],
      [9, 11, 1, 1, 'same'],
    ] as const;
    for (const [h, w, k, stride, pad] of cases) {
      const x = tf.randomNormal([2, h, w, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
      const f = tf.randomNormal([k, k, 3, 4], 0, 1, 'float32', 3) as tf.Tensor4D;
      const y = tf.conv2d(x, f, stride, pad);
      const dy = tf.randomNormal(y.shape, 0, 1, 'float32', 2) as tf.Tensor4D;
      const [refX, refF] = tf.grads((a, b) => tf.conv2d(a as tf.Tensor4D, b as tf.Tensor4D, stride, pad).mul(dy).sum())([x, f]);
      const gotF = conv2dBackpropFilterByConv(x, dy, { strides: stride, pad, dataFormat: 'NHWC', filterShape: [k, k, 3, 4] });
      const gotX = conv2dBackpropInputByConv(dy, f, { strides: stride, pad, dataFormat: 'NHWC', inputShape: x.shape });
      expect(gotF.shape).toEqual([k, k, 3, 4]);
      expect(gotX.shape).toEqual(x.shape);
      expect(tf.max(tf.abs(refF.sub(gotF))).dataSync()[0]).toBeLessThan(1e-3);
      expect(tf.max(tf.abs(refX.sub(gotX))).dataSync()[0]).toBeLessThan(1e-3);
    }
  });

  it('refuses a layout it does not handle instead of computing a wrong gradient', () => {
    const x = tf.zeros([1, 4, 4, 1]) as tf.Tensor4D;
    expect(() => conv2dBackpropFilterByConv(x, x, { strides: 1, pad: 'same', dataFormat: 'NCHW', filterShape: [1, 1, 1, 1] })).toThrow(/NHWC/);
    expect(() => conv2dBackpropFilterByConv(x, x, { strides: 1, pad: 'same', dataFormat: 'NHWC', dilations: 2, filterShape: [1, 1, 1, 1] })).toThrow(/dilation/);
  });
});
