/** Pure: a synthetic set's figures split by the look of each frame's dice (marbled, black, ...). */
import { scoreImages, type LabelBox, type PredictedDie } from './scoring.ts';

export interface LookFigures {
  look: string;
  frames: number;
  dice: number;
  right: number;
  faceAccuracy: number;
  extra: number;
}

/** The weakest look: the frames of every other look are also scored together, without it. */
const SET_APART = 'marbled';

/** Figures for each look (by name), then for every look but marbled together. */
export function scoresByLook(items: { look: string; labels: LabelBox[]; preds: PredictedDie[] }[]): LookFigures[] {
  const looks = [...new Set(items.map((i) => i.look))].sort();
  const rows: [string, typeof items][] = looks.map((look) => [look, items.filter((i) => i.look === look)]);
  const rest = items.filter((i) => i.look !== SET_APART);
  if (looks.includes(SET_APART) && rest.length > 0) rows.push([`every look but ${SET_APART}`, rest]);
  return rows.map(([look, group]) => {
    const s = scoreImages(group);
    return { look, frames: group.length, dice: s.dice, right: s.correct, faceAccuracy: s.faceAccuracy, extra: s.extra };
  });
}

export function formatByLook(rows: LookFigures[]): string {
  const width = Math.max(4, ...rows.map((r) => r.look.length));
  const head = `${'look'.padEnd(width)}  frames   dice  right   face  extra`;
  const lines = rows.map((r) => `${r.look.padEnd(width)}  ${String(r.frames).padStart(6)}  ${String(r.dice).padStart(5)}  ${String(r.right).padStart(5)}  ${(100 * r.faceAccuracy).toFixed(1).padStart(5)}%  ${String(r.extra).padStart(5)}`);
  return [head, ...lines].join('\n');
}
