/**
 * The whole training run: synthetic scenes + real training photos → detector, then classifier.
 * Runs on the wasm backend (with the missing gradient kernel registered) or cpu.
 */
import * as tf from '@tensorflow/tfjs';
import { buildClassifier, type ClassifierArchitecture } from '../architecture.ts';
import { decodePeaks, encodeTargets, weighNoDieAround } from '../heatmap.ts';
import { classifierCrops, detectorInput, inputToFrame, type CropRequest, type FrameWindow } from '../preprocess.ts';
import { mirroredPixels } from '../resample.ts';
import { CLOSER_LOOK_INPUT, closerLookWindow } from '../closer-look.ts';
import { CLASS_NONE, MODEL_SPEC, NUM_CLASSES, type ClassifierInput } from '../spec.ts';
import { Rng } from '../../synth/random.ts';
import type { FrameSample } from './samples.ts';
import { PIP_GRID, pipMap } from './pip-map.ts';

/** Run fn and release every tensor it made (fn returns plain data). */
function scoped<T>(fn: () => T): T {
  tf.engine().startScope();
  try {
    return fn();
  } finally {
    tf.engine().endScope();
  }
}

function setLearningRate(optimizer: tf.Optimizer, lr: number): void {
  (optimizer as unknown as { learningRate: number }).learningRate = lr;
}

export type Progress = (stage: string, done: number, total: number, info?: string) => void;

const { inputWidth: DW, inputHeight: DH, stride } = MODEL_SPEC.detector;
const GW = DW / stride;
const GH = DH / stride;
const CS = MODEL_SPEC.classifier.cropSize;

/** Channels of a detector target: heat, logSize, sizeMask, negWeight (heatmap.ts `Targets`). */
export const TARGET_CHANNELS = 4;

export interface DetectorExample {
  input: Float32Array; // (gh*stride)*(gw*stride)*3
  target: Float32Array; // gh*gw*TARGET_CHANNELS
  /** grid cells across and down: the spec input's, or a closer-look window's */
  gw: number;
  gh: number;
}

/** The detector's own false peaks in a frame, whose "no die" loss a round weighs `weight` times. */
export interface DetectorNegatives {
  peaks: CropRequest[];
  weight: number;
}

/**
 * Letterbox the frame (or `window` of it, into the closer look's input) and build its heatmap targets
 * (`pipWeight`: encodeTargets'; `negatives`: the 3 × 3 cells around each false peak, away from any die's
 * centre, weigh their "no die" loss that much more).
 */
export function detectorExample(s: FrameSample, flip: boolean, window?: FrameWindow, pipWeight = 1, negatives?: DetectorNegatives): DetectorExample {
  return scoped(() => {
    const into = window ? CLOSER_LOOK_INPUT : { width: DW, height: DH };
    const { input, box } = detectorInput(flip ? mirroredPixels(s.pixels) : s.pixels, into, window);
    const toInput = (x: number, y: number): [number, number] => [
      ((flip ? s.pixels.width - x : x) - (window?.x0 ?? 0)) * box.scale + box.padX,
      (y - (window?.y0 ?? 0)) * box.scale + box.padY,
    ];
    const dice = s.dice.map((d) => {
      const [x, y] = toInput(d.x, d.y);
      return { x, y, size: d.size === null ? null : d.size * box.scale, pips: d.pips?.map(([px, py]) => toInput(px, py)) };
    });
    const gw = into.width / stride;
    const gh = into.height / stride;
    const t = encodeTargets(dice, gw, gh, stride, 28, pipWeight);
    if (negatives) weighNoDieAround(t, gw, gh, stride, negatives.peaks.map((p) => toInput(p.x, p.y)), negatives.weight);
    const target = new Float32Array(gw * gh * TARGET_CHANNELS);
    for (let i = 0; i < gw * gh; i++) {
      target[i * TARGET_CHANNELS] = t.heat[i];
      target[i * TARGET_CHANNELS + 1] = t.logSize[i];
      target[i * TARGET_CHANNELS + 2] = t.sizeMask[i];
      target[i * TARGET_CHANNELS + 3] = t.negWeight[i];
    }
    return { input: input.dataSync() as Float32Array, target, gw, gh };
  });
}

/**
 * The window a closer look would take around one of the frame's small dice (chosen at random, the
 * window's centre moved by up to 0.15 × its size as a first look misplaces it), or null when none is small.
 */
export function closerLookTrainingWindow(s: FrameSample, rng: Rng, targetPx: number): FrameWindow | null {
  const windows = s.dice.flatMap((d) => {
    if (d.size === null) return [];
    const jitter = { x: d.x + rng.range(-0.15, 0.15) * d.size, y: d.y + rng.range(-0.15, 0.15) * d.size, size: d.size, score: 1 };
    const w = closerLookWindow(jitter, s.pixels.width, s.pixels.height, targetPx);
    return w ? [w] : [];
  });
  return windows.length ? rng.pick(windows) : null;
}

/** CenterNet focal loss on the heatmap (its "no die" part weighted per cell) + masked L1 on log size. */
function detectorLoss(yTrue: tf.Tensor, yPred: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const [heatT, sizeT, mask, negWeight] = tf.split(yTrue, TARGET_CHANNELS, -1);
    const [heatP, sizeP] = tf.split(yPred, 2, -1);
    const p = heatP.clipByValue(1e-4, 1 - 1e-4);
    const pos = tf.step(heatT.sub(0.999));
    const neg = tf.scalar(1).sub(pos);
    const posLoss = p.log().neg().mul(tf.scalar(1).sub(p).square()).mul(pos);
    const negW = tf.scalar(1).sub(heatT).pow(4);
    const negLoss = tf.scalar(1).sub(p).log().neg().mul(p.square()).mul(negW).mul(neg).mul(negWeight);
    const npos = pos.sum().maximum(1);
    const heatLoss = posLoss.sum().add(negLoss.sum()).div(npos);
    const sizeLoss = sizeP.sub(sizeT).abs().mul(mask).sum().div(mask.sum().maximum(1));
    return heatLoss.add(sizeLoss.mul(0.5));
  });
}

export interface DetectorTraining {
  steps: number;
  batch: number;
  /** training crop of the detector input, in cells (fully convolutional) */
  cropCells: [number, number];
  learningRate: number;
  /** share of training crops taken from real photos */
  realFraction: number;
}

/** Trains `model`, a new detector or one being continued (same schedule, usually at a lower learning rate for the latter). */
export async function trainDetector(synthetic: DetectorExample[], real: DetectorExample[], cfg: DetectorTraining, rng: Rng, progress: Progress, model: tf.LayersModel): Promise<tf.LayersModel> {
  const [ch, cw] = cfg.cropCells;
  const hIn = ch * stride;
  const wIn = cw * stride;
  // fully convolutional: train on crops, run on the whole input (the layers and weights are shared)
  const cropInput = tf.input({ shape: [hIn, wIn, 3] });
  const cropOut = model.apply(cropInput) as tf.SymbolicTensor;
  const cropModel = tf.model({ inputs: cropInput, outputs: cropOut });
  const optimizer = tf.train.adam(cfg.learningRate);
  const vars = cropModel.trainableWeights.map((w) => w.read() as tf.Variable);
  const xs = new Float32Array(cfg.batch * hIn * wIn * 3);
  const ys = new Float32Array(cfg.batch * ch * cw * TARGET_CHANNELS);
  let avg = 0;
  for (let step = 0; step < cfg.steps; step++) {
    if (step === Math.floor(cfg.steps * 0.7)) setLearningRate(optimizer, cfg.learningRate * 0.3);
    if (step === Math.floor(cfg.steps * 0.9)) setLearningRate(optimizer, cfg.learningRate * 0.1);
    for (let b = 0; b < cfg.batch; b++) {
      const pool = real.length > 0 && (synthetic.length === 0 || rng.chance(cfg.realFraction)) ? real : synthetic;
      const ex = pool[rng.int(0, pool.length - 1)];
      // prefer crops that hold a die
      let ox = 0;
      let oy = 0;
      for (let attempt = 0; attempt < 4; attempt++) {
        ox = rng.int(0, ex.gw - cw);
        oy = rng.int(0, ex.gh - ch);
        let hasDie = false;
        for (let y = oy; y < oy + ch && !hasDie; y++) for (let x = ox; x < ox + cw; x++) if (ex.target[(y * ex.gw + x) * TARGET_CHANNELS] === 1) { hasDie = true; break; }
        if (hasDie || rng.chance(0.25)) break;
      }
      for (let y = 0; y < hIn; y++) {
        const src = ((oy * stride + y) * ex.gw * stride + ox * stride) * 3;
        xs.set(ex.input.subarray(src, src + wIn * 3), (b * hIn + y) * wIn * 3);
      }
      for (let y = 0; y < ch; y++) {
        const src = ((oy + y) * ex.gw + ox) * TARGET_CHANNELS;
        ys.set(ex.target.subarray(src, src + cw * TARGET_CHANNELS), (b * ch + y) * cw * TARGET_CHANNELS);
      }
    }
    const x = tf.tensor4d(xs, [cfg.batch, hIn, wIn, 3]);
    const y = tf.tensor4d(ys, [cfg.batch, ch, cw, TARGET_CHANNELS]);
    const lossT = optimizer.minimize(() => detectorLoss(y, cropModel.apply(x, { training: true }) as tf.Tensor) as tf.Scalar, true, vars);
    const loss = lossT ? (await lossT.data())[0] : NaN;
    tf.dispose([x, y, lossT as tf.Tensor]);
    avg = step === 0 ? loss : avg * 0.95 + loss * 0.05;
    progress('detector', step + 1, cfg.steps, `loss ${avg.toFixed(3)}`);
  }
  return model;
}

export interface ClassifierExample {
  crop: Float32Array; // CS*CS*3, standardised
  cls: number;
  /** the crop's pip map (pip-map.ts), where the labels give every pip in it */
  pips?: Float32Array;
}

/** How far (× size, along each axis) a die's classifier crops are cut from its centre, at most, unless told. */
export const CENTRE_JITTER = 0.12;

/**
 * Crops for the classifier from one frame: each die with jittered centre and size, plus
 * background crops labelled "none", normalised as `input`. `sizes` gives the size each die's crops are cut at (known or detected).
 */
export function classifierExamples(s: FrameSample, input: ClassifierInput, sizes: number[], rng: Rng, perDie: number, negatives: number, offCentre = 0, centreJitter = CENTRE_JITTER, withPipMaps = false): ClassifierExample[] {
  const reqs: CropRequest[] = [];
  const cls: number[] = [];
  s.dice.forEach((d, i) => {
    const size = sizes[i];
    for (let k = 0; k < perDie; k++) {
      const j = centreJitter * size;
      reqs.push({ x: d.x + rng.range(-j, j), y: d.y + rng.range(-j, j), size: size * rng.range(0.85, 1.2) });
      cls.push(d.cls);
    }
  });
  // off-centre crops (a side face, half a die) are not a die centre: the detector's duplicates look like this
  s.dice.forEach((d, i) => {
    if (!rng.chance(offCentre)) return;
    const a = rng.range(0, Math.PI * 2);
    const r = sizes[i] * rng.range(0.6, 0.9);
    const x = d.x + Math.cos(a) * r;
    const y = d.y + Math.sin(a) * r;
    if (s.dice.some((e, j) => Math.hypot(e.x - x, e.y - y) < 0.5 * sizes[j])) return;
    reqs.push({ x, y, size: sizes[i] * rng.range(0.85, 1.2) });
    cls.push(CLASS_NONE);
  });
  const typical = sizes.length > 0 ? sizes[Math.floor(rng.next() * sizes.length)] : rng.range(20, 100);
  for (let k = 0; k < negatives; k++) {
    const size = typical * rng.range(0.8, 1.25);
    const x = rng.range(0, s.pixels.width);
    const y = rng.range(0, s.pixels.height);
    const near = s.dice.some((d, i) => Math.hypot(d.x - x, d.y - y) < 0.75 * Math.max(sizes[i], size));
    if (near) continue;
    reqs.push({ x, y, size });
    cls.push(CLASS_NONE);
  }
  if (reqs.length === 0) return [];
  return scoped(() => {
    const crops = classifierCrops(s.pixels, reqs, input);
    const all = crops.dataSync() as Float32Array;
    const n = CS * CS * 3;
    const maps = withPipMaps ? pipMapsOf(s, reqs, sizes) : [];
    return reqs.map((_, i) => ({ crop: all.slice(i * n, (i + 1) * n), cls: cls[i], ...(maps[i] ? { pips: maps[i] } : {}) }));
  });
}

/** Pip maps of a synthetic frame's crops (readable dice give their pips; leaning and blurred ones make a crop unknown); none for real photos. */
function pipMapsOf(s: FrameSample, reqs: CropRequest[], sizes: number[]): (Float32Array | null)[] {
  if (s.source !== 'synthetic' || s.dice.some((d) => d.cls <= 5 && !d.pips)) return [];
  const pips = s.dice.flatMap((d) => (d.cls <= 5 ? (d.pips ?? []) : []));
  const unknown = s.dice.flatMap((d, i) => (d.cls > CLASS_NONE ? [{ x: d.x, y: d.y, size: sizes[i] }] : []));
  return reqs.map((r) => pipMap(r, pips, unknown));
}

/** The detector's peaks on a frame, in frame pixels. */
function framePeaks(detector: tf.LayersModel, s: FrameSample, threshold: number): { x: number; y: number; size: number }[] {
  const out = scoped(() => {
    const { input, box } = detectorInput(s.pixels);
    const o = (detector.predict(input) as tf.Tensor).dataSync() as Float32Array;
    return { o: o.slice(), box };
  });
  return decodePeaks(out.o, GW, GH, stride, threshold).map((p) => inputToFrame(out.box, p));
}

/**
 * Sizes the detector predicts for the labelled centres of a frame (nearest peak): for real photos whose
 * labels lack sizes, and for synthetic crops cut the way inference cuts them. `fallback` (one for all, or
 * one per die) is used where no peak lies within half a size of the label.
 */
export function detectedSizes(detector: tf.LayersModel, s: FrameSample, fallback: number | number[]): number[] {
  const peaks = framePeaks(detector, s, 0.1);
  return s.dice.map((d, i) => {
    const fb = typeof fallback === 'number' ? fallback : fallback[i];
    let best: number | null = null;
    let bestDist = Infinity;
    for (const p of peaks) {
      const dist = Math.hypot(p.x - d.x, p.y - d.y);
      if (dist < bestDist) {
        bestDist = dist;
        best = p.size;
      }
    }
    return best !== null && bestDist < 0.5 * best ? best : fb;
  });
}

/**
 * Hard negatives: the detector's own peaks (at `threshold`, below the reader's) that no labelled die
 * explains — side faces of tilted dice, stickers, tokens. Labels without a size (real photos) explain a
 * peak within the scoring radius (25 px per 640 px of width) or half the peak's size.
 */
export function falsePeaks(detector: tf.LayersModel, s: FrameSample, threshold: number): CropRequest[] {
  const minRadius = (25 * s.pixels.width) / 640;
  return framePeaks(detector, s, threshold)
    .filter((p) => !s.dice.some((d) => Math.hypot(p.x - d.x, p.y - d.y) < Math.max(minRadius, 0.5 * (d.size ?? p.size), 0.5 * p.size)))
    .map((p) => ({ x: p.x, y: p.y, size: p.size }));
}

/** Classifier examples "not a die" cut around hard negatives, jittered like the die crops. */
export function negativeExamples(s: FrameSample, input: ClassifierInput, peaks: CropRequest[], rng: Rng, perPeak: number): ClassifierExample[] {
  if (peaks.length === 0) return [];
  const reqs: CropRequest[] = peaks.flatMap((p) =>
    Array.from({ length: perPeak }, () => ({ x: p.x + rng.range(-0.1, 0.1) * p.size, y: p.y + rng.range(-0.1, 0.1) * p.size, size: p.size * rng.range(0.9, 1.15) })),
  );
  return scoped(() => {
    const all = classifierCrops(s.pixels, reqs, input).dataSync() as Float32Array;
    const n = CS * CS * 3;
    return reqs.map((_, i) => ({ crop: all.slice(i * n, (i + 1) * n), cls: CLASS_NONE }));
  });
}

export interface ClassifierTraining {
  /** for a new classifier (a continued one keeps its own) */
  architecture: ClassifierArchitecture;
  epochs: number;
  batch: number;
  learningRate: number;
  /** weight of the pip-map loss (pip-map.ts) beside the class loss; 0 or absent: the class loss alone */
  pipMapWeight?: number;
}

/**
 * Random 90° rotations and mirror flips of a side×side×channels grid: a crop (pip layouts are symmetric
 * under both) or its pip map, turned the same way.
 */
export function augmentGrid(src: Float32Array, dst: Float32Array, rot: number, flip: boolean, side: number = CS, channels = 3): void {
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      let sx = flip ? side - 1 - x : x;
      let sy = y;
      for (let r = 0; r < rot; r++) {
        const t = sx;
        sx = side - 1 - sy;
        sy = t;
      }
      const d = (y * side + x) * channels;
      const s = (sy * side + sx) * channels;
      for (let c = 0; c < channels; c++) dst[d + c] = src[s + c];
    }
  }
}

export async function trainClassifier(data: ClassifierExample[], cfg: ClassifierTraining, rng: Rng, progress: Progress, start?: tf.LayersModel): Promise<tf.LayersModel> {
  const model = start ?? buildClassifier(cfg.architecture);
  if ((cfg.pipMapWeight ?? 0) > 0) return trainClassifierWithPipMaps(model, data, cfg, rng, progress);
  const optimizer = tf.train.adam(cfg.learningRate);
  model.compile({ optimizer, loss: 'categoricalCrossentropy', metrics: ['accuracy'] });
  await classifierEpochs(data, cfg, rng, optimizer, progress, false, async (b) => {
    const [loss, acc] = (await model.trainOnBatch(b.x, b.y)) as number[];
    return { loss, acc };
  });
  return model;
}

/** Shuffled example indices for one epoch. */
function shuffled(count: number, rng: Rng): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** One batch of turned and mirrored crops, their one-hot classes and, when asked for, their pip maps with a 0/1 mask of which have one. */
interface ClassifierBatch {
  x: tf.Tensor4D;
  y: tf.Tensor2D;
  maps?: tf.Tensor4D;
  mask?: tf.Tensor4D;
}

interface StepResult {
  loss: number;
  acc: number;
  pips?: number;
}

/**
 * The epochs of a classifier's training: shuffled batches, each crop turned and mirrored at random
 * (its pip map with it), the learning rate cut to 0.3 × for the last 30 %, a progress line of moving
 * averages. `step` trains on one batch.
 */
async function classifierEpochs(data: ClassifierExample[], cfg: ClassifierTraining, rng: Rng, optimizer: tf.Optimizer, progress: Progress, withMaps: boolean, step: (b: ClassifierBatch) => Promise<StepResult>): Promise<void> {
  const n = CS * CS * 3;
  const m = PIP_GRID * PIP_GRID;
  const stepsPerEpoch = Math.ceil(data.length / cfg.batch);
  const total = stepsPerEpoch * cfg.epochs;
  const xs = new Float32Array(cfg.batch * n);
  const ys = new Float32Array(cfg.batch * NUM_CLASSES);
  const maps = new Float32Array(withMaps ? cfg.batch * m : 0);
  const mask = new Float32Array(withMaps ? cfg.batch : 0);
  let done = 0;
  const avg = { loss: 0, acc: 0, pips: 0 };
  for (let epoch = 0; epoch < cfg.epochs; epoch++) {
    if (epoch === Math.floor(cfg.epochs * 0.7)) setLearningRate(optimizer, cfg.learningRate * 0.3);
    const order = shuffled(data.length, rng);
    for (let s = 0; s < stepsPerEpoch; s++) {
      const idx = order.slice(s * cfg.batch, (s + 1) * cfg.batch);
      ys.fill(0);
      maps.fill(0);
      mask.fill(0);
      idx.forEach((k, b) => {
        const rot = rng.int(0, 3);
        const flip = rng.chance(0.5);
        augmentGrid(data[k].crop, xs.subarray(b * n, (b + 1) * n), rot, flip);
        ys[b * NUM_CLASSES + data[k].cls] = 1;
        const map = data[k].pips;
        if (withMaps && map) {
          augmentGrid(map, maps.subarray(b * m, (b + 1) * m), rot, flip, PIP_GRID, 1);
          mask[b] = 1;
        }
      });
      const count = idx.length;
      const batch: ClassifierBatch = {
        x: tf.tensor4d(xs.subarray(0, count * n), [count, CS, CS, 3]),
        y: tf.tensor2d(ys.subarray(0, count * NUM_CLASSES), [count, NUM_CLASSES]),
        ...(withMaps ? { maps: tf.tensor4d(maps.subarray(0, count * m), [count, PIP_GRID, PIP_GRID, 1]), mask: tf.tensor4d(mask.subarray(0, count), [count, 1, 1, 1]) } : {}),
      };
      const r = await step(batch);
      tf.dispose(Object.values(batch));
      const keep = done === 0 ? 0 : 0.95;
      avg.loss = avg.loss * keep + r.loss * (1 - keep);
      avg.acc = avg.acc * keep + r.acc * (1 - keep);
      avg.pips = avg.pips * keep + (r.pips ?? 0) * (1 - keep);
      done++;
      progress('classifier', done, total, `epoch ${epoch + 1}/${cfg.epochs} loss ${avg.loss.toFixed(3)} acc ${avg.acc.toFixed(3)}${withMaps ? ` pips ${avg.pips.toFixed(3)}` : ''}`);
    }
  }
}

/**
 * The classifier trained on its class loss plus `pipMapWeight` × a pip-map loss: a 1×1 sigmoid head on
 * the k3 features, there for training only (binary cross-entropy against pip-map.ts's map, counted for
 * the examples that have one). The head is dropped: the model returned is `model`, its weights trained.
 */
async function trainClassifierWithPipMaps(model: tf.LayersModel, data: ClassifierExample[], cfg: ClassifierTraining, rng: Rng, progress: Progress): Promise<tf.LayersModel> {
  const weight = cfg.pipMapWeight ?? 0;
  const features = model.getLayer('k3').output as tf.SymbolicTensor;
  const head = tf.layers.conv2d({ filters: 1, kernelSize: 1, activation: 'sigmoid', name: 'pipMap', biasInitializer: tf.initializers.constant({ value: -3 }) }).apply(features) as tf.SymbolicTensor;
  const trainingModel = tf.model({ inputs: model.inputs, outputs: [model.outputs[0], head] });
  const optimizer = tf.train.adam(cfg.learningRate);
  const vars = trainingModel.trainableWeights.map((w) => w.read() as tf.Variable);
  const cells = PIP_GRID * PIP_GRID;
  await classifierEpochs(data, cfg, rng, optimizer, progress, true, async ({ x, y, maps, mask }) => {
    const kept: tf.Tensor[] = [];
    const lossT = optimizer.minimize(
      () => {
        const [probs, pred] = trainingModel.apply(x, { training: true }) as tf.Tensor[];
        const classLoss = tf.losses.softmaxCrossEntropy(y, probs.clipByValue(1e-7, 1).log());
        const p = pred.clipByValue(1e-4, 1 - 1e-4);
        const bce = maps!.mul(p.log()).add(tf.scalar(1).sub(maps!).mul(tf.scalar(1).sub(p).log())).neg().mul(mask!);
        const mapLoss = bce.sum().div(mask!.sum().mul(cells).maximum(1));
        kept.push(tf.keep(probs.argMax(-1).equal(y.argMax(-1)).cast('float32').mean()), tf.keep(mapLoss));
        return classLoss.add(mapLoss.mul(weight)) as tf.Scalar;
      },
      true,
      vars,
    );
    const [loss, acc, pips] = await Promise.all([lossT!, ...kept].map(async (t) => (await t.data())[0]));
    tf.dispose([lossT!, ...kept]);
    return { loss, acc, pips };
  });
  return model;
}
