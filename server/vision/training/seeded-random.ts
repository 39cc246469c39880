import { Rng } from '../../synth/random.ts';

/**
 * TF.js draws what it is not given a seed for (a new layer's initial weights, every dropout mask) from
 * `Math.random`, so a training run's `--seed` alone did not fix its weights. This puts a stream of the
 * run's seed in its place until the returned function is called; nothing else in a training run draws
 * from `Math.random`.
 */
export function seedTensorFlowRandom(seed: number): () => void {
  const original = Math.random;
  const rng = new Rng(seed ^ 0x2f6b);
  Math.random = () => rng.next();
  return () => {
    Math.random = original;
  };
}
