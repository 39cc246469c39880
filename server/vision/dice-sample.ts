/**
 * A photo of the players' own dice, labelled by them on the dashboard, as the data set layout of
 * ../shared/docs/dice-data.md keeps it: each readable die a YOLO label line (class = face − 1, whole-die
 * box), each die a player marked cocked (no face up) a set-aside die (set-aside-dice.ts), so that
 * `npm run dice:eval -- --data FOLDER` scores the reader on them. The part of the frame the camera
 * read (its calibrated tray) is kept too (READ_REGIONS_FILE), so the evaluation reads that part only, as
 * the camera did. Pure: checking, converting and parsing only.
 */
import type { ReadRegion } from '../hardware/ports.ts';
import { checkRegion } from './region.ts';
import { parseImageMap, type SetAsideDie } from './set-aside-dice.ts';
import type { LabelledDie } from './yolo-dataset.ts';

/** The most dice one sample may label (the game's rolls use up to 12; a full tray with the kept dice up to 25). */
export const MAX_SAMPLE_DICE = 40;

/** One die as a player labelled it, in pixels of its frame (centre and size). */
export interface SampleDie {
  x: number;
  y: number;
  w: number;
  h: number;
  /** the face up, or 'cocked': no face is up (leaning on a die or the tray wall) */
  face: 1 | 2 | 3 | 4 | 5 | 6 | 'cocked';
}

export class SampleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SampleError';
  }
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The labelled dice of a width × height frame, checked: each a centre inside the frame and inside the
 * part of it the camera reads (`within`, when it reads only its tray: a die beyond it never counts in a
 * game, and the evaluation never looks there), a size of at least 2 px and at most the frame's, a face
 * 1..6 or 'cocked'. Throws SampleError naming the die and field.
 */
export function checkSampleDice(dice: unknown, width: number, height: number, within?: ReadRegion): SampleDie[] {
  if (!Array.isArray(dice)) throw new SampleError('dice must be a list');
  if (dice.length > MAX_SAMPLE_DICE) throw new SampleError(`at most ${MAX_SAMPLE_DICE} dice a photo (got ${dice.length})`);
  return dice.map((raw, i): SampleDie => {
    const where = `die ${i + 1}`;
    if (typeof raw !== 'object' || raw === null) throw new SampleError(`${where}: expected { x, y, w, h, face }`);
    const d = raw as Record<string, unknown>;
    for (const key of ['x', 'y', 'w', 'h'] as const) if (!isNumber(d[key])) throw new SampleError(`${where}: ${key} must be a number of pixels`);
    const [x, y, w, h] = [d.x, d.y, d.w, d.h] as number[];
    if (x < 0 || x > width || y < 0 || y > height) throw new SampleError(`${where}: its centre (${x}, ${y}) is outside the ${width}×${height} frame`);
    if (within && (x < within.x * width || x > (within.x + within.w) * width || y < within.y * height || y > (within.y + within.h) * height)) {
      throw new SampleError(`${where}: its centre (${x}, ${y}) lies outside the part of the photo the camera reads (its tray), where no die is ever counted`);
    }
    if (w < 2 || h < 2 || w > width || h > height) throw new SampleError(`${where}: its size ${w}×${h} px is not between 2 px and the frame's`);
    const face = d.face;
    if (face !== 'cocked' && !(Number.isInteger(face) && (face as number) >= 1 && (face as number) <= 6)) {
      throw new SampleError(`${where}: face must be 1 to 6, or "cocked" for a die with no face up (got ${JSON.stringify(face) ?? 'nothing'})`);
    }
    return { x, y, w, h, face: face as SampleDie['face'] };
  });
}

/** The sample's label lines and set-aside cocked dice, both as fractions of the frame. */
export function sampleLabels(dice: readonly SampleDie[], width: number, height: number): { labels: LabelledDie[]; cocked: SetAsideDie[] } {
  const labels: LabelledDie[] = [];
  const cocked: SetAsideDie[] = [];
  for (const d of dice) {
    const box = { x: d.x / width, y: d.y / height, w: d.w / width, h: d.h / height };
    if (d.face === 'cocked') cocked.push(box);
    else labels.push({ cx: box.x, cy: box.y, w: box.w, h: box.h, face: d.face });
  }
  return { labels, cocked };
}

/** The file of a folder of photos that lists, by image, the part of it the camera read. */
export const READ_REGIONS_FILE = 'read-regions.json';

/** Parses READ_REGIONS_FILE: { "image file": { x, y, w, h } } as fractions of the frame; throws a clear error on anything else. */
export function parseReadRegions(text: string, source: string): Map<string, ReadRegion> {
  return parseImageMap(text, source, '{ x, y, w, h }', (region, image) => {
    try {
      return checkRegion(region as ReadRegion);
    } catch (err) {
      throw new Error(`${source}: "${image}": ${(err as Error).message}`);
    }
  });
}
