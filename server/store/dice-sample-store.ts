/**
 * The folder of photos of the players' own dice with their labels (server/vision/dice-sample.ts), laid
 * out as ../shared/docs/dice-data.md says, so `npm run dice:eval -- --data FOLDER` measures the reader
 * on them: `<table>-<capture time>.jpg` beside its `.txt` labels, `classes.txt`, `cocked.json` for the
 * dice marked cocked, and `read-regions.json` for the part of each photo the camera read. Saving a photo
 * again replaces its labels; removing it takes it out. Writes are queued one at a time; each file is
 * written whole (temporary file, then renamed), the labels last (and removed first), so an interrupted
 * save leaves no photo that the evaluation would read with missing labels.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame, SettledRead } from '../hardware/ports.ts';
import { parseReadRegions, READ_REGIONS_FILE, sampleLabels, type SampleDie } from '../vision/dice-sample.ts';
import { parseSetAsideDice, SET_ASIDE_FILES } from '../vision/set-aside-dice.ts';
import { formatYoloLabels } from '../vision/yolo-dataset.ts';

/** The photo and what the camera knew of it: its size and the part of it read. */
export type PhotoToSave = Omit<SettledRead, 'dice'>;

export interface SavedSample {
  /** the photo's file name in the folder */
  image: string;
  dice: number;
  cocked: number;
  /** the photo had been saved before: its labels were replaced */
  replaced: boolean;
  /** labelled photos in the folder now */
  saved: number;
}

const EXTENSION: Record<Frame['mime'], string> = { 'image/jpeg': '.jpg', 'image/png': '.png' };
const CLASS_NAMES = 'One\nTwo\nThree\nFour\nFive\nSix\n';
const COCKED_FILE = SET_ASIDE_FILES.cocked.file;

/** `YYYYMMDD-HHMMSS-mmm` of a time (UTC), sortable and safe in any file system. */
export function utcStamp(at: number): string {
  const iso = new Date(at).toISOString(); // 2026-12-02T06:15:04.123Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}`;
}

/** `<table>-YYYYMMDD-HHMMSS-mmm` of the capture time (UTC). */
export function sampleStem(tableId: string, at: number): string {
  return `${tableId}-${utcStamp(at)}`;
}

/** A saved frame's photo and label file names. */
function fileNames(tableId: string, frame: Frame): { image: string; labels: string } {
  const stem = sampleStem(tableId, frame.at);
  return { image: stem + EXTENSION[frame.mime], labels: `${stem}.txt` };
}

async function writeWhole(path: string, data: string | Buffer): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

const isLabelFile = (name: string) => name.endsWith('.txt') && name !== 'classes.txt';

/** The folder at one moment, for an archive: each labelled photo with its labels, and the files beside them. */
export interface SampleSnapshot {
  photos: { image: string; path: string; labels: string; modified: Date }[];
  /** the folder's other files as they were (classes.txt, cocked.json, read-regions.json), by name */
  beside: { name: string; text: string; modified: Date }[];
}

const BESIDE_FILES = ['classes.txt', COCKED_FILE, READ_REGIONS_FILE];

export class DiceSampleStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly dir: string) {}

  /** Saves a frame with its labelled dice (checked by checkSampleDice against the frame's size). */
  save(tableId: string, read: PhotoToSave, dice: readonly SampleDie[]): Promise<SavedSample> {
    return this.queued(() => this.write(tableId, read, dice));
  }

  /** Takes a saved photo out of the folder again: its labels first, then the photo and its entries beside them. */
  remove(tableId: string, frame: Frame): Promise<{ removed: boolean; saved: number }> {
    return this.queued(() => this.delete(tableId, frame));
  }

  /**
   * The labelled photos and the files beside them, taken between two writes (no photo half saved): the labels
   * and those files are read now, the photos' own bytes later from `path` (a photo is written once, never changed).
   */
  snapshot(): Promise<SampleSnapshot> {
    return this.queued(() => this.takeSnapshot());
  }

  /** Runs `job` after every write queued before it (a failed one included). */
  private queued<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** How many labelled photos the folder holds (0 when it does not exist yet). */
  async count(): Promise<number> {
    try {
      return (await readdir(this.dir)).filter(isLabelFile).length;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
  }

  private async takeSnapshot(): Promise<SampleSnapshot> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { photos: [], beside: [] };
      throw err;
    }
    const present = new Set(names);
    const photos: SampleSnapshot['photos'] = [];
    for (const labelFile of names.filter(isLabelFile)) {
      const stem = labelFile.slice(0, -'.txt'.length);
      const image = Object.values(EXTENSION).map((ext) => stem + ext).find((n) => present.has(n));
      if (!image) continue;
      const path = join(this.dir, image);
      photos.push({ image, path, labels: await readFile(join(this.dir, labelFile), 'utf8'), modified: (await stat(path)).mtime });
    }
    const beside: SampleSnapshot['beside'] = [];
    for (const name of BESIDE_FILES.filter((n) => present.has(n))) {
      const path = join(this.dir, name);
      beside.push({ name, text: await readFile(path, 'utf8'), modified: (await stat(path)).mtime });
    }
    return { photos, beside };
  }

  private async write(tableId: string, { frame, width, height, within }: PhotoToSave, dice: readonly SampleDie[]): Promise<SavedSample> {
    await mkdir(this.dir, { recursive: true });
    const { image, labels: labelFile } = fileNames(tableId, frame);
    const labelPath = join(this.dir, labelFile);
    const replaced = await readFile(labelPath).then(() => true, () => false);
    const { labels, cocked } = sampleLabels(dice, width, height);
    const classes = join(this.dir, 'classes.txt');
    if (!(await readFile(classes).then(() => true, () => false))) await writeWhole(classes, CLASS_NAMES);
    await writeWhole(join(this.dir, image), frame.data);
    await this.updateEntry(COCKED_FILE, image, cocked.length > 0 ? cocked : null, parseSetAsideDice);
    await this.updateEntry(READ_REGIONS_FILE, image, within ?? null, parseReadRegions);
    await writeWhole(labelPath, formatYoloLabels(labels));
    return { image, dice: labels.length, cocked: cocked.length, replaced, saved: await this.count() };
  }

  private async delete(tableId: string, frame: Frame): Promise<{ removed: boolean; saved: number }> {
    const { image, labels } = fileNames(tableId, frame);
    const gone = (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return false;
    };
    const removed = await unlink(join(this.dir, labels)).then(() => true, gone);
    await unlink(join(this.dir, image)).catch(gone);
    if (existsSync(this.dir)) {
      await this.updateEntry(COCKED_FILE, image, null, parseSetAsideDice);
      await this.updateEntry(READ_REGIONS_FILE, image, null, parseReadRegions);
    }
    return { removed, saved: await this.count() };
  }

  /** Sets (or, with null, removes) one image's entry of a JSON file of image name → value, written whole. */
  private async updateEntry<T>(file: string, image: string, value: T | null, parse: (text: string, source: string) => Map<string, T>): Promise<void> {
    const path = join(this.dir, file);
    let text: string | null = null;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // a damaged file is never overwritten: what it holds is the players' work
    const all = text === null ? new Map<string, T>() : parse(text, path);
    if (value !== null) all.set(image, value);
    else if (!all.delete(image)) return;
    await writeWhole(path, JSON.stringify(Object.fromEntries(all), null, 1) + '\n');
  }
}
