import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from '../../server/vision/backend.ts';
import { classifierCrops, detectorInput, letterboxFor } from '../../server/vision/preprocess.ts';
import { MODEL_SPEC } from '../../server/vision/spec.ts';

const CS = MODEL_SPEC.classifier.cropSize;

/** the straightforward recipe: the whole frame scaled to 0..1 first, mid-grey beyond its edges */
function referenceCrops(frame: tf.Tensor3D, boxes: number[][]): Float32Array {
  return tf.tidy(() => {
    const batch = frame.toFloat().div(255).expandDims(0) as tf.Tensor4D;
    const crops = tf.image.cropAndResize(batch, tf.tensor2d(boxes), tf.zeros([boxes.length], 'int32'), [CS, CS], 'bilinear', 0.5);
    const mean = crops.mean([1, 2, 3], true);
    const std = crops.sub(mean).square().mean([1, 2, 3], true).sqrt();
    return crops.sub(mean).div(std.add(0.05)).dataSync() as Float32Array;
  });
}

describe('preprocessing', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('crops dice inside and across the frame edge as the models were trained (mid-grey beyond the frame)', () => {
    const H = 60;
    const W = 80;
    const px = { data: Uint8Array.from({ length: H * W * 3 }, (_, i) => (i * 37) % 256), width: W, height: H };
    const frame = tf.tensor3d(Int32Array.from(px.data), [H, W, 3], 'int32');
    const dice = [
      { x: 40, y: 30, size: 20 },
      { x: 4, y: 30, size: 20 },
      { x: 76, y: 57, size: 24 },
    ];
    const crops = classifierCrops(px, dice);
    expect(crops.shape).toEqual([3, CS, CS, 3]);
    const half = (d: { size: number }): number => (d.size * MODEL_SPEC.classifier.cropScale) / 2;
    const boxes = dice.map((d) => [(d.y - half(d)) / (H - 1), (d.x - half(d)) / (W - 1), (d.y + half(d)) / (H - 1), (d.x + half(d)) / (W - 1)]);
    const got = crops.dataSync();
    const want = referenceCrops(frame, boxes);
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
    expect(worst).toBeLessThan(2e-3);
    crops.dispose();
    frame.dispose();
  });

  it('letterboxes the frame into the detector input as the straightforward recipe does', () => {
    const [H, W] = [300, 640];
    const px = { data: Uint8Array.from({ length: H * W * 3 }, (_, i) => (i * 53) % 256), width: W, height: H };
    const frame = tf.tensor3d(Int32Array.from(px.data), [H, W, 3], 'int32');
    const { input, box } = detectorInput(px);
    const [DH, DW] = [MODEL_SPEC.detector.inputHeight, MODEL_SPEC.detector.inputWidth];
    expect(input.shape).toEqual([1, DH, DW, 3]);
    expect(box.scale).toBeCloseTo(DW / W, 6);
    const want = tf.tidy(() => {
      const [h, w] = [Math.round(H * box.scale), Math.round(W * box.scale)];
      const small = tf.image.resizeBilinear(frame.toFloat().div(255) as tf.Tensor3D, [h, w], false, true);
      const { mean, variance } = tf.moments(small, [0, 1, 2], true);
      const norm = small.sub(mean).div(variance.sqrt().add(0.05));
      return tf.pad(norm, [[box.padY, DH - h - box.padY], [box.padX, DW - w - box.padX], [0, 0]]).expandDims(0);
    });
    expect(tf.max(tf.abs(input.sub(want))).dataSync()[0]).toBeLessThan(1e-4);
    for (const t of [input, frame, want]) t.dispose();
  });

  it('keeps a long thin frame at least a pixel wide in the letterbox', () => {
    const px = { data: new Uint8Array(4000 * 8 * 3).fill(100), width: 8, height: 4000 };
    expect(letterboxFor(8, 4000).scale).toBeCloseTo(0.06, 9);
    const { input, box } = detectorInput(px);
    expect(input.shape).toEqual([1, MODEL_SPEC.detector.inputHeight, MODEL_SPEC.detector.inputWidth, 3]);
    expect(box.padX).toBe(Math.floor((MODEL_SPEC.detector.inputWidth - 1) / 2));
    expect(Number.isFinite(tf.sum(input).dataSync()[0])).toBe(true);
    input.dispose();
  });
});
