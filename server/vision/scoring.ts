/**
 * Pure scoring of dice readings against labels (../shared/docs/dice-data.md):
 * greedy matching by distance within max(25 px, 0.6 × max(w, h)), face accuracy, recall, precision,
 * whole-roll accuracy and a per-face confusion matrix.
 */

export interface LabelBox {
  /** centre, width, height in pixels */
  x: number;
  y: number;
  w: number;
  h: number;
  face: number;
}

export interface PredictedDie {
  x: number;
  y: number;
  /** 1..6, or null for "not sure" */
  face: number | null;
}

export interface ImageMatch {
  /** [label index, prediction index] pairs */
  pairs: [number, number][];
  unmatchedLabels: number[];
  unmatchedPredictions: number[];
}

export const MIN_MATCH_RADIUS = 25;
export const MATCH_FACTOR = 0.6;

export function matchRadius(l: LabelBox): number {
  return Math.max(MIN_MATCH_RADIUS, MATCH_FACTOR * Math.max(l.w, l.h));
}

export function matchImage(labels: LabelBox[], preds: PredictedDie[]): ImageMatch {
  const candidates: { li: number; pi: number; d: number }[] = [];
  labels.forEach((l, li) => {
    const r = matchRadius(l);
    preds.forEach((p, pi) => {
      const d = Math.hypot(p.x - l.x, p.y - l.y);
      if (d <= r) candidates.push({ li, pi, d });
    });
  });
  candidates.sort((a, b) => a.d - b.d || a.li - b.li || a.pi - b.pi);
  const usedL = new Set<number>();
  const usedP = new Set<number>();
  const pairs: [number, number][] = [];
  for (const c of candidates) {
    if (usedL.has(c.li) || usedP.has(c.pi)) continue;
    usedL.add(c.li);
    usedP.add(c.pi);
    pairs.push([c.li, c.pi]);
  }
  return {
    pairs,
    unmatchedLabels: labels.map((_, i) => i).filter((i) => !usedL.has(i)),
    unmatchedPredictions: preds.map((_, i) => i).filter((i) => !usedP.has(i)),
  };
}

export interface Scores {
  images: number;
  dice: number;
  found: number;
  correct: number;
  predictions: number;
  matchedPredictions: number;
  faceAccuracy: number;
  recall: number;
  precision: number;
  wholeRollAccuracy: number;
  /** confusion[labelFace-1][col]: col 0..5 = predicted face 1..6, 6 = found but unreadable (null), 7 = missed */
  confusion: number[][];
  /** predictions that matched no label */
  extra: number;
}

export function scoreImages(items: { labels: LabelBox[]; preds: PredictedDie[] }[]): Scores {
  const confusion = Array.from({ length: 6 }, () => new Array<number>(8).fill(0));
  let dice = 0;
  let found = 0;
  let correct = 0;
  let predictions = 0;
  let matched = 0;
  let perfect = 0;
  for (const { labels, preds } of items) {
    const m = matchImage(labels, preds);
    dice += labels.length;
    predictions += preds.length;
    found += m.pairs.length;
    matched += m.pairs.length;
    let imageCorrect = 0;
    for (const [li, pi] of m.pairs) {
      const lf = labels[li].face;
      const pf = preds[pi].face;
      if (pf === lf) {
        correct++;
        imageCorrect++;
      }
      confusion[lf - 1][pf === null ? 6 : pf - 1]++;
    }
    for (const li of m.unmatchedLabels) confusion[labels[li].face - 1][7]++;
    if (imageCorrect === labels.length && m.unmatchedPredictions.length === 0) perfect++;
  }
  const ratio = (a: number, b: number, empty: number): number => (b === 0 ? empty : a / b);
  return {
    images: items.length,
    dice,
    found,
    correct,
    predictions,
    matchedPredictions: matched,
    faceAccuracy: ratio(correct, dice, 1),
    recall: ratio(found, dice, 1),
    precision: ratio(matched, predictions, 1),
    wholeRollAccuracy: ratio(perfect, items.length, 1),
    confusion,
    extra: predictions - matched,
  };
}

/** The confusion matrix as text: rows = labelled face, columns = predicted face, "?" unreadable, "miss". */
export function formatConfusion(confusion: number[][]): string {
  const head = ['label\\pred', '1', '2', '3', '4', '5', '6', '?', 'miss'];
  const rows = confusion.map((r, i) => [String(i + 1), ...r.map(String)]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]): string => cells.map((v, c) => v.padStart(widths[c])).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
