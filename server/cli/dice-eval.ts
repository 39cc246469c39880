/**
 * `npm run dice:eval -- --data DIR [--predictions FILE.json]`
 * `npm run dice:eval -- --synthetic N [--seed S] [--close-camera | --crowded | --occluded | --large-frame | --leaning | --table COLOUR] [--out DIR] [--predictions FILE.json]`
 * Runs the shipped dice reader (the server's code path and backend choice) over a YOLO-layout folder
 * (each image's labels beside it, or in the `labels/` folder beside its `images/` folder, as YOLO tools export;
 * class k is face k+1 unless a `classes.txt` or `data.yaml` names the classes as faces in another order),
 * prints the per-face confusion matrix, the mean average precision over the six faces (the figure
 * published YOLO dice readers report; server/vision/average-precision.ts) and, as the last line, one JSON
 * object of figures (contract: ../shared/docs/dice-data.md). --synthetic first writes a synthetic test set of coloured and
 * small dice (default folder .cache/synthetic-test-S-N, git-ignored) and evaluates it; with --close-camera,
 * a set of dice 30–120 px under a close webcam whose sides show (.cache/synthetic-close-S-N); with --crowded,
 * the coloured set's dice 13–25 a frame (.cache/synthetic-crowded-S-N); with --occluded, the coloured set's
 * kind of frames with a fingertip, pencil or card's corner over dice (.cache/synthetic-occluded-S-N); with
 * --large-frame, the coloured set's dice, 1–25 a frame, 20–70 px in 1280×720, 1280×960 and 1920×1080 frames
 * (.cache/synthetic-large-S-N); with --leaning, the coloured set's kind of frames with one to three dice
 * more leaning on a die or against the tray wall (.cache/synthetic-leaning-S-N); with --table COLOUR (marbled,
 * translucent, red, …), one table's own dice: the coloured set's kind of frames, every die in the one look of
 * that colour the seed draws (.cache/synthetic-table-COLOUR-S-N; `npm run model:adapt` teaches such a set). A folder with a
 * `hidden.json` (an occluded set's dice with a pip hidden) or `leaning-on-dice.json` and
 * `leaning-on-wall.json` (a leaning set's leaning dice), dice not labelled, has the readings on those dice
 * set aside from the figures and counted on a line of their own: "not sure", read with a face, not found
 * (server/vision/set-aside-dice.ts); so has a folder of the players' own photos (the dashboard's Dice photos
 * page) with a `cocked.json`, the dice they marked cocked; and such a folder's `read-regions.json` names the
 * part of each photo the camera read (its calibrated tray), which is then the part read here, as the camera did. --by-look (with --synthetic) also prints the figures by the look of each frame's dice (drawn again
 * from its scene seed), marbled apart.
 * --failures DIR saves up to 60 annotated PNG crops of wrong, unreadable, missed and extra dice.
 * --model DIR evaluates another model folder (default models/); --detect-threshold, --face-threshold and
 * --none-threshold override the reader's decision thresholds, --peak-distance the closest two dice's
 * centres may be (× size), --views the number of orientations a doubtful crop is classified in again
 * (1, 4, 8) and --review-below the top probability under which a crop is doubtful (1: every crop),
 * --edge-threshold how far (× size) a die may reach out of the frame and still be read: for choosing
 * them on a tuning set; --side-face how close (× size) to a read die a "not sure" one is dropped as its side;
 * --faint-threshold the score under which a cocked, blurred or "not sure" die is not reported;
 * --cocked-ratio how many times the six faces' total probability the unreadable-pose class must exceed for
 * a die to be called cocked (1: whichever is more likely);
 * --closer-look PX the size in detector pixels a doubtful die is zoomed to and found again (0: off).
 * --fine-look on|off: whether a frame larger than 640×480 is looked at again at a 640×480 frame's scale
 * (server/vision/fine-look.ts; default on).
 * --camera NAME reads every image as another camera would have seen it (smaller or larger, stretched square, in warm, cool or dim
 * light, out of focus, or badly compressed), or recoloured into dice of another colour (negative, red,
 * blue) or into marbled dice (marbled: swirls drawn on each labelled die, as `model:train
 * --marbled-recolours` draws them; server/vision/camera-variation.ts), its labels unchanged.
 * An image that cannot be decoded is named on stderr and in the summary, its labelled dice count as missed,
 * and its predictions entry carries `error` with no dice; the run goes on.
 */
import { parseArgs } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDiceReader } from '../vision/reader.ts';
import { readYoloFolder } from '../vision/yolo-dataset.ts';
import { formatConfusion, median, scoreImages, type LabelBox } from '../vision/scoring.ts';
import { averagePrecision, formatAveragePrecision } from '../vision/average-precision.ts';
import type { SeenDie } from '../http/protocol.ts';
import { syntheticSetLook, syntheticSetName, writeSyntheticSet } from '../synth/test-set.ts';
import { evaluateImage, readFolderExtras, taughtIn, type FolderExtras } from '../vision/evaluate-folder.ts';
import { addReads, formatReads, NO_READS, type SetAsideReads } from '../vision/set-aside-dice.ts';
import { formatByGroup, MARBLED_APART, scoresByGroup, topFolderOf } from '../vision/scores-by-group.ts';
import { progressBar } from './progress.ts';
import { refuseKindWithoutSynthetic, syntheticKindOf, tableColourOf } from './synthetic-kind.ts';
import { findFailures, saveFailureCrops } from '../vision/failure-crops.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';
import { VisionInputError, VisionModelError } from '../vision/errors.ts';
import { CAMERA_VARIATIONS, isCameraVariation, varyPhoto } from '../vision/camera-variation.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `usage: npm run dice:eval -- --data DIR [--predictions FILE.json] [--failures DIR] [--model DIR]
       npm run dice:eval -- --synthetic N [--seed S] [--close-camera | --crowded | --occluded | --large-frame | --leaning | --table COLOUR] [--by-look] [--out DIR] [--predictions FILE.json]
  camera: [--camera half|third|double|square|warm|tungsten|cool|candle|skylight|negative|red|blue|marbled|dim|soft|jpeg]
  tuning: [--detect-threshold P] [--face-threshold P] [--none-threshold P] [--edge-threshold X] [--side-face X]
          [--faint-threshold P] [--cocked-ratio X] [--peak-distance X] [--views 1|4|8] [--review-below P] [--closer-look PX] [--fine-look on|off]
(each flag is explained at the top of server/cli/dice-eval.ts)`;

/** A synthetic frame's look as the figures name it: 'any' draws each die's look on its own. */
function lookName(look: string): string {
  return look === 'any' ? 'mixed' : look;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      predictions: { type: 'string' },
      synthetic: { type: 'string' },
      'close-camera': { type: 'boolean', default: false },
      crowded: { type: 'boolean', default: false },
      occluded: { type: 'boolean', default: false },
      'large-frame': { type: 'boolean', default: false },
      leaning: { type: 'boolean', default: false },
      table: { type: 'string' },
      'by-look': { type: 'boolean', default: false },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      failures: { type: 'string' },
      model: { type: 'string' },
      'detect-threshold': { type: 'string' },
      'face-threshold': { type: 'string' },
      'none-threshold': { type: 'string' },
      'edge-threshold': { type: 'string' },
      'side-face': { type: 'string' },
      'faint-threshold': { type: 'string' },
      'cocked-ratio': { type: 'string' },
      views: { type: 'string' },
      'peak-distance': { type: 'string' },
      'review-below': { type: 'string' },
      'closer-look': { type: 'string' },
      'fine-look': { type: 'string' },
      camera: { type: 'string' },
    },
  });
  const unit = (name: string): number | undefined => {
    const v = values[name as 'detect-threshold'];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--${name} must be a number from 0 to 1, got "${v}"`);
    return n;
  };
  const face = unit('face-threshold');
  const none = unit('none-threshold');
  const edge = unit('edge-threshold');
  const sideFace = unit('side-face');
  const faint = unit('faint-threshold');
  const cocked = unit('cocked-ratio');
  const detectThreshold = unit('detect-threshold');
  const minPeakDistance = unit('peak-distance');
  const reviewBelow = unit('review-below');
  const closerLook = values['closer-look'] === undefined ? undefined : Number(values['closer-look']);
  if (closerLook !== undefined && !(Number.isFinite(closerLook) && closerLook >= 0 && closerLook <= 320)) {
    throw new UsageError(`--closer-look must be a size in detector pixels from 0 (off) to 320, got "${values['closer-look']}"`);
  }
  const fineLookFlag = values['fine-look'];
  if (fineLookFlag !== undefined && fineLookFlag !== 'on' && fineLookFlag !== 'off') throw new UsageError(`--fine-look must be on or off, got "${fineLookFlag}"`);
  const fineLook = fineLookFlag === undefined ? undefined : fineLookFlag === 'on';
  const camera = values.camera;
  if (camera !== undefined && !isCameraVariation(camera)) {
    throw new UsageError(`--camera must be one of ${Object.keys(CAMERA_VARIATIONS).join(', ')}, got "${camera}"`);
  }
  const views = values.views === undefined ? undefined : Number(values.views);
  if (views !== undefined && views !== 1 && views !== 4 && views !== 8) throw new UsageError(`--views must be 1, 4 or 8, got "${values.views}"`);
  let dataDir: string;
  let lookOf: ((relPath: string) => string | undefined) | undefined;
  if (values.synthetic !== undefined) {
    const n = Number(values.synthetic);
    const seed = Number(values.seed);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--synthetic needs a positive image count, got "${values.synthetic}"`);
    if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed must be a non-negative integer, got "${values.seed}"`);
    const kind = syntheticKindOf(values);
    const tableColour = tableColourOf(values);
    const folder = { 'close-camera': 'close', crowded: 'crowded', coloured: 'test', occluded: 'occluded', 'large-frame': 'large', leaning: 'leaning', table: `table-${tableColour}` }[kind];
    dataDir = resolve(values.out ?? values.data ?? `${repoRoot}/.cache/synthetic-${folder}-${seed}-${n}`);
    const bar = progressBar();
    await writeSyntheticSet(dataDir, n, seed, (i) => bar('render', i + 1, n), kind, tableColour);
    process.stderr.write(`synthetic test set written to ${dataDir}\n`);
    if (values['by-look']) {
      const looks = new Map(Array.from({ length: n }, (_, i) => [`${syntheticSetName(i)}.jpg`, lookName(syntheticSetLook(i, seed, kind, tableColour))]));
      lookOf = (relPath) => looks.get(relPath);
    }
  } else {
    refuseKindWithoutSynthetic(values);
    if (values['by-look']) throw new UsageError('--by-look goes with --synthetic N: a frame\'s look is drawn again from its scene seed');
    if (!values.data) throw new UsageError('--data DIR or --synthetic N is needed');
    dataDir = resolve(values.data);
  }
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) throw new UsageError(`--data ${dataDir} is not a folder`);
  const labelled = await readYoloFolder(dataDir, ({ file, faces }) => {
    process.stdout.write(`class names in ${file} order the faces otherwise: ${faces.map((f, k) => `class ${k} = ${f}`).join(', ')}\n`);
  });
  if (labelled.length === 0) throw new UsageError(`no labelled images in ${dataDir} (expected .jpg/.png files with same-stem .txt YOLO labels)`);
  let extras: FolderExtras;
  try {
    extras = await readFolderExtras(dataDir);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let asideReads: SetAsideReads[] = extras.setAside.map(() => NO_READS);

  const reader = await createDiceReader({
    modelDir: values.model ? resolve(values.model) : undefined,
    detectThreshold,
    views,
    minPeakDistance,
    reviewBelow,
    closerLook,
    fineLook,
    // only the thresholds given: the reader's defaults stand for the rest
    thresholds: Object.fromEntries(Object.entries({ face, none, edge, sideFace, faint, cocked }).filter(([, v]) => v !== undefined)),
  });
  // photos a taught model learned from are no fair measure of it
  const taught = taughtIn(reader, dataDir);
  const images = labelled.filter((img) => !taught.has(img.relPath));
  if (images.length === 0) throw new UsageError(`every labelled photo in ${dataDir} taught this model (npm run model:adapt): none is left to measure it fairly`);
  const bar = progressBar();
  const times: number[] = [];
  const items: { relPath: string; labels: LabelBox[]; preds: SeenDie[] }[] = [];
  const predictions: { image: string; width: number; height: number; dice: { x: number; y: number; w: number; h: number; face: number | null; score: number; unreadable?: string }[]; error?: string }[] = [];
  let failureCrops = 0;
  const unreadableImages: string[] = [];
  for (let i = 0; i < images.length; i++) {
    const img = images[i];
    let bytes: Buffer = await readFile(img.path);
    if (camera) {
      try {
        bytes = await varyPhoto(bytes, CAMERA_VARIATIONS[camera], img.relPath, img.labels);
      } catch (err) {
        if (!(err instanceof VisionInputError)) throw err;
        // the photo does not decode: the reader will say so
      }
    }
    const outcome = await evaluateImage(reader, img, bytes, extras);
    items.push(outcome.item);
    asideReads = asideReads.map((a, k) => addReads(a, outcome.aside[k]));
    const r = outcome.read;
    if (r === null) {
      // as the server would: the frame gives no dice, so its labelled dice count as missed
      process.stderr.write(`\ndice:eval: ${img.relPath}: its ${img.labels.length} labelled dice count as missed: ${outcome.error}\n`);
      unreadableImages.push(img.relPath);
      predictions.push({ image: img.relPath, width: 0, height: 0, dice: [], error: outcome.error! });
      bar('eval', i + 1, images.length);
      continue;
    }
    times.push(outcome.ms);
    const { labels, preds } = outcome.item;
    if (values.failures && failureCrops < 60) {
      const fails = findFailures(labels, preds);
      if (fails.length > 0) failureCrops += await saveFailureCrops(img.relPath, bytes, r.width, r.height, fails, resolve(values.failures), 60 - failureCrops);
    }
    predictions.push({
      image: img.relPath,
      width: r.width,
      height: r.height,
      dice: r.dice.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face, score: d.score, ...(d.unreadable ? { unreadable: d.unreadable } : {}) })),
    });
    bar('eval', i + 1, images.length);
  }
  if (values.predictions) await writeFile(resolve(values.predictions), JSON.stringify(predictions, null, 1) + '\n');
  const s = scoreImages(items);
  const round = (v: number, d = 4): number => Math.round(v * 10 ** d) / 10 ** d;
  console.log(`data: ${dataDir}`);
  console.log(`model ${reader.modelVersion}, backend ${reader.backend}`);
  if (camera) console.log(`camera variation: ${camera}, ${CAMERA_VARIATIONS[camera].about}`);
  if (labelled.length > images.length) console.log(`photos this model was taught (npm run model:adapt), left out: ${labelled.length - images.length} of ${labelled.length}`);
  console.log(formatConfusion(s.confusion));
  console.log(`dice ${s.dice}, found ${s.found}, right face ${s.correct}, predictions ${s.predictions}, extra ${s.extra}`);
  if (s.dice > 0) console.log(formatAveragePrecision(averagePrecision(items)));
  extras.setAside.forEach(({ kind }, k) => console.log(formatReads(kind, asideReads[k])));
  if (lookOf) console.log(formatByGroup(scoresByGroup(items.map((item) => ({ ...item, group: lookOf(item.relPath) ?? 'not drawn here' })), MARBLED_APART), 'look'));
  // several tables' photo folders side by side: each one's figures too
  const byFolder = items.map((item) => ({ ...item, group: topFolderOf(item.relPath) }));
  if (new Set(byFolder.map((i) => i.group)).size > 1) console.log(formatByGroup(scoresByGroup(byFolder), 'folder'));
  if (unreadableImages.length > 0) console.log(`images that could not be read (their dice counted as missed): ${unreadableImages.join(', ')}`);
  console.log(
    JSON.stringify({
      images: s.images,
      dice: s.dice,
      faceAccuracy: round(s.faceAccuracy),
      recall: round(s.recall),
      precision: round(s.precision),
      wholeRollAccuracy: round(s.wholeRollAccuracy),
      msPerImageMedian: round(median(times), 2),
      backend: reader.backend,
    }),
  );
  reader.dispose();
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('dice:eval', USAGE, err, [VisionModelError]));
