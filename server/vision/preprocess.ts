/** Preprocessing shared by training and inference: detector letterbox input and classifier crops, from a frame's pixels. */
import * as tf from '@tensorflow/tfjs';
import { MODEL_SPEC, type ClassifierInput } from './spec.ts';
import type { RgbPixels } from './decode.ts';
import { resampledSquares, resizedPixels, type FrameWindow } from './resample.ts';

export type { FrameWindow } from './resample.ts';

const { inputWidth: DW, inputHeight: DH } = MODEL_SPEC.detector;
const { cropSize: CS, cropScale } = MODEL_SPEC.classifier;

export interface Letterbox {
  /** detector pixels per frame pixel */
  scale: number;
  /** where the frame starts inside the detector input */
  padX: number;
  padY: number;
}

/** Size of a detector input: the spec's, or another multiple of 16 (the detector is fully convolutional). */
export interface InputSize {
  width: number;
  height: number;
}

const SPEC_INPUT: InputSize = { width: DW, height: DH };

/** `v` rounded up to the multiple of 16 a detector input's side must be. */
export const ceil16 = (v: number): number => Math.ceil(v / 16) * 16;

/** The frame's size inside the letterbox: at least a pixel a side, however long and thin the frame. */
function letterboxedSize(width: number, height: number, scale: number): [number, number] {
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

export function letterboxFor(width: number, height: number, into: InputSize = SPEC_INPUT): Letterbox {
  const scale = Math.min(into.width / width, into.height / height);
  const [w, h] = letterboxedSize(width, height, scale);
  return { scale, padX: Math.floor((into.width - w) / 2), padY: Math.floor((into.height - h) / 2) };
}

/** A point and size in the detector input (letterboxed by `box`, from `window` when given) in frame pixels. */
export function inputToFrame(box: Letterbox, p: { x: number; y: number; size: number }, window?: FrameWindow): { x: number; y: number; size: number } {
  return { x: (p.x - box.padX) / box.scale + (window?.x0 ?? 0), y: (p.y - box.padY) / box.scale + (window?.y0 ?? 0), size: p.size / box.scale };
}

function standardise(x: tf.Tensor, axes: number[]): tf.Tensor {
  const { mean, variance } = tf.moments(x, axes, true);
  return x.sub(mean).div(variance.sqrt().add(0.05));
}

/**
 * The frame's pixels (or `window` of them) → [1, DH, DW, 3] (or `into`'s size) normalised, letterboxed;
 * `box` maps the frame (the window) into the input.
 */
export function detectorInput(px: RgbPixels, into: InputSize = SPEC_INPUT, window?: FrameWindow): { input: tf.Tensor4D; box: Letterbox } {
  const seen = window ?? { x0: 0, y0: 0, width: px.width, height: px.height };
  const box = letterboxFor(seen.width, seen.height, into);
  const [w, h] = letterboxedSize(seen.width, seen.height, box.scale);
  const input = tf.tidy(() => {
    // resizing is linear: scaling the small image to 0..1 equals scaling the frame, for a fraction of the work
    const small = tf.tensor3d(resizedPixels(px, w, h, seen), [h, w, 3]).div(255);
    const norm = standardise(small, [0, 1, 2]);
    const padded = tf.pad(norm, [[box.padY, into.height - h - box.padY], [box.padX, into.width - w - box.padX], [0, 0]]);
    return padded.expandDims(0) as tf.Tensor4D;
  });
  return { input, box };
}

export interface CropRequest {
  x: number;
  y: number;
  /** top-face size in frame pixels */
  size: number;
}

/** RGB 0..1 crops [n, CS, CS, 3] → lightness and two colour contrasts, each scaled per crop (CLASSIFIER_INPUTS). */
function lightnessColour(rgb: tf.Tensor4D): tf.Tensor4D {
  const toLightnessColour = tf.tensor2d(
    [
      [1 / 3, 1, 0.5],
      [1 / 3, -1, 0.5],
      [1 / 3, 0, -1],
    ],
    [3, 3],
  );
  const [n] = rgb.shape;
  const lc = rgb.reshape([-1, 3]).matMul(toLightnessColour).reshape([n, CS, CS, 3]);
  const [lightness, colour] = tf.split(lc, [1, 2], 3);
  const centred = colour.sub(colour.mean([1, 2], true));
  const spread = centred.square().mean([1, 2, 3], true).sqrt();
  return tf.concat([standardise(lightness, [1, 2, 3]), centred.div(spread.add(0.05))], 3) as tf.Tensor4D;
}

/**
 * Square crops around each centre (side = cropScale × size) from the full-resolution frame, resized to
 * CS×CS and standardised per crop as `input` says: [n, CS, CS, 3].
 */
export function classifierCrops(px: RgbPixels, dice: CropRequest[], input: ClassifierInput = 'rgb'): tf.Tensor4D {
  const squares = dice.map((d) => {
    const side = d.size * cropScale;
    return { x0: d.x - side / 2, y0: d.y - side / 2, side };
  });
  // beyond the frame: mid-grey (0.5 once scaled to 0..1), as the models were trained
  const values = resampledSquares(px, squares, CS, 127.5);
  return tf.tidy(() => {
    const scaled = tf.tensor4d(values, [dice.length, CS, CS, 3]).div(255) as tf.Tensor4D;
    return input === 'rgb' ? (standardise(scaled, [1, 2, 3]) as tf.Tensor4D) : lightnessColour(scaled);
  });
}

export type ClassifierViews = 1 | 4 | 8;

/**
 * The crops seen in `views` orientations (a die's face reads the same turned by 90° or mirrored):
 * [n, CS, CS, 3] → [views × n, CS, CS, 3], view-major. 1 = as is; 4 = the four quarter turns;
 * 8 = those and their mirror images.
 */
export function orientedViews(crops: tf.Tensor4D, views: ClassifierViews): tf.Tensor4D {
  if (views === 1) return crops.clone();
  return tf.tidy(() => {
    const quarter = (x: tf.Tensor4D): tf.Tensor4D => tf.reverse(tf.transpose(x, [0, 2, 1, 3]), 2);
    const turns = [crops];
    for (let k = 1; k < 4; k++) turns.push(quarter(turns[k - 1]));
    const all = views === 8 ? [...turns, ...turns.map((t) => tf.reverse(t, 2) as tf.Tensor4D)] : turns;
    return tf.concat(all, 0);
  });
}

/** [views × n, C] view-major probabilities → [n, C], their mean. */
export function meanOverViews(probs: tf.Tensor2D, views: number): tf.Tensor2D {
  const [rows, classes] = probs.shape;
  return tf.tidy(() => probs.reshape([views, rows / views, classes]).mean(0) as tf.Tensor2D);
}
