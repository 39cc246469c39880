/** The two small networks: a CenterNet-style die detector and a per-die face classifier. */
import * as tf from '@tensorflow/tfjs';
import { MODEL_SPEC, NUM_CLASSES } from './spec.ts';

function conv(x: tf.SymbolicTensor, filters: number, strides: number, name: string, kernelSize = 3, activation: 'relu' | 'linear' | 'sigmoid' = 'relu'): tf.SymbolicTensor {
  return tf.layers.conv2d({ filters, kernelSize, strides, padding: 'same', activation, name, kernelInitializer: 'heNormal' }).apply(x) as tf.SymbolicTensor;
}

/** [1, 192, 256, 3] → [1, 48, 64, 2]: die-centre heatmap (sigmoid) and log(size/stride). */
export function buildDetector(): tf.LayersModel {
  const { inputWidth, inputHeight } = MODEL_SPEC.detector;
  const input = tf.input({ shape: [inputHeight, inputWidth, 3], name: 'frame' });
  const c1 = conv(input, 12, 2, 'c1');
  const c2 = conv(c1, 20, 2, 'c2');
  const c3 = conv(c2, 20, 1, 'c3');
  const c4 = conv(c3, 40, 2, 'c4');
  const c5 = conv(c4, 40, 1, 'c5');
  const c6 = conv(c5, 40, 1, 'c6');
  const up = tf.layers.upSampling2d({ size: [2, 2], name: 'up' }).apply(c6) as tf.SymbolicTensor;
  const proj = conv(up, 20, 1, 'proj', 1, 'linear');
  const merged = tf.layers.add({ name: 'merge' }).apply([proj, c3]) as tf.SymbolicTensor;
  const h = conv(merged, 20, 1, 'head');
  const heat = tf.layers
    .conv2d({ filters: 1, kernelSize: 1, activation: 'sigmoid', name: 'heatmap', biasInitializer: tf.initializers.constant({ value: -4 }) })
    .apply(h) as tf.SymbolicTensor;
  const size = conv(h, 1, 1, 'logSize', 1, 'linear');
  const out = tf.layers.concatenate({ name: 'out' }).apply([heat, size]) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: out, name: 'dice_detector' });
}

/**
 * Classifier sizes: conv widths of the four 3×3 convolutions and the dense layer. "small" is the
 * classifier of every shipped version (the default); "wide" has about twice the weights and 2.5× the
 * arithmetic (tried for 1.4.0, not shipped: see models/README.md).
 */
export const CLASSIFIER_ARCHITECTURES = {
  small: { convs: [16, 24, 48, 64], dense: 64 },
  wide: { convs: [24, 32, 64, 96], dense: 96 },
} as const;
export type ClassifierArchitecture = keyof typeof CLASSIFIER_ARCHITECTURES;

export function isClassifierArchitecture(name: string): name is ClassifierArchitecture {
  return Object.hasOwn(CLASSIFIER_ARCHITECTURES, name);
}

/** [n, 48, 48, 3] → [n, 9] softmax over faces 1..6, none, cocked, blurred. */
export function buildClassifier(architecture: ClassifierArchitecture = 'small'): tf.LayersModel {
  const { cropSize } = MODEL_SPEC.classifier;
  const { convs, dense } = CLASSIFIER_ARCHITECTURES[architecture];
  const input = tf.input({ shape: [cropSize, cropSize, 3], name: 'crop' });
  let x = conv(input, convs[0], 2, 'k1');
  x = conv(x, convs[1], 1, 'k2');
  x = tf.layers.maxPooling2d({ poolSize: 2, name: 'p2' }).apply(x) as tf.SymbolicTensor;
  x = conv(x, convs[2], 1, 'k3');
  x = tf.layers.maxPooling2d({ poolSize: 2, name: 'p3' }).apply(x) as tf.SymbolicTensor;
  x = conv(x, convs[3], 1, 'k4');
  x = tf.layers.flatten({ name: 'flat' }).apply(x) as tf.SymbolicTensor;
  x = tf.layers.dropout({ rate: 0.3, name: 'drop' }).apply(x) as tf.SymbolicTensor;
  x = tf.layers.dense({ units: dense, activation: 'relu', name: 'fc', kernelInitializer: 'heNormal' }).apply(x) as tf.SymbolicTensor;
  const out = tf.layers.dense({ units: NUM_CLASSES, activation: 'softmax', name: 'probs' }).apply(x) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: out, name: 'dice_classifier' });
}
