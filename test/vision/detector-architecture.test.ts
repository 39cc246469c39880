import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDetector, detectorArchitectureOf, detectorHeads, refitDetector } from '../../server/vision/architecture.ts';
import { readSpec } from '../../server/vision/model-store.ts';
import { MODEL_SPEC, specFor } from '../../server/vision/spec.ts';

const { inputWidth, inputHeight } = MODEL_SPEC.detector;

describe('detector architectures', () => {
  it('grows a plain detector into a context one that first answers exactly as the plain one', () => {
    const plain = buildDetector('plain');
    const grown = refitDetector(plain, 'context');
    expect(detectorArchitectureOf(plain)).toBe('plain');
    expect(detectorArchitectureOf(grown)).toBe('context');
    expect(grown.countParams()).toBeGreaterThan(plain.countParams());
    const frame = tf.randomNormal([1, inputHeight, inputWidth, 3], 0, 1, 'float32', 7);
    const a = plain.predict(frame) as tf.Tensor;
    const b = grown.predict(frame) as tf.Tensor;
    expect(b.shape).toEqual([1, inputHeight / MODEL_SPEC.detector.stride, inputWidth / MODEL_SPEC.detector.stride, 2]);
    expect(a.sub(b).abs().max().dataSync()[0]).toBe(0);
    tf.dispose([frame, a, b]);
    plain.dispose();
    grown.dispose();
  });

  it('runs on inputs of any size with its heads apart, answering as the detector itself on its weights', () => {
    for (const architecture of ['plain', 'context'] as const) {
      const detector = buildDetector(architecture);
      // trained-looking weights: the context branch starts at zero
      detector.setWeights(detector.getWeights().map((w, i) => tf.randomNormal(w.shape, 0, 0.3, 'float32', 100 + i)));
      const heads = detectorHeads(detector);
      for (const size of [{ width: inputWidth, height: inputHeight }, { width: 160, height: 112 }, { width: 48, height: 80 }]) {
        const frame = tf.randomNormal([1, size.height, size.width, 3], 0, 1, 'float32', 9);
        const [heat, logSize] = heads.predict(frame) as tf.Tensor[];
        const expected = tf.tidy(() => detector.apply(frame) as tf.Tensor);
        const cells = [1, size.height / MODEL_SPEC.detector.stride, size.width / MODEL_SPEC.detector.stride, 1];
        expect(heat.shape).toEqual(cells);
        expect(tf.concat([heat, logSize], 3).sub(expected).abs().max().dataSync()[0]).toBe(0);
        // both heads vary across the frame (not a constant the comparison could miss)
        for (const head of [heat, logSize]) expect(tf.moments(head).variance.dataSync()[0]).toBeGreaterThan(0);
        tf.dispose([frame, heat, logSize, expected]);
      }
      heads.dispose();
      detector.dispose();
    }
  });

  it('refuses to shrink a context detector into a plain one (its context weights would be lost)', () => {
    const context = buildDetector('context');
    expect(() => refitDetector(context, 'plain')).toThrow(/no layer "c7"/);
    context.dispose();
  });
});

describe('spec check when a training run continues a model', () => {
  async function modelDirWith(spec: unknown): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'spec-'));
    await writeFile(join(dir, 'spec.json'), JSON.stringify({ spec, training: { seed: 1 } }));
    return dir;
  }
  const older = { ...MODEL_SPEC, version: '0.9.0', detector: { ...MODEL_SPEC.detector, inputWidth: 128, inputHeight: 96 } };

  it('accepts another version and detector input size only when continuing', async () => {
    const dir = await modelDirWith(older);
    await expect(readSpec(dir)).rejects.toThrow(/differs from the code's spec/);
    const shipped = await readSpec(dir, true);
    expect(shipped.training).toEqual({ seed: 1 });
    expect(JSON.parse(await readFile(join(dir, 'spec.json'), 'utf8')).spec.version).toBe('0.9.0');
  });

  it('refuses a different classifier crop even when continuing', async () => {
    const dir = await modelDirWith({ ...older, classifier: { ...MODEL_SPEC.classifier, cropScale: 2 } });
    await expect(readSpec(dir, true)).rejects.toThrow(/differs from the code's spec/);
  });

  it('names the classifier input a spec normalises its crops for, and refuses one it does not know', async () => {
    expect((await readSpec(await modelDirWith(MODEL_SPEC))).classifierInput).toBe('rgb');
    expect((await readSpec(await modelDirWith(specFor('lightness-colour')))).classifierInput).toBe('lightness-colour');
    const unknown = { ...MODEL_SPEC, classifier: { ...MODEL_SPEC.classifier, normalisation: 'x/255 as HSV' } };
    await expect(readSpec(await modelDirWith(unknown), true)).rejects.toThrow(/differs from the code's spec/);
  });
});
