/**
 * Teaching the model one table's own dice (`npm run model:adapt`): the labelled photos of a folder in
 * the layout of ../shared/docs/dice-data.md (the dashboard's Dice photos folder is one) are split into
 * photos to teach and photos kept back to check; the teaching photos become training frames, and their
 * dice classifier crops cut as the reader cuts them, beside crops of other dice.
 */
import type * as tf from '@tensorflow/tfjs';
import { readFile } from 'node:fs/promises';
import { decodeImage } from '../decode.ts';
import { inPixels, type SetAsideDie } from '../set-aside-dice.ts';
import { CLASS_COCKED, type ClassifierInput } from '../spec.ts';
import type { LabelledImage } from '../yolo-dataset.ts';
import type { Rng } from '../../synth/random.ts';
import type { FrameSample } from './samples.ts';
import { classifierExamples, detectedSizes, falsePeaks, negativeExamples, type ClassifierExample } from './train.ts';
import { READER_DEFAULTS } from '../reader.ts';

/**
 * Every `every`-th photo (the 1st, the `every`+1-th, …, in name order, so photos taken together fall on
 * both sides) is kept back to check; the rest teach. `every` 0: none kept back.
 */
export function splitForCheck<T>(photos: readonly T[], every: number): { teach: T[]; check: T[] } {
  if (!Number.isInteger(every) || every < 0 || every === 1) throw new RangeError(`every must be 0 or an integer of 2 or more, got ${every}`);
  const isCheck = (i: number) => every > 0 && i % every === 0;
  return { teach: photos.filter((_, i) => !isCheck(i)), check: photos.filter((_, i) => isCheck(i)) };
}

/** A box label's top-face size guess: the box holds the whole die, its sides too. */
const TOP_FACE_OF_BOX = 0.85;

/**
 * A labelled photo of a table's dice as a training frame: its labelled dice by face, and the dice marked
 * cocked (`cocked`, as fractions of the frame, as cocked.json holds them) as unreadable.
 */
export async function tablePhotoSample(photo: LabelledImage, cocked: readonly SetAsideDie[]): Promise<FrameSample> {
  const pixels = await decodeImage(await readFile(photo.path));
  const { width, height } = pixels;
  const faces = photo.labels.map((l) => ({ x: l.cx * width, y: l.cy * height, size: Math.max(l.w * width, l.h * height) * TOP_FACE_OF_BOX, cls: l.face - 1 }));
  const unreadable = inPixels(cocked, width, height).map((d) => ({ x: d.x, y: d.y, size: Math.max(d.w, d.h) * TOP_FACE_OF_BOX, cls: CLASS_COCKED }));
  return { pixels, dice: [...faces, ...unreadable], source: 'real' };
}

/** The frame with its dice's sizes unknown: a box label's size is a guess, so the detector is not taught it. */
export function withoutSizes(s: FrameSample): FrameSample {
  return { ...s, dice: s.dice.map((d) => ({ ...d, size: null })) };
}

/**
 * Classifier crops of one frame, `perDie` a die, cut at the sizes the detector finds its dice at (as the
 * reader cuts them; `fallbackSize` where it finds none), with background and off-centre "none" crops, and
 * the detector's peaks that no labelled or cocked die explains (a swirl, a token, a die's side) as "none",
 * `perPeak` crops each: a table photo's with as many as its dice, a frame of other dice's twice each, so
 * that a classifier taught one table's dice does not start taking round tokens for them.
 */
export function frameExamples(detector: tf.LayersModel, s: FrameSample, input: ClassifierInput, rng: Rng, perDie: number, perPeak: number, fallbackSize: number | number[]): ClassifierExample[] {
  const sizes = detectedSizes(detector, s, fallbackSize);
  const unexplained = falsePeaks(detector, s, READER_DEFAULTS.detectThreshold);
  return [...classifierExamples(s, input, sizes, rng, perDie, 3, 0.3), ...negativeExamples(s, input, unexplained, rng, perPeak)];
}

/** What a check compares, taught against untaught: faces right less extra dice, over the labelled dice. */
export function checkScore(e: { dice: number; faceAccuracy: number; extra: number }): number {
  return e.dice === 0 ? 0 : (Math.round(e.faceAccuracy * e.dice) - e.extra) / e.dice;
}
