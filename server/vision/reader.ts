/**
 * The dice reader: frame → dice, the one code path used by the server, `dice:eval` and the benchmark.
 * Stage 1 finds die centres and sizes on a letterboxed copy of the spec's input size (320×240 since
 * 1.7.0); stage 2 classifies a crop of each die, taken from the full-resolution frame.
 */
import * as tf from '@tensorflow/tfjs';
import type { SeenDie } from '../http/protocol.ts';
import type { DiceReader } from '../hardware/ports.ts';
import { initBackend, type BackendName } from './backend.ts';
import { checkRaw, decodeImage, type RawRgb, type RgbPixels } from './decode.ts';
import { decideDice, DEFAULT_THRESHOLDS, type DecisionThresholds, type Detection } from './decide.ts';
import { decodePeaks, PEAK_SPACING } from './heatmap.ts';
import { DEFAULT_MODEL_DIR, loadLayersModel, readSpec } from './model-store.ts';
import { join } from 'node:path';
import { classifierCrops, detectorInput, meanOverViews, orientedViews, type ClassifierViews } from './preprocess.ts';
import { MODEL_SPEC, NUM_CLASSES } from './spec.ts';

export interface DiceReading {
  width: number;
  height: number;
  dice: SeenDie[];
}

export interface ReaderOptions {
  modelDir?: string;
  backend?: BackendName;
  /** minimum detector heatmap peak */
  detectThreshold?: number;
  /** a weaker peak closer than this × die size to a stronger one is the same die */
  minPeakDistance?: number;
  thresholds?: Partial<DecisionThresholds>;
  /** at most this many dice per frame (strongest first) */
  maxDice?: number;
  /** classify a doubtful crop again in this many orientations and average their probabilities */
  views?: ClassifierViews;
  /** a crop is doubtful when its most likely class has less than this probability (1: every crop) */
  reviewBelow?: number;
}

export interface VisionDiceReader extends DiceReader {
  readonly backend: BackendName;
  readonly modelVersion: string;
  /** JPEG/PNG bytes → dice */
  read(image: Buffer): Promise<DiceReading>;
  /** raw RGB → dice */
  readRaw(image: RawRgb): Promise<DiceReading>;
  dispose(): void;
}

/**
 * Decision settings of the shipped model, chosen on the synthetic tuning set (seed 2) and the real
 * train split, never on the sets the figures in models/README.md are measured on. The face, none and
 * edge thresholds are in decide.ts.
 */
export const READER_DEFAULTS = { detectThreshold: 0.2, minPeakDistance: PEAK_SPACING, views: 4 as ClassifierViews, reviewBelow: 0.9 };

export async function createDiceReader(options: ReaderOptions = {}): Promise<VisionDiceReader> {
  const backend = await initBackend(options.backend);
  const modelDir = options.modelDir ?? DEFAULT_MODEL_DIR;
  const shipped = await readSpec(modelDir);
  const detector = await loadLayersModel(join(modelDir, 'detector'));
  const classifier = await loadLayersModel(join(modelDir, 'classifier'));
  const detectThreshold = options.detectThreshold ?? READER_DEFAULTS.detectThreshold;
  const minPeakDistance = options.minPeakDistance ?? READER_DEFAULTS.minPeakDistance;
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const maxDice = options.maxDice ?? 40;
  const views = options.views ?? READER_DEFAULTS.views;
  const reviewBelow = options.reviewBelow ?? READER_DEFAULTS.reviewBelow;
  const { stride, inputWidth, inputHeight } = MODEL_SPEC.detector;
  const gw = inputWidth / stride;
  const gh = inputHeight / stride;

  // warm up: the first inference compiles kernels
  tf.tidy(() => {
    detector.predict(tf.zeros([1, inputHeight, inputWidth, 3]));
    classifier.predict(tf.zeros([1, MODEL_SPEC.classifier.cropSize, MODEL_SPEC.classifier.cropSize, 3]));
  });

  /** [n, C] probabilities of the crops, each the mean over v orientations */
  async function predictProbs(crops: tf.Tensor4D, v: ClassifierViews): Promise<Float32Array> {
    const t = tf.tidy(() => meanOverViews(classifier.predict(orientedViews(crops, v)) as tf.Tensor2D, v));
    const data = (await t.data()) as Float32Array;
    t.dispose();
    return data;
  }

  /** One look at every crop; a second, in all `views` orientations, at the ones it was not sure of. */
  async function classify(frame: tf.Tensor3D, dets: Detection[]): Promise<Float32Array[]> {
    const crops = classifierCrops(frame, dets);
    try {
      const first = await predictProbs(crops, 1);
      const probs = dets.map((_, i) => first.slice(i * NUM_CLASSES, (i + 1) * NUM_CLASSES));
      if (views === 1) return probs;
      const doubtful = probs.flatMap((p, i) => (reviewBelow >= 1 || Math.max(...p) < reviewBelow ? [i] : []));
      if (doubtful.length === 0) return probs;
      const subset = tf.gather(crops, doubtful);
      const again = await predictProbs(subset, views);
      subset.dispose();
      doubtful.forEach((i, k) => (probs[i] = again.slice(k * NUM_CLASSES, (k + 1) * NUM_CLASSES)));
      return probs;
    } finally {
      crops.dispose();
    }
  }

  async function readPixels(px: RgbPixels): Promise<DiceReading> {
    const frame = tf.tensor3d(px.data, [px.height, px.width, 3], 'int32');
    try {
      const { input, box } = detectorInput(frame);
      const outT = detector.predict(input) as tf.Tensor;
      input.dispose();
      const out = (await outT.data()) as Float32Array;
      outT.dispose();
      const peaks = decodePeaks(out, gw, gh, stride, detectThreshold, minPeakDistance).slice(0, maxDice);
      const dets: Detection[] = peaks
        .map((p) => ({ x: (p.x - box.padX) / box.scale, y: (p.y - box.padY) / box.scale, size: p.size / box.scale, score: p.score }))
        .filter((d) => d.x >= 0 && d.y >= 0 && d.x < px.width && d.y < px.height);
      if (dets.length === 0) return { width: px.width, height: px.height, dice: [] };
      const probs = await classify(frame, dets);
      return { width: px.width, height: px.height, dice: decideDice(dets, probs, px.width, px.height, thresholds) };
    } finally {
      frame.dispose();
    }
  }

  return {
    backend,
    modelVersion: shipped.spec.version,
    read: async (image: Buffer) => readPixels(await decodeImage(image)),
    readRaw: async (image: RawRgb) => readPixels(checkRaw(image)),
    dispose: () => {
      detector.dispose();
      classifier.dispose();
    },
  };
}
