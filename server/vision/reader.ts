/**
 * The dice reader: frame → dice, the one code path used by the server, `dice:eval` and the benchmark.
 * Stage 1 finds die centres and sizes on a letterboxed copy of the spec's input size (320×240 since
 * 1.7.0); stage 2 classifies a crop of each die, taken from the full-resolution frame. A die it is not
 * sure of gets a second look in four orientations and a closer look (closer-look.ts): found again in a
 * zoomed window, and its new crop read too. A frame larger than 640×480 is also looked at finely
 * (fine-look.ts), so that its small dice are found. Given the part of the frame the tray is in, the
 * detector looks there only (region.ts).
 */
import * as tf from '@tensorflow/tfjs';
import type { SeenDie } from '../http/protocol.ts';
import type { DiceReader, ReadOptions } from '../hardware/ports.ts';
import { initBackend, type BackendName } from './backend.ts';
import { checkRaw, decodeImage, type RawRgb, type RgbPixels } from './decode.ts';
import { decideDice, DEFAULT_THRESHOLDS, type DecisionThresholds, type Detection } from './decide.ts';
import { decodePeaks, PEAK_SPACING } from './heatmap.ts';
import { DEFAULT_MODEL_DIR, loadLayersModel, modelName, readSpec, taughtPhotosOf } from './model-store.ts';
import { join } from 'node:path';
import { classifierCrops, detectorInput, inputToFrame, meanOverViews, orientedViews, type ClassifierViews, type FrameWindow, type InputSize, type Letterbox } from './preprocess.ts';
import { CLOSER_LOOK_INPUT, closerLookWindow, placeAgain } from './closer-look.ts';
import { fineLookInput, fineLookScale, firstLookScale, mergeLooks } from './fine-look.ts';
import { checkRegion, regionLook, regionWindow, windowHolds } from './region.ts';
import { MODEL_SPEC, NUM_CLASSES } from './spec.ts';
import { detectorHeads } from './architecture.ts';

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
  /** size in detector-input pixels a doubtful die is zoomed to for a closer look (0: no closer look) */
  closerLook?: number;
  /** look again at a frame larger than 640×480 at the scale of a 640×480 one (fine-look.ts) */
  fineLook?: boolean;
}

export interface VisionDiceReader extends DiceReader {
  readonly backend: BackendName;
  readonly modelVersion: string;
  /** JPEG/PNG bytes → dice (`options.within`: look only in that part of the frame, region.ts) */
  read(image: Buffer, options?: ReadOptions): Promise<DiceReading>;
  /** raw RGB → dice */
  readRaw(image: RawRgb, options?: ReadOptions): Promise<DiceReading>;
  dispose(): void;
}

/**
 * Decision settings of the shipped model, chosen on the synthetic tuning set (seed 2) and the real
 * train split, never on the sets the figures in models/README.md are measured on. The face, none and
 * edge thresholds are in decide.ts.
 */
export const READER_DEFAULTS = { detectThreshold: 0.2, minPeakDistance: PEAK_SPACING, views: 4 as ClassifierViews, reviewBelow: 0.9, closerLook: 30, fineLook: true };

/**
 * The detector grid of `input` ([n, H, W, 3]) as the saved detector lays it out, [n, H/4, W/4, 2] flat: each
 * cell's heatmap and log size side by side (heatmap.ts), from `heads`, a model of detectorHeads. Layers
 * models are applied, not `predict`ed: `predict` first copies its input into batches of 32.
 */
async function detectorGrid(heads: tf.LayersModel, input: tf.Tensor4D): Promise<Float32Array> {
  const [heatT, logSizeT] = tf.tidy(() => heads.apply(input) as tf.Tensor[]);
  try {
    const [heat, logSize] = (await Promise.all([heatT.data(), logSizeT.data()])) as Float32Array[];
    const grid = new Float32Array(heat.length * 2);
    for (let i = 0; i < heat.length; i++) {
      grid[2 * i] = heat[i];
      grid[2 * i + 1] = logSize[i];
    }
    return grid;
  } finally {
    heatT.dispose();
    logSizeT.dispose();
  }
}

/** Heatmap peak a closer look accepts: the die was found once already, so weaker than a first detection. */
const CLOSER_LOOK_THRESHOLD = 0.1;

export async function createDiceReader(options: ReaderOptions = {}): Promise<VisionDiceReader> {
  const backend = await initBackend(options.backend);
  const modelDir = options.modelDir ?? DEFAULT_MODEL_DIR;
  const shipped = await readSpec(modelDir);
  const taught = taughtPhotosOf(shipped);
  const detector = await loadLayersModel(join(modelDir, 'detector'));
  const classifier = await loadLayersModel(join(modelDir, 'classifier'));
  const detectThreshold = options.detectThreshold ?? READER_DEFAULTS.detectThreshold;
  const minPeakDistance = options.minPeakDistance ?? READER_DEFAULTS.minPeakDistance;
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const maxDice = options.maxDice ?? 40;
  const views = options.views ?? READER_DEFAULTS.views;
  const reviewBelow = options.reviewBelow ?? READER_DEFAULTS.reviewBelow;
  const closerLook = options.closerLook ?? READER_DEFAULTS.closerLook;
  const fineLook = options.fineLook ?? READER_DEFAULTS.fineLook;
  const { stride, inputWidth, inputHeight } = MODEL_SPEC.detector;

  /** The detector's heads, on an input of any size: every look's (detectorHeads). */
  const heads = detectorHeads(detector);
  const firstLookInput: InputSize = { width: inputWidth, height: inputHeight };

  const [wgw, wgh] = [CLOSER_LOOK_INPUT.width / stride, CLOSER_LOOK_INPUT.height / stride];

  // warm up: the first inference compiles kernels
  tf.tidy(() => {
    heads.apply(tf.zeros([1, inputHeight, inputWidth, 3]));
    heads.apply(tf.zeros([1, CLOSER_LOOK_INPUT.height, CLOSER_LOOK_INPUT.width, 3]));
    classifier.apply(tf.zeros([1, MODEL_SPEC.classifier.cropSize, MODEL_SPEC.classifier.cropSize, 3]));
  });

  /** Peaks of one detector pass over the frame (or `window` of it) letterboxed into `size`, in frame pixels. */
  async function look(px: RgbPixels, size: InputSize, window?: FrameWindow): Promise<{ dets: Detection[]; scale: number }> {
    const { input, box } = detectorInput(px, size, window);
    const out = await detectorGrid(heads, input).finally(() => input.dispose());
    const peaks = decodePeaks(out, size.width / stride, size.height / stride, stride, detectThreshold, minPeakDistance);
    return { dets: peaks.map((p) => ({ ...inputToFrame(box, p, window), score: p.score })), scale: box.scale };
  }

  /** A look at `scale` over the whole frame (into `whole`), or over the part of it `within` needs. */
  function lookAt(px: RgbPixels, scale: number, whole: InputSize, within: ReadOptions['within']): Promise<{ dets: Detection[]; scale: number }> {
    if (!within) return look(px, whole);
    const part = regionLook(px.width, px.height, scale, within);
    return look(px, part.input, part.window);
  }

  /**
   * Every die's place and size: the first look, and for a large frame the fine look merged in; `within` a
   * region, only the dice in it and its margin (region.ts).
   */
  async function detect(px: RgbPixels, within: ReadOptions['within']): Promise<Detection[]> {
    const { width, height } = px;
    const firstScale = firstLookScale(width, height);
    const first = await lookAt(px, firstScale, firstLookInput, within);
    const fineScale = fineLook ? fineLookScale(width, height) : null;
    let dets = first.dets;
    if (fineScale !== null) {
      const fine = await lookAt(px, fineScale, fineLookInput(width, height)!, within);
      dets = mergeLooks(first.dets, fine.dets, first.scale, fine.scale, minPeakDistance);
    }
    if (!within) return dets;
    const seen = regionWindow(width, height, firstScale, within);
    return dets.filter((d) => windowHolds(seen, d.x, d.y));
  }

  /** [n, C] probabilities of the crops, each the mean over v orientations */
  async function predictProbs(crops: tf.Tensor4D, v: ClassifierViews): Promise<Float32Array> {
    const t = tf.tidy(() => meanOverViews(classifier.apply(orientedViews(crops, v)) as tf.Tensor2D, v));
    const data = (await t.data()) as Float32Array;
    t.dispose();
    return data;
  }

  /**
   * The dice of `dets` placed again by the detector in a zoomed window around each (closer-look.ts); null
   * where the window would not be closer than the first look or no peak lies on the die.
   */
  async function lookCloser(px: RgbPixels, dets: Detection[]): Promise<(Detection | null)[]> {
    const { width, height } = px;
    const windows = dets.map((d) => closerLookWindow(d, width, height, closerLook));
    const looked = windows.flatMap((w, i) => (w ? [i] : []));
    if (looked.length === 0) return dets.map(() => null);
    const boxes: Letterbox[] = [];
    const batch = tf.tidy(() =>
      tf.concat(
        looked.map((i) => {
          const w = windows[i]!;
          const { input, box } = detectorInput(px, CLOSER_LOOK_INPUT, w);
          boxes.push(box);
          return input;
        }),
        0,
      ),
    );
    const out = await detectorGrid(heads, batch).finally(() => batch.dispose());
    const perWindow = wgw * wgh * 2;
    const placed: (Detection | null)[] = dets.map(() => null);
    looked.forEach((i, k) => {
      const peaks = decodePeaks(out.subarray(k * perWindow, (k + 1) * perWindow), wgw, wgh, stride, CLOSER_LOOK_THRESHOLD, minPeakDistance);
      placed[i] = placeAgain(dets[i], peaks, boxes[k], windows[i]!);
    });
    return placed;
  }

  /**
   * One look at every crop; a second, in all `views` orientations, at the ones it was not sure of, and
   * with a closer look those dice are placed again and their new crops' views averaged in.
   */
  async function classify(px: RgbPixels, dets: Detection[]): Promise<{ dets: Detection[]; probs: Float32Array[] }> {
    const crops = classifierCrops(px, dets, shipped.classifierInput);
    try {
      const first = await predictProbs(crops, 1);
      const probs = dets.map((_, i) => first.slice(i * NUM_CLASSES, (i + 1) * NUM_CLASSES));
      if (views === 1) return { dets, probs };
      const doubtful = probs.flatMap((p, i) => (reviewBelow >= 1 || Math.max(...p) < reviewBelow ? [i] : []));
      if (doubtful.length === 0) return { dets, probs };
      const subset = tf.gather(crops, doubtful);
      const again = await predictProbs(subset, views);
      subset.dispose();
      doubtful.forEach((i, k) => (probs[i] = again.slice(k * NUM_CLASSES, (k + 1) * NUM_CLASSES)));
      if (closerLook <= 0) return { dets, probs };
      const placed = await lookCloser(px, doubtful.map((i) => dets[i]));
      const moved = doubtful.flatMap((i, k) => (placed[k] ? [{ i, die: placed[k]! }] : []));
      if (moved.length === 0) return { dets, probs };
      const movedCrops = classifierCrops(px, moved.map((m) => m.die), shipped.classifierInput);
      const closer = await predictProbs(movedCrops, views);
      movedCrops.dispose();
      const placedDets = [...dets];
      moved.forEach(({ i, die }, k) => {
        placedDets[i] = die;
        probs[i] = probs[i].map((p, c) => (p + closer[k * NUM_CLASSES + c]) / 2);
      });
      return { dets: placedDets, probs };
    } finally {
      crops.dispose();
    }
  }

  async function readPixels(px: RgbPixels, options: ReadOptions = {}): Promise<DiceReading> {
    const within = options.within === undefined ? undefined : checkRegion(options.within);
    const dets = (await detect(px, within)).slice(0, maxDice).filter((d) => d.x >= 0 && d.y >= 0 && d.x < px.width && d.y < px.height);
    if (dets.length === 0) return { width: px.width, height: px.height, dice: [] };
    const read = await classify(px, dets);
    return { width: px.width, height: px.height, dice: decideDice(read.dets, read.probs, px.width, px.height, thresholds) };
  }

  return {
    backend,
    modelVersion: modelName(shipped),
    ...(taught ? { taught } : {}),
    read: async (image: Buffer, options?: ReadOptions) => readPixels(await decodeImage(image), options),
    readRaw: async (image: RawRgb, options?: ReadOptions) => readPixels(checkRaw(image), options),
    dispose: () => {
      // the heads hold the detector's layers once more: each gives them back once
      heads.dispose();
      detector.dispose();
      classifier.dispose();
    },
  };
}
