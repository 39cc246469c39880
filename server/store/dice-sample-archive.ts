/**
 * The dice photos folder as one ZIP file to download and send on: the photos, their labels and the files
 * beside them, as `npm run dice:eval -- --data FOLDER` reads them, under one folder named for the day,
 * with a README.txt that says what they are. Photos gathered so at tables with other dice, cameras and
 * light are the real held-out set the dice model is measured on (models/README.md, "What would improve it").
 */
import { readFile } from 'node:fs/promises';
import { parseSetAsideDice } from '../vision/set-aside-dice.ts';
import { parseYoloLabels } from '../vision/yolo-dataset.ts';
import { utcStamp, type SampleSnapshot } from './dice-sample-store.ts';
import type { ZipEntry } from './zip-writer.ts';

export interface ArchiveAbout {
  /** when the archive is made */
  at: Date;
  /** the dice model the cameras read with then (null: vision off) */
  model: string | null;
}

/** `dice-photos-YYYYMMDD-HHMMSS` (UTC): the archive's file name and the folder inside it. */
export function archiveFolderName(at: Date): string {
  return `dice-photos-${utcStamp(at.getTime()).slice(0, -'-mmm'.length)}`;
}

/** How many dice the labels hold, and how many more were marked cocked (unlabelled ones not counted). */
function diceCounts(snapshot: SampleSnapshot): { dice: number; cocked: number } {
  let dice = 0;
  for (const p of snapshot.photos) dice += parseYoloLabels(p.labels, p.image).length;
  const cockedFile = snapshot.beside.find((b) => b.name === 'cocked.json');
  let cocked = 0;
  if (cockedFile) {
    const images = new Set(snapshot.photos.map((p) => p.image));
    for (const [image, list] of parseSetAsideDice(cockedFile.text, cockedFile.name)) if (images.has(image)) cocked += list.length;
  }
  return { dice, cocked };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export function archiveReadme(snapshot: SampleSnapshot, folder: string, about: ArchiveAbout): string {
  const { dice, cocked } = diceCounts(snapshot);
  const times = snapshot.photos.map((p) => p.modified.getTime()).sort((a, b) => a - b);
  const span = times.length ? `, saved ${day(new Date(times[0]))} to ${day(new Date(times.at(-1)!))}` : '';
  return [
    `Flight Deck: photos of a table's own dice, labelled by its players`,
    ``,
    `${snapshot.photos.length} photos, ${dice} dice labelled with their faces and ${cocked} marked cocked${span}.`,
    `Archived ${about.at.toISOString()}; the camera read them with the dice model ${about.model ?? '(none: the dice reader was off)'}.`,
    ``,
    `Layout (the YOLO layout Flight Deck's dice:eval reads): each photo beside a .txt of its dice, one line`,
    `a die, "class cx cy w h" normalised to the photo's size, class k meaning face k+1, the box around the`,
    `whole die. classes.txt names the classes; cocked.json lists the dice a player marked cocked (leaning, no`,
    `face up) and read-regions.json the part of each photo the camera read (its tray), both as fractions of`,
    `the photo's size too.`,
    ``,
    `To measure a dice model on them, unpack this archive and run, in Flight Deck:`,
    `  npm run dice:eval -- --data ${folder}`,
    `Folders from several tables unpacked side by side are measured together: give --data the folder holding them.`,
    ``,
    `These are photos from a table's camera: look through them before you share them (a hand, a face or a`,
    `card may show), and say under what terms they may be used.`,
    ``,
  ].join('\n');
}

/**
 * The archive's folder name and entries: README.txt, then each photo with its labels, then the files beside
 * them. The README is written now, so damaged labels throw here, before a byte is sent.
 */
export function sampleArchive(snapshot: SampleSnapshot, about: ArchiveAbout): { folder: string; entries: AsyncGenerator<ZipEntry> } {
  const folder = archiveFolderName(about.at);
  const readme = archiveReadme(snapshot, folder, about);
  return { folder, entries: entries(snapshot, folder, readme, about.at) };
}

async function* entries(snapshot: SampleSnapshot, folder: string, readme: string, at: Date): AsyncGenerator<ZipEntry> {
  yield { name: `${folder}/README.txt`, data: Buffer.from(readme), modified: at };
  for (const p of snapshot.photos) {
    let data: Buffer;
    try {
      data = await readFile(p.path);
    } catch (err) {
      // taken out of the folder since the snapshot: left out with its labels
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    yield { name: `${folder}/${p.image}`, data, modified: p.modified };
    yield { name: `${folder}/${p.image.replace(/\.[^.]+$/, '.txt')}`, data: Buffer.from(p.labels), modified: p.modified };
  }
  for (const b of snapshot.beside) yield { name: `${folder}/${b.name}`, data: Buffer.from(b.text), modified: b.modified };
}
