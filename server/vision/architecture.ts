/** The two small networks: a CenterNet-style die detector and a per-die face classifier. */
import * as tf from '@tensorflow/tfjs';
import { MODEL_SPEC, NUM_CLASSES, type ClassifierInput } from './spec.ts';

function conv(x: tf.SymbolicTensor, filters: number, strides: number, name: string, kernelSize = 3, activation: 'relu' | 'linear' | 'sigmoid' = 'relu'): tf.SymbolicTensor {
  return tf.layers.conv2d({ filters, kernelSize, strides, padding: 'same', activation, name, kernelInitializer: 'heNormal' }).apply(x) as tf.SymbolicTensor;
}

/**
 * Detector variants. "plain" is the detector of versions up to 1.6.0. "context" adds a stride-16 branch
 * (c7, c8) whose upsampled output is added to c6, widening the receptive field from about 63 to about
 * 100 input pixels, so that a big die's centre is judged from its whole face, not from a patch of stripes.
 */
export const DETECTOR_ARCHITECTURES = ['plain', 'context'] as const;
export type DetectorArchitecture = (typeof DETECTOR_ARCHITECTURES)[number];

export function isDetectorArchitecture(name: string): name is DetectorArchitecture {
  return (DETECTOR_ARCHITECTURES as readonly string[]).includes(name);
}

/** [1, H, W, 3] → [1, H/4, W/4, 2]: die-centre heatmap (sigmoid) and log(size/stride); H, W from the spec. */
export function buildDetector(architecture: DetectorArchitecture = 'plain'): tf.LayersModel {
  const { inputWidth, inputHeight } = MODEL_SPEC.detector;
  const input = tf.input({ shape: [inputHeight, inputWidth, 3], name: 'frame' });
  const c1 = conv(input, 12, 2, 'c1');
  const c2 = conv(c1, 20, 2, 'c2');
  const c3 = conv(c2, 20, 1, 'c3');
  const c4 = conv(c3, 40, 2, 'c4');
  const c5 = conv(c4, 40, 1, 'c5');
  let c6 = conv(c5, 40, 1, 'c6');
  if (architecture === 'context') {
    const c7 = conv(c6, 48, 2, 'c7');
    const c8 = conv(c7, 48, 1, 'c8');
    const up8 = tf.layers.upSampling2d({ size: [2, 2], name: 'up8' }).apply(c8) as tf.SymbolicTensor;
    // zero-initialised: a plain detector grown into this one first gives exactly its old outputs
    const context = tf.layers.conv2d({ filters: 40, kernelSize: 1, padding: 'same', name: 'context', kernelInitializer: 'zeros' }).apply(up8) as tf.SymbolicTensor;
    c6 = tf.layers.add({ name: 'withContext' }).apply([c6, context]) as tf.SymbolicTensor;
  }
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
 * The detector's layers (its weights, not copies) on an input of any size (each side a multiple of 16: the
 * context branch halves the stride-8 grid once more and adds it back), with its two heads
 * (MODEL_SPEC.detector.outputs) as outputs of their own: what the reader runs for every look. Reading the
 * heads apart skips the concatenation the saved model ends in, which the wasm backend copies cell by cell;
 * the layers are applied one by one to the new input rather than the detector as a whole, because a model
 * nested in another is run once for each of its outputs used.
 */
export function detectorHeads(detector: tf.LayersModel): tf.LayersModel {
  const input = tf.input({ shape: [null, null, 3] });
  const outputOf = (layer: tf.layers.Layer): string => layer.inboundNodes[0].outputTensors[0].name;
  const traced = new Map<string, tf.SymbolicTensor>([[detector.inputs[0].name, input]]);
  for (const layer of detector.layers) {
    const node = layer.inboundNodes[0];
    if (node.inboundLayers.length === 0) continue;
    const inputs = node.inputTensors.map((t) => traced.get(t.name)!);
    traced.set(outputOf(layer), layer.apply(inputs.length === 1 ? inputs[0] : inputs) as tf.SymbolicTensor);
  }
  const outputs = MODEL_SPEC.detector.outputs.map((name) => traced.get(outputOf(detector.getLayer(name)))!);
  return tf.model({ inputs: input, outputs, name: 'dice_detector_heads' });
}

/** The architecture a saved detector was built with. */
export function detectorArchitectureOf(model: tf.LayersModel): DetectorArchitecture {
  return model.layers.some((l) => l.name === 'context') ? 'context' : 'plain';
}

/**
 * A detector of `architecture` at the spec's input size carrying `trained`'s weights layer by layer
 * (a plain detector grows into a context one; its new layers start as built). Refuses to lose a layer.
 */
export function refitDetector(trained: tf.LayersModel, architecture: DetectorArchitecture): tf.LayersModel {
  const fresh = buildDetector(architecture);
  for (const layer of trained.layers) {
    const weights = layer.getWeights();
    if (weights.length === 0) continue;
    const target = fresh.layers.find((l) => l.name === layer.name);
    if (!target) throw new Error(`a ${architecture} detector has no layer "${layer.name}" to take the trained weights`);
    target.setWeights(weights);
  }
  return fresh;
}

/**
 * Classifier sizes: conv widths of the four 3×3 convolutions and the dense layer. "small" is the default
 * for a new classifier and was shipped up to 1.15.0; "wide" has about twice the weights and 2.5× the
 * arithmetic (not kept when tried from scratch for 1.4.0 and 1.8.0; shipped since 1.16.0, a small one
 * widened: models/TRAINING.md).
 */
export const CLASSIFIER_ARCHITECTURES = {
  small: { convs: [16, 24, 48, 64], dense: 64 },
  wide: { convs: [24, 32, 64, 96], dense: 96 },
} as const;
export type ClassifierArchitecture = keyof typeof CLASSIFIER_ARCHITECTURES;

export function isClassifierArchitecture(name: string): name is ClassifierArchitecture {
  return Object.hasOwn(CLASSIFIER_ARCHITECTURES, name);
}

/** The classifier's layers whose widths its architecture sets, in order: four convolutions, then the dense layer. */
export const CLASSIFIER_WIDTH_LAYERS = ['k1', 'k2', 'k3', 'k4', 'fc'] as const;

/** The architecture a saved classifier was built with, told by its layers' widths. */
export function classifierArchitectureOf(model: tf.LayersModel): ClassifierArchitecture {
  const widths = CLASSIFIER_WIDTH_LAYERS.map((name) => model.getLayer(name).getWeights()[0].shape.at(-1));
  const found = (Object.keys(CLASSIFIER_ARCHITECTURES) as ClassifierArchitecture[]).find((arch) => {
    const { convs, dense } = CLASSIFIER_ARCHITECTURES[arch];
    return [...convs, dense].every((w, i) => w === widths[i]);
  });
  if (!found) throw new Error(`a classifier of layer widths ${widths.join('/')} is none of ${Object.keys(CLASSIFIER_ARCHITECTURES).join(', ')}`);
  return found;
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

/**
 * The weights of `trained`'s first convolution, made to read `to` instead of its `from` input: the RGB
 * kernels are combined into lightness and colour kernels (R = L + (R−G)/2 + ((R+G)/2−B)/3, and so on),
 * so a classifier moved to the lightness-colour input starts where it was and is then trained on.
 * The colour kernels are scaled by `colourScale`, a guess at a crop's colour spread over its whole
 * spread, which the new input's own colour scaling removes.
 */
export function refitClassifierInput(trained: tf.LayersModel, from: ClassifierInput, to: ClassifierInput, colourScale = 0.5): void {
  if (from === to) return;
  if (from !== 'rgb' || to !== 'lightness-colour') throw new Error(`a classifier reading ${from} crops cannot be moved to ${to} crops`);
  const first = trained.getLayer('k1');
  const [kernel, ...rest] = first.getWeights();
  const moved = tf.tidy(() => {
    const [r, g, b] = tf.split(kernel, 3, 2);
    const lightness = r.add(g).add(b);
    const redGreen = r.sub(g).div(2).mul(colourScale);
    const yellowBlue = r.add(g).sub(b.mul(2)).div(3).mul(colourScale);
    return tf.concat([lightness, redGreen, yellowBlue], 2);
  });
  first.setWeights([moved, ...rest]);
  moved.dispose();
}
