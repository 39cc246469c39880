import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from '../../server/vision/backend.ts';
import { buildClassifier } from '../../server/vision/architecture.ts';
import { hardCropCopies, ownClassProbabilities } from '../../server/vision/training/hard-crops.ts';
import type { ClassifierExample } from '../../server/vision/training/train.ts';
import { MODEL_SPEC, NUM_CLASSES } from '../../server/vision/spec.ts';
import { Rng } from '../../server/synth/random.ts';
import { seedTensorFlowRandom } from '../../server/vision/training/seeded-random.ts';

const CS = MODEL_SPEC.classifier.cropSize;

function examples(seed: number, n: number): ClassifierExample[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => ({ crop: Float32Array.from({ length: CS * CS * 3 }, () => rng.normal()), cls: rng.int(0, NUM_CLASSES - 1) }));
}

describe('hard-crop mining', () => {
  let model: tf.LayersModel;
  // more than one scoring batch (256), so the batches' seams are crossed
  const data = examples(3, 300);

  beforeAll(async () => {
    await initBackend('cpu');
    seedTensorFlowRandom(11);
    model = buildClassifier('small');
  });

  it("gives each crop the classifier's probability of its own class", () => {
    const probs = ownClassProbabilities(model, data);
    expect(probs).toHaveLength(data.length);
    for (const i of [0, 1, 255, 256, 299]) {
      const one = tf.tidy(() => (model.predict(tf.tensor4d(data[i].crop, [1, CS, CS, 3])) as tf.Tensor).dataSync().slice());
      expect(probs[i]).toBeCloseTo(one[data[i].cls], 5);
    }
  });

  it('repeats every crop under the threshold, and only those, the asked number of times', () => {
    const probs = ownClassProbabilities(model, data);
    const below = [...probs].sort((a, b) => a - b)[150];
    const expected = data.filter((_, i) => probs[i] < below);
    const { copies, hard } = hardCropCopies(model, data, 3, below);
    expect(hard).toBe(expected.length);
    expect(hard).toBeGreaterThan(100);
    expect(hard).toBeLessThan(200);
    expect(copies).toHaveLength(3 * hard);
    for (const e of expected) expect(copies.filter((c) => c === e)).toHaveLength(3);
  });

  it('refuses a copy count or threshold that means nothing', () => {
    expect(() => hardCropCopies(model, data, 0)).toThrow(/1 or more/);
    expect(() => hardCropCopies(model, data, 1.5)).toThrow(/whole number/);
    expect(() => hardCropCopies(model, data, 2, 0)).toThrow(/above 0/);
    expect(() => hardCropCopies(model, data, 2, 1.2)).toThrow(/at most 1/);
  });
});
