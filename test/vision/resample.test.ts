import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from '../../server/vision/backend.ts';
import { mirroredPixels, resampledSquares, resizedPixels } from '../../server/vision/resample.ts';
import { detectorInput } from '../../server/vision/preprocess.ts';
import type { RgbPixels } from '../../server/vision/decode.ts';

function pixels(width: number, height: number, seed: number): RgbPixels {
  return { data: Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * seed + ((i * i) % 7) * 31) % 256), width, height };
}

/** The window's pixels, copied one by one: the reference a window is read against. */
function cropPixels(px: RgbPixels, w: { x0: number; y0: number; width: number; height: number }): RgbPixels {
  const data = new Uint8Array(w.width * w.height * 3);
  for (let y = 0; y < w.height; y++) for (let x = 0; x < w.width * 3; x++) data[y * w.width * 3 + x] = px.data[(w.y0 + y) * px.width * 3 + w.x0 * 3 + x];
  return { data, width: w.width, height: w.height };
}

const asTensor = (px: RgbPixels): tf.Tensor3D => tf.tensor3d(Int32Array.from(px.data), [px.height, px.width, 3], 'int32');

function worstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

describe('resampling pixels as TensorFlow does', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it.each([
    [64, 48, 32, 24],
    [67, 41, 30, 19],
    [20, 15, 53, 37],
    [9, 9, 9, 9],
  ])('resizes %ix%i to %ix%i as resizeBilinear with half-pixel centres', (w, h, tw, th) => {
    const px = pixels(w, h, 37);
    const want = tf.tidy(() => tf.image.resizeBilinear(asTensor(px), [th, tw], false, true).dataSync());
    expect(worstDifference(resizedPixels(px, tw, th), want)).toBeLessThan(1e-3);
  });

  it('halves an image or a window exactly as the interpolation does', () => {
    const px = pixels(90, 70, 61);
    const want = tf.tidy(() => tf.image.resizeBilinear(asTensor(px), [35, 45], false, true).dataSync());
    expect(worstDifference(resizedPixels(px, 45, 35), want)).toBe(0);
    const window = { x0: 11, y0: 5, width: 40, height: 28 };
    const cut = tf.tidy(() => tf.image.resizeBilinear(asTensor(cropPixels(px, window)), [14, 20], false, true).dataSync());
    expect(worstDifference(resizedPixels(px, 20, 14, window), cut)).toBe(0);
  });

  it('resizes a window as the window cut out first', () => {
    const px = pixels(80, 60, 53);
    const window = { x0: 13, y0: 7, width: 41, height: 33 };
    const want = resizedPixels(cropPixels(px, window), 24, 20);
    expect(worstDifference(resizedPixels(px, 24, 20, window), want)).toBe(0);
    expect(() => resizedPixels(px, 24, 20, { x0: 50, y0: 0, width: 31, height: 10 })).toThrow(/not inside the 80x60 image/);
    expect(() => resizedPixels(px, 24, 20, { x0: 0, y0: -1, width: 10, height: 10 })).toThrow(RangeError);
    expect(() => resizedPixels(px, 24, 20, { x0: 0.5, y0: 0, width: 10, height: 10 })).toThrow(/whole pixels/);
  });

  it('resamples squares inside and across the image edge as cropAndResize, the outside value beyond it', () => {
    const [W, H] = [70, 50];
    const px = pixels(W, H, 41);
    const squares = [
      { x0: 10.3, y0: 12.8, side: 30.6 },
      { x0: -8, y0: 30, side: 26 },
      { x0: 55.5, y0: 38.2, side: 20.4 },
      { x0: 20, y0: 20, side: 0.5 },
    ];
    const size = 17;
    const want = tf.tidy(() => {
      const boxes = squares.map((s) => [s.y0 / (H - 1), s.x0 / (W - 1), (s.y0 + s.side) / (H - 1), (s.x0 + s.side) / (W - 1)]);
      const batch = asTensor(px).toFloat().expandDims(0) as tf.Tensor4D;
      return tf.image.cropAndResize(batch, tf.tensor2d(boxes), tf.zeros([squares.length], 'int32'), [size, size], 'bilinear', 127.5).dataSync();
    });
    const got = resampledSquares(px, squares, size, 127.5);
    expect(worstDifference(got, want)).toBeLessThan(1e-2);
    // the square reaching beyond the left edge: its first column is all outside
    const perSquare = size * size * 3;
    expect(got[perSquare]).toBe(127.5);
  });

  it('mirrors an image left to right', () => {
    const px = pixels(5, 3, 29);
    const want = tf.tidy(() => tf.reverse(asTensor(px), 1).dataSync());
    expect(Array.from(mirroredPixels(px).data)).toEqual(Array.from(want));
  });

  it('makes a window\'s detector input as the window cut out first', () => {
    const px = pixels(120, 90, 17);
    const window = { x0: 30, y0: 20, width: 64, height: 48 };
    const into = { width: 96, height: 64 };
    const a = detectorInput(px, into, window);
    const b = detectorInput(cropPixels(px, window), into);
    expect(a.box).toEqual(b.box);
    expect(worstDifference(a.input.dataSync(), b.input.dataSync())).toBe(0);
    tf.dispose([a.input, b.input]);
  });
});
