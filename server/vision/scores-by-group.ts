/**
 * Pure: a set's figures split into groups of frames: by the look of a synthetic frame's dice (marbled,
 * black, ...), or by the folder a photo lies in (several tables' photo folders measured together).
 */
import { scoreImages, type LabelBox, type PredictedDie } from './scoring.ts';

export interface GroupFigures {
  group: string;
  frames: number;
  dice: number;
  right: number;
  faceAccuracy: number;
  extra: number;
}

/** The weakest look: the frames of every other look are also scored together, without it. */
export const MARBLED_APART = 'marbled';

/** Figures for each group (by name), then, when `setApart` names one of them, for every other group together. */
export function scoresByGroup(items: { group: string; labels: LabelBox[]; preds: PredictedDie[] }[], setApart: string | null = null): GroupFigures[] {
  const groups = [...new Set(items.map((i) => i.group))].sort();
  const rows: [string, typeof items][] = groups.map((group) => [group, items.filter((i) => i.group === group)]);
  const rest = items.filter((i) => i.group !== setApart);
  if (setApart !== null && groups.includes(setApart) && rest.length > 0) rows.push([`every look but ${setApart}`, rest]);
  return rows.map(([group, members]) => {
    const s = scoreImages(members);
    return { group, frames: members.length, dice: s.dice, right: s.correct, faceAccuracy: s.faceAccuracy, extra: s.extra };
  });
}

/** A table of the rows, headed by what the groups are (`look`, `folder`). */
export function formatByGroup(rows: GroupFigures[], heading: string): string {
  const width = Math.max(heading.length, ...rows.map((r) => r.group.length));
  const head = `${heading.padEnd(width)}  frames   dice  right   face  extra`;
  const lines = rows.map((r) => `${r.group.padEnd(width)}  ${String(r.frames).padStart(6)}  ${String(r.dice).padStart(5)}  ${String(r.right).padStart(5)}  ${(100 * r.faceAccuracy).toFixed(1).padStart(5)}%  ${String(r.extra).padStart(5)}`);
  return [head, ...lines].join('\n');
}

/** The folder of `relPath` directly under the data folder ('.' for a photo lying in it). */
export function topFolderOf(relPath: string): string {
  const parts = relPath.split(/[\\/]/);
  return parts.length > 1 ? parts[0] : '.';
}
