/** Reading a YOLO-layout dice folder (see ../shared/docs/dice-data.md): images with same-stem .txt labels. */
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { facesFromNames, parseClassesTxt, parseDataYamlNames } from './class-names.ts';

export interface LabelledDie {
  /** normalised 0..1 */
  cx: number;
  cy: number;
  w: number;
  h: number;
  face: number;
}

export interface LabelledImage {
  /** absolute path of the image */
  path: string;
  /** path relative to the data folder */
  relPath: string;
  labels: LabelledDie[];
}

const IMAGE_EXT = new Set(['.jpg', '.jpeg', '.png']);

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile() && IMAGE_EXT.has(extname(e.name).toLowerCase())) out.push(p);
  }
  return out;
}

/** Parse one label file's text; throws on malformed lines (with the line number). */
export function parseYoloLabels(text: string, where = 'labels'): LabelledDie[] {
  const dice: LabelledDie[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.trim();
    if (t === '') return;
    const parts = t.split(/\s+/).map(Number);
    if (parts.length !== 5 || parts.some((v) => !Number.isFinite(v))) throw new Error(`${where}:${i + 1}: expected "class cx cy w h", got "${t}"`);
    const [cls, cx, cy, w, h] = parts;
    if (!Number.isInteger(cls) || cls < 0 || cls > 5) throw new Error(`${where}:${i + 1}: class ${cls} is not 0..5`);
    dice.push({ cx, cy, w, h, face: cls + 1 });
  });
  return dice;
}

/** Label lines as `parseYoloLabels` reads them (class = face − 1, six decimals); empty for no dice. */
export function formatYoloLabels(labels: readonly LabelledDie[]): string {
  const lines = labels.map((l) => `${l.face - 1} ${l.cx.toFixed(6)} ${l.cy.toFixed(6)} ${l.w.toFixed(6)} ${l.h.toFixed(6)}`);
  return lines.length ? lines.join('\n') + '\n' : '';
}

/**
 * Where an image's labels may be: beside it with the same stem, or, in the layout YOLO tools export
 * (`images/` and `labels/` side by side), in the `labels` folder matching its nearest `images` folder.
 */
export function labelPathsFor(imagePath: string): string[] {
  const stem = imagePath.slice(0, -extname(imagePath).length);
  const paths = [`${stem}.txt`];
  const parts = stem.split(sep);
  const images = parts.lastIndexOf('images');
  if (images >= 0) paths.push([...parts.slice(0, images), 'labels', ...parts.slice(images + 1)].join(sep) + '.txt');
  return paths;
}

/** A names file of a data set whose names put the faces in another order than class k = face k+1. */
export interface ClassNamesFile {
  file: string;
  /** face of class 0..5 */
  faces: number[];
}

const NAMES_FILES = ['classes.txt', 'data.yaml', 'data.yml'];

/**
 * The class names that rule a label file: the first `classes.txt` or `data.yaml` found from its folder up
 * to the data folder's parent (where YOLO tools put `data.yaml`), read as faces; null where there is none,
 * or its names are not six different faces (class-names.ts), or they say class k = face k+1.
 */
async function classNamesFor(labelPath: string, root: string, cache: Map<string, ClassNamesFile | null | 'none'>): Promise<ClassNamesFile | null> {
  const top = dirname(resolve(root));
  for (let folder = dirname(resolve(labelPath)); ; folder = dirname(folder)) {
    if (!cache.has(folder)) cache.set(folder, await namesFileIn(folder));
    const here = cache.get(folder)!;
    if (here !== 'none') return here;
    if (folder === top || dirname(folder) === folder) return null;
  }
}

/** The first of `paths` that can be read, with its text; null when none can. */
async function readFirst(paths: string[]): Promise<{ path: string; text: string } | null> {
  for (const path of paths) {
    try {
      return { path, text: await readFile(path, 'utf8') };
    } catch {
      // not there: the next one
    }
  }
  return null;
}

/** What the names file of `folder` says ('none': it has none, so its parent's rules). */
async function namesFileIn(folder: string): Promise<ClassNamesFile | null | 'none'> {
  const found = await readFirst(NAMES_FILES.map((name) => join(folder, name)));
  if (!found) return 'none';
  const names = basename(found.path) === 'classes.txt' ? parseClassesTxt(found.text) : parseDataYamlNames(found.text);
  const faces = facesFromNames(names);
  return faces && faces.some((f, k) => f !== k + 1) ? { file: found.path, faces } : null;
}

/**
 * Every image under `dir` that has a label file (an empty label file means "no dice"), its labels read
 * by the data set's class names where those order the faces otherwise (`onClassNames` hears of each
 * such names file once).
 */
export async function readYoloFolder(dir: string, onClassNames?: (names: ClassNamesFile) => void): Promise<LabelledImage[]> {
  const images = await walk(dir);
  const out: LabelledImage[] = [];
  const cache = new Map<string, ClassNamesFile | null | 'none'>();
  const told = new Set<string>();
  for (const path of images) {
    const found = await readFirst(labelPathsFor(path));
    if (!found) continue;
    let labels = parseYoloLabels(found.text, found.path);
    const names = await classNamesFor(found.path, dir, cache);
    if (names) {
      labels = labels.map((l) => ({ ...l, face: names.faces[l.face - 1] }));
      if (!told.has(names.file)) {
        told.add(names.file);
        onClassNames?.(names);
      }
    }
    out.push({ path, relPath: relative(dir, path), labels });
  }
  return out;
}

/** The shared data folder: env FLIGHTDECK_SHARED, else ../shared next to the repository. */
export function sharedDir(repoRoot: string): string {
  return process.env.FLIGHTDECK_SHARED ?? join(repoRoot, '..', 'shared');
}
