import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { initBackend } from '../../server/vision/backend.ts';
import { classifierCrops } from '../../server/vision/preprocess.ts';
import { buildClassifier, refitClassifierInput } from '../../server/vision/architecture.ts';
import { MODEL_SPEC } from '../../server/vision/spec.ts';

const CS = MODEL_SPEC.classifier.cropSize;

/** the lightness-colour normalisation written out pixel by pixel, from a crop's 0..1 RGB values */
function referenceLightnessColour(rgb: Float32Array): Float32Array {
  const n = rgb.length / 3;
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]];
    planes[0][i] = (r + g + b) / 3;
    planes[1][i] = r - g;
    planes[2][i] = (r + g) / 2 - b;
  }
  const mean = (p: Float32Array): number => p.reduce((s, v) => s + v, 0) / n;
  const centred = planes.map((p) => {
    const m = mean(p);
    return p.map((v) => v - m);
  });
  const lightnessStd = Math.sqrt(centred[0].reduce((s, v) => s + v * v, 0) / n);
  const colourStd = Math.sqrt((centred[1].reduce((s, v) => s + v * v, 0) + centred[2].reduce((s, v) => s + v * v, 0)) / (2 * n));
  const out = new Float32Array(rgb.length);
  for (let i = 0; i < n; i++) {
    out[3 * i] = centred[0][i] / (lightnessStd + 0.05);
    out[3 * i + 1] = centred[1][i] / (colourStd + 0.05);
    out[3 * i + 2] = centred[2][i] / (colourStd + 0.05);
  }
  return out;
}

describe('the lightness-colour classifier input', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('normalises each crop as the spec says: lightness on its own scale, the two colours on theirs', () => {
    const [H, W] = [50, 70];
    const px = { data: Uint8Array.from({ length: H * W * 3 }, (_, i) => (i * 41 + (i % 3) * 90) % 256), width: W, height: H };
    const frame = tf.tensor3d(Int32Array.from(px.data), [H, W, 3], 'int32');
    const dice = [
      { x: 35, y: 25, size: 18 },
      { x: 5, y: 44, size: 22 },
    ];
    const got = classifierCrops(px, dice, 'lightness-colour');
    const rgbCrops = tf.tidy(() => {
      const half = (d: { size: number }): number => (d.size * MODEL_SPEC.classifier.cropScale) / 2;
      const boxes = dice.map((d) => [(d.y - half(d)) / (H - 1), (d.x - half(d)) / (W - 1), (d.y + half(d)) / (H - 1), (d.x + half(d)) / (W - 1)]);
      const batch = frame.toFloat().div(255).expandDims(0) as tf.Tensor4D;
      return tf.image.cropAndResize(batch, tf.tensor2d(boxes), tf.zeros([dice.length], 'int32'), [CS, CS], 'bilinear', 0.5).dataSync() as Float32Array;
    });
    const per = CS * CS * 3;
    const values = got.dataSync();
    let worst = 0;
    dice.forEach((_, k) => {
      const want = referenceLightnessColour(rgbCrops.subarray(k * per, (k + 1) * per));
      for (let i = 0; i < per; i++) worst = Math.max(worst, Math.abs(values[k * per + i] - want[i]));
    });
    expect(worst).toBeLessThan(2e-3);
    tf.dispose([got, frame]);
  });

  it('shows pips that differ from the face only in hue in the colour channels, not in the lightness one', () => {
    const size = 40;
    const data = new Uint8Array(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const pip = Math.hypot(x - 20, y - 20) < 5;
        data.set(pip ? [100, 200, 100] : [200, 100, 100], (y * size + x) * 3);
      }
    }
    const crops = classifierCrops({ data, width: size, height: size }, [{ x: 20, y: 20, size: 20 }], 'lightness-colour');
    const [lightness, colour] = tf.split(crops, [1, 2], 3);
    expect(lightness.abs().max().dataSync()[0]).toBeLessThan(1e-3);
    expect(colour.abs().max().dataSync()[0]).toBeGreaterThan(1);
    tf.dispose([crops, lightness, colour]);
  });

  it('moves an rgb classifier to the new input with its first convolution answering exactly as before', () => {
    const classifier = buildClassifier('small');
    const firstConv = tf.model({ inputs: classifier.inputs, outputs: classifier.getLayer('k1').output as tf.SymbolicTensor });
    const rgb = tf.randomUniform([2, CS, CS, 3], -2, 2, 'float32', 5);
    const before = firstConv.predict(rgb) as tf.Tensor;
    const colourScale = 0.4;
    refitClassifierInput(classifier, 'rgb', 'lightness-colour', colourScale);
    const lightnessColour = tf.tidy(() => {
      const [r, g, b] = tf.split(rgb, 3, 3);
      return tf.concat([r.add(g).add(b).div(3), r.sub(g).div(colourScale), r.add(g).div(2).sub(b).div(colourScale)], 3);
    });
    const after = firstConv.predict(lightnessColour) as tf.Tensor;
    expect(after.sub(before).abs().max().dataSync()[0]).toBeLessThan(1e-4);
    expect(() => refitClassifierInput(classifier, 'lightness-colour', 'rgb')).toThrow(/cannot be moved to rgb crops/);
    tf.dispose([rgb, before, lightnessColour, after]);
    classifier.dispose();
  });
});
