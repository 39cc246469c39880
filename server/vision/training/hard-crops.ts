/**
 * Hard-crop mining: the training crops a continued classifier still reads wrong are the ones worth
 * teaching more often. The crops are scored once, before training, as the reader sees them (unturned).
 */
import * as tf from '@tensorflow/tfjs';
import { MODEL_SPEC, NUM_CLASSES } from '../spec.ts';
import type { ClassifierExample } from './train.ts';

const CS = MODEL_SPEC.classifier.cropSize;
const BATCH = 256;

/** The classifier's probability of each example's own class, in the examples' order. */
export function ownClassProbabilities(model: tf.LayersModel, data: ClassifierExample[]): Float32Array {
  const n = CS * CS * 3;
  const out = new Float32Array(data.length);
  const xs = new Float32Array(BATCH * n);
  for (let start = 0; start < data.length; start += BATCH) {
    const batch = data.slice(start, start + BATCH);
    batch.forEach((e, b) => xs.set(e.crop, b * n));
    const probs = tf.tidy(() => {
      const x = tf.tensor4d(xs.subarray(0, batch.length * n), [batch.length, CS, CS, 3]);
      return ((model.predict(x) as tf.Tensor).dataSync() as Float32Array).slice();
    });
    batch.forEach((e, b) => {
      out[start + b] = probs[b * NUM_CLASSES + e.cls];
    });
  }
  return out;
}

/**
 * The examples whose own class the classifier gives less than `below` (it reads them wrong or barely
 * right), each repeated `copies` times: to be added to the training data.
 */
export function hardCropCopies(model: tf.LayersModel, data: ClassifierExample[], copies: number, below = 0.5): { copies: ClassifierExample[]; hard: number } {
  if (!Number.isInteger(copies) || copies < 1) throw new Error(`hard-crop copies must be a whole number of 1 or more, got ${copies}`);
  if (!(below > 0 && below <= 1)) throw new Error(`the hard-crop probability must be above 0 and at most 1, got ${below}`);
  const probs = ownClassProbabilities(model, data);
  const hard = data.filter((_, i) => probs[i] < below);
  return { copies: hard.flatMap((e) => Array.from({ length: copies }, () => e)), hard: hard.length };
}
