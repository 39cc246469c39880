import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from '../../server/vision/backend.ts';
import { buildClassifier, CLASSIFIER_ARCHITECTURES, classifierArchitectureOf } from '../../server/vision/architecture.ts';
import { widenClassifier } from '../../server/vision/training/widen-classifier.ts';
import { MODEL_SPEC } from '../../server/vision/spec.ts';
import { Rng } from '../../server/synth/random.ts';
import { seedTensorFlowRandom } from '../../server/vision/training/seeded-random.ts';

const CS = MODEL_SPEC.classifier.cropSize;

function crops(seed: number, n: number): tf.Tensor4D {
  const rng = new Rng(seed);
  return tf.tensor4d(Array.from({ length: n * CS * CS * 3 }, () => rng.normal()), [n, CS, CS, 3]);
}

/** the classifier's pre-softmax outputs are what widening keeps; probabilities hide small changes */
function logits(model: tf.LayersModel, x: tf.Tensor4D): Float32Array {
  const probs = model.predict(x) as tf.Tensor;
  const out = tf.log(probs.add(1e-12)).dataSync() as Float32Array;
  probs.dispose();
  return out;
}

describe('widening a trained classifier', () => {
  beforeAll(async () => {
    await initBackend('cpu');
    seedTensorFlowRandom(7);
  });

  it('gives the wide architecture with the small one\'s answers', () => {
    const small = buildClassifier('small');
    const wide = widenClassifier(small, 'wide', new Rng(1), 0);
    const x = crops(2, 6);
    expect(classifierArchitectureOf(small)).toBe('small');
    expect(classifierArchitectureOf(wide)).toBe('wide');
    expect(wide.getLayer('fc').getWeights()[0].shape).toEqual([6 * 6 * CLASSIFIER_ARCHITECTURES.wide.convs[3], CLASSIFIER_ARCHITECTURES.wide.dense]);
    const before = logits(small, x);
    const after = logits(wide, x);
    for (let i = 0; i < before.length; i++) expect(after[i]).toBeCloseTo(before[i], 3);
    // the copies are real units: a freshly built wide classifier answers otherwise
    const fresh = logits(buildClassifier('wide'), x);
    expect(Math.max(...fresh.map((v, i) => Math.abs(v - before[i])))).toBeGreaterThan(0.01);
  });

  it('lets the copies differ by a little noise, still close to the small one', () => {
    const small = buildClassifier('small');
    const quiet = widenClassifier(small, 'wide', new Rng(3), 0);
    const noisy = widenClassifier(small, 'wide', new Rng(3), 0.01);
    const [kq, kn] = [quiet.getLayer('k2').getWeights()[0].dataSync(), noisy.getLayer('k2').getWeights()[0].dataSync()];
    const out = CLASSIFIER_ARCHITECTURES.wide.convs[1];
    const oldOut = CLASSIFIER_ARCHITECTURES.small.convs[1];
    const changed = Array.from(kq).flatMap((v, i) => (v !== kn[i] ? [i % out] : []));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((unit) => unit >= oldOut)).toBe(true);
    const x = crops(4, 4);
    const [a, b] = [logits(small, x), logits(noisy, x)];
    const worst = Math.max(...a.map((v, i) => Math.abs(v - b[i])));
    expect(worst).toBeLessThan(0.5);
  });

  it('refuses to narrow a classifier', () => {
    const wide = buildClassifier('wide');
    expect(() => widenClassifier(wide, 'small', new Rng(1))).toThrow(/cannot be narrowed/);
  });
});
