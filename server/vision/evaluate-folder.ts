/**
 * Scoring a dice reader on a labelled folder (../shared/docs/dice-data.md), one image at a time: what
 * `npm run dice:eval` does for each image, and what the dashboard's Dice photos page asks of the
 * service for the players' own photos (`evaluateFolder`). A folder may say more than its labels: dice
 * set aside by kind (set-aside-dice.ts) and the part of each image the camera read (dice-sample.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DiceReader, ReadRegion } from '../hardware/ports.ts';
import type { SeenDie } from '../http/protocol.ts';
import { parseReadRegions, READ_REGIONS_FILE } from './dice-sample.ts';
import { VisionInputError } from './errors.ts';
import { scoreImages, type LabelBox, type Scores } from './scoring.ts';
import { addReads, inPixels, NO_READS, parseSetAsideDice, setAside, SET_ASIDE_FILES, type SetAsideDie, type SetAsideKind, type SetAsideReads } from './set-aside-dice.ts';
import { readYoloFolder, type LabelledImage } from './yolo-dataset.ts';

/** What a folder says beside its labels. */
export interface FolderExtras {
  /** the set-aside dice of each kind whose file the folder has */
  setAside: { kind: SetAsideKind; dice: Map<string, SetAsideDie[]> }[];
  /** by image: the part of it the camera read */
  regions: Map<string, ReadRegion>;
}

/** The folder and every folder under it, paths relative to `dir` ('' for itself). */
async function foldersUnder(dir: string, rel = ''): Promise<string[]> {
  const out = [rel];
  const entries = await readdir(join(dir, rel), { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) if (e.isDirectory()) out.push(...(await foldersUnder(dir, join(rel, e.name))));
  return out;
}

/**
 * Reads the set-aside files and read regions of a folder and of every folder under it (several tables'
 * photo folders unpacked side by side are measured as one set), each file's images named from `dir` as
 * the labelled images are; throws naming the file that is wrong.
 */
export async function readFolderExtras(dir: string): Promise<FolderExtras> {
  const setAside: FolderExtras['setAside'] = [];
  const regions = new Map<string, ReadRegion>();
  const kinds = Object.keys(SET_ASIDE_FILES) as SetAsideKind[];
  const fromDir = <T>(rel: string, found: Map<string, T>, into: Map<string, T>) => {
    for (const [image, value] of found) into.set(rel ? join(rel, image) : image, value);
  };
  for (const rel of await foldersUnder(dir)) {
    for (const kind of kinds) {
      const file = join(dir, rel, SET_ASIDE_FILES[kind].file);
      if (!existsSync(file)) continue;
      let entry = setAside.find((a) => a.kind === kind);
      if (!entry) setAside.push((entry = { kind, dice: new Map() }));
      fromDir(rel, parseSetAsideDice(await readFile(file, 'utf8'), file), entry.dice);
    }
    const regionsFile = join(dir, rel, READ_REGIONS_FILE);
    if (existsSync(regionsFile)) fromDir(rel, parseReadRegions(await readFile(regionsFile, 'utf8'), regionsFile), regions);
  }
  setAside.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
  return { setAside, regions };
}

/** An image's labels in pixels of a width × height frame (1 × 1 keeps them normalised: an image not decoded). */
function labelBoxes(img: LabelledImage, width: number, height: number): LabelBox[] {
  return img.labels.map((l) => ({ x: l.cx * width, y: l.cy * height, w: l.w * width, h: l.h * height, face: l.face }));
}

export interface ImageOutcome {
  /** the labels and the readings scored against them (the readings on set-aside dice taken out) */
  item: { relPath: string; labels: LabelBox[]; preds: SeenDie[] };
  /** how the image's set-aside dice were read, one entry per kind of `extras.setAside` */
  aside: SetAsideReads[];
  /** what the reader said (null: the image could not be read) */
  read: { width: number; height: number; dice: SeenDie[] } | null;
  /** why the image could not be read: its labelled dice count as missed */
  error: string | null;
  ms: number;
}

/** Reads one labelled image's bytes as the camera would (within its read region, where the folder names one) and scores it. */
export async function evaluateImage(reader: DiceReader, img: LabelledImage, bytes: Buffer, extras: FolderExtras): Promise<ImageOutcome> {
  const within = extras.regions.get(img.relPath);
  const t0 = performance.now();
  let read;
  try {
    read = await reader.read(bytes, within ? { within } : undefined);
  } catch (err) {
    if (!(err instanceof VisionInputError)) throw err;
    const aside = extras.setAside.map(({ dice }) => {
      const here = dice.get(img.relPath)?.length ?? 0;
      return { dice: here, notSure: 0, guessed: 0, notFound: here };
    });
    return { item: { relPath: img.relPath, labels: labelBoxes(img, 1, 1), preds: [] }, aside, read: null, error: err.message.replace(/\s*\n\s*/g, '; '), ms: 0 };
  }
  const ms = performance.now() - t0;
  const labels = labelBoxes(img, read.width, read.height);
  let preds = read.dice;
  const aside = extras.setAside.map(({ dice }) => {
    const r = setAside(labels, inPixels(dice.get(img.relPath) ?? [], read.width, read.height), preds);
    preds = r.preds;
    return r.reads;
  });
  return { item: { relPath: img.relPath, labels, preds }, aside, read, error: null, ms };
}

/** The figures of `scoreImages` (confusion rows: labelled face 1..6; columns: read as 1..6, "not sure", missed), and more. */
export interface FolderEvaluation extends Pick<Scores, 'images' | 'dice' | 'faceAccuracy' | 'recall' | 'precision' | 'wholeRollAccuracy' | 'confusion' | 'extra'> {
  /** labelled images in the folder (`images`: how many were read, the most recent by name, up to the limit) */
  labelledImages: number;
  /** readings of the set-aside dice, by kind */
  setAside: { kind: SetAsideKind; about: string; reads: SetAsideReads }[];
  /** images that could not be read, with why */
  unreadable: { image: string; reason: string }[];
  backend: string;
  /** the reader's dice model (DiceReader.modelVersion), null when it does not say */
  model: string | null;
  /** photos of the folder the model was taught, left out (no fair measure of it; `labelledImages` does not count them) */
  taughtLeftOut: number;
}

/** The images of `dir` that `reader`'s model was taught (none unless its taught folder is `dir`). */
export function taughtIn(reader: DiceReader, dir: string): Set<string> {
  return reader.taught && resolve(reader.taught.folder) === resolve(dir) ? new Set(reader.taught.photos) : new Set();
}

/**
 * Scores `reader` on the labelled images of `dir` (the last `limit` by name: the dashboard's photos are
 * named by capture time), but for those its model was taught (`taughtIn`). Throws a plain Error naming the problem for a folder without labelled images
 * or with a damaged file beside them.
 */
export async function evaluateFolder(reader: DiceReader, dir: string, limit = Infinity): Promise<FolderEvaluation> {
  const labelled = await readYoloFolder(dir);
  if (labelled.length === 0) throw new Error(`no labelled images in ${dir}`);
  const taught = taughtIn(reader, dir);
  const all = labelled.filter((img) => !taught.has(img.relPath));
  const evaluation = await evaluateImages(reader, all.slice(Math.max(0, all.length - limit)), await readFolderExtras(dir));
  return { ...evaluation, labelledImages: all.length, taughtLeftOut: labelled.length - all.length };
}

/** Scores `reader` on some labelled images of a folder (`extras`: what the folder says beside them); `labelledImages` counts these. */
export async function evaluateImages(reader: DiceReader, images: readonly LabelledImage[], extras: FolderExtras): Promise<FolderEvaluation> {
  const items: ImageOutcome['item'][] = [];
  let aside: SetAsideReads[] = extras.setAside.map(() => NO_READS);
  const unreadable: FolderEvaluation['unreadable'] = [];
  for (const img of images) {
    let bytes: Buffer;
    try {
      bytes = await readFile(img.path);
    } catch (err) {
      throw new Error(`${img.relPath}: cannot be read (${(err as Error).message})`);
    }
    const outcome = await evaluateImage(reader, img, bytes, extras);
    items.push(outcome.item);
    aside = aside.map((a, k) => addReads(a, outcome.aside[k]));
    if (outcome.error !== null) unreadable.push({ image: img.relPath, reason: outcome.error });
  }
  const { images: read, dice, faceAccuracy, recall, precision, wholeRollAccuracy, confusion, extra } = scoreImages(items);
  return {
    labelledImages: images.length,
    images: read,
    dice,
    faceAccuracy,
    recall,
    precision,
    wholeRollAccuracy,
    confusion,
    extra,
    setAside: extras.setAside.map(({ kind }, k) => ({ kind, about: SET_ASIDE_FILES[kind].about, reads: aside[k] })),
    unreadable,
    backend: reader.backend,
    model: reader.modelVersion ?? null,
    taughtLeftOut: 0,
  };
}
