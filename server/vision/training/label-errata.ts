/**
 * Labels of the real training photos (../shared/datasets/webcam-white-dice/train) that a look at the photo
 * shows to be wrong. Training leaves them out; evaluation keeps every label, as dice-data.md's contract asks.
 */
import type { LabelledImage } from '../yolo-dataset.ts';

export interface LabelErratum {
  /** the image's path relative to the data folder */
  image: string;
  /** the labelled face and the label box's normalised centre, as in the label file */
  face: number;
  cx: number;
  cy: number;
  /** what the photo shows instead, and when it was looked at */
  seen: string;
}

export const TRAIN_LABEL_ERRATA: readonly LabelErratum[] = [
  {
    image: 'five_1.jpg',
    face: 1,
    cx: 0.725,
    cy: 0.434375,
    seen: 'bare wood: the only die in the photo is the labelled 5 beside it (looked at 2026-11-26); a detector trained on it learns to report 1s on wood',
  },
];

const SAME = 1e-4;

function matches(e: LabelErratum, image: LabelledImage, label: LabelledImage['labels'][number]): boolean {
  return image.relPath === e.image && label.face === e.face && Math.abs(label.cx - e.cx) < SAME && Math.abs(label.cy - e.cy) < SAME;
}

/** The images with the errata's labels taken out, and how many labels that took out. */
export function withoutErrata(
  images: readonly LabelledImage[],
  errata: readonly LabelErratum[] = TRAIN_LABEL_ERRATA,
): { images: LabelledImage[]; leftOut: number } {
  let leftOut = 0;
  const kept = images.map((image) => {
    const labels = image.labels.filter((label) => !errata.some((e) => matches(e, image, label)));
    leftOut += image.labels.length - labels.length;
    return labels.length === image.labels.length ? image : { ...image, labels };
  });
  return { images: kept, leftOut };
}
