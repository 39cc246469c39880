import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as tf from '@tensorflow/tfjs';
import { join } from 'node:path';
import { initBackend } from '../../server/vision/backend.ts';
import { DEFAULT_MODEL_DIR, loadLayersModel } from '../../server/vision/model-store.ts';
import { syntheticSample, type FrameSample } from '../../server/vision/training/samples.ts';
import { falsePeaks, negativeExamples } from '../../server/vision/training/train.ts';
import { CLASS_NONE, MODEL_SPEC } from '../../server/vision/spec.ts';
import { Rng } from '../../server/synth/random.ts';

let detector: tf.LayersModel;
let scene: FrameSample;

beforeAll(async () => {
  await initBackend('wasm');
  detector = await loadLayersModel(join(DEFAULT_MODEL_DIR, 'detector'));
  scene = await syntheticSample(11);
});

afterAll(() => detector?.dispose());

describe('hard negatives for the classifier', () => {
  it('keeps only the peaks that no labelled die explains', () => {
    expect(scene.dice.length).toBeGreaterThan(0);
    const unexplained = falsePeaks(detector, scene, 0.2);
    for (const p of unexplained) {
      for (const d of scene.dice) expect(Math.hypot(p.x - d.x, p.y - d.y)).toBeGreaterThanOrEqual(0.5 * Math.max(d.size ?? 0, p.size));
    }
    // with the labels taken away, every die the detector finds becomes unexplained
    const unlabelled = falsePeaks(detector, { ...scene, dice: [] }, 0.2);
    expect(unlabelled.length).toBeGreaterThanOrEqual(unexplained.length + Math.ceil(scene.dice.length / 2));
  });

  it('cuts jittered "not a die" crops around each peak', () => {
    const peaks = [{ x: 100, y: 120, size: 40 }, { x: 300, y: 200, size: 25 }];
    const crops = negativeExamples(scene, 'rgb', peaks, new Rng(3), 3);
    const n = MODEL_SPEC.classifier.cropSize ** 2 * 3;
    expect(crops).toHaveLength(6);
    for (const c of crops) {
      expect(c.cls).toBe(CLASS_NONE);
      expect(c.crop).toHaveLength(n);
    }
    expect(negativeExamples(scene, 'rgb', [], new Rng(3), 3)).toEqual([]);
  });
});
