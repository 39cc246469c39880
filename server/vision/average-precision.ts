/**
 * Average precision per face and its mean (mAP), the figure published YOLO dice readers report, computed
 * on the reader's own output. Pure. A prediction of face f is a hit when its centre lies within the match
 * radius of a labelled die of face f (scoring.ts: the same radius as every other figure here, not box
 * overlap: the real photos' boxes surround the pips, not the die) that no higher-scored prediction took;
 * otherwise, or when that die was taken already, it is a false detection. "Not sure" dice (face null)
 * name no face and count for none. AP is the area under the precision envelope (every-point
 * interpolation, as Pascal VOC since 2010). The reader reports only the dice it decides on, so the curve
 * ends where its thresholds cut it: a reader scored on all its candidates, as YOLO evaluations are, can
 * only gain recall at the end of its curve.
 */
import { matchRadius, type LabelBox } from './scoring.ts';

export interface ScoredDie {
  x: number;
  y: number;
  face: number | null;
  score: number;
}

export interface AveragePrecision {
  /** AP of faces 1..6; null for a face no labelled die shows */
  byFace: (number | null)[];
  /** mean of the faces labelled dice show */
  mean: number;
}

/** Every-point interpolated AP of hits (true/false) in descending score order, out of `labelled` dice. */
export function areaUnderPrecision(hits: boolean[], labelled: number): number {
  if (labelled === 0) throw new Error('average precision needs at least one labelled die');
  const precision: number[] = [];
  const recall: number[] = [];
  let tp = 0;
  hits.forEach((hit, i) => {
    if (hit) tp++;
    precision.push(tp / (i + 1));
    recall.push(tp / labelled);
  });
  for (let i = precision.length - 2; i >= 0; i--) precision[i] = Math.max(precision[i], precision[i + 1]);
  let area = 0;
  let lastRecall = 0;
  recall.forEach((r, i) => {
    area += (r - lastRecall) * precision[i];
    lastRecall = r;
  });
  return area;
}

export function averagePrecision(items: { labels: LabelBox[]; preds: ScoredDie[] }[]): AveragePrecision {
  const byFace = [1, 2, 3, 4, 5, 6].map((face) => {
    const labelled = items.reduce((n, item) => n + item.labels.filter((l) => l.face === face).length, 0);
    if (labelled === 0) return null;
    const ranked = items
      .flatMap((item, image) => item.preds.filter((p) => p.face === face).map((p) => ({ p, image })))
      .sort((a, b) => b.p.score - a.p.score);
    const taken = items.map((item) => item.labels.map(() => false));
    const hits = ranked.map(({ p, image }) => {
      let nearest = -1;
      let nearestDistance = Infinity;
      items[image].labels.forEach((l, li) => {
        const d = Math.hypot(p.x - l.x, p.y - l.y);
        if (l.face === face && d <= matchRadius(l) && d < nearestDistance) [nearest, nearestDistance] = [li, d];
      });
      if (nearest < 0 || taken[image][nearest]) return false;
      taken[image][nearest] = true;
      return true;
    });
    return areaUnderPrecision(hits, labelled);
  });
  const present = byFace.filter((ap): ap is number => ap !== null);
  return { byFace, mean: present.length === 0 ? 0 : present.reduce((a, b) => a + b, 0) / present.length };
}

export function formatAveragePrecision(ap: AveragePrecision): string {
  const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;
  const faces = ap.byFace.map((v, i) => `${i + 1}: ${v === null ? '-' : pct(v)}`).join(', ');
  return `mAP ${pct(ap.mean)} (AP by face ${faces}; a die counts when found within the match radius with its face, not by box overlap)`;
}
