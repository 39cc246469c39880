/**
 * `npm run dice:flicker -- --synthetic N [--seed S] [--close-camera | --crowded | --large-frame | --leaning | --occluded] [--frames F]`
 * `npm run dice:flicker -- --data DIR [--limit N] [--quality Q] [--frames F]`
 * How steady the readings of dice that do not move are. Each scene (a synthetic test-set scene, or a
 * labelled photo) is filmed as a still tray for F frames, each with its own sensor noise, exposure and
 * camera shake (--noise LEVELS, --gain G, --shift PX; --jitter-seed S), through the camera's own path
 * (settle detector → shipped reader → stabiliser). Prints, for the reader alone and after the stabiliser,
 * how often a die's answer changed from one frame read to the next, and how many stable readings the
 * game was told per still tray; the last line is one JSON object. In the --leaning and --occluded sets the
 * dice with no right face (leaning on a die or the tray wall, a pip covered) are not labelled but followed
 * apart: how the dashboard showed them in the last frame ("not sure", a face, not found), and how often.
 * --model DIR reads with another model; --records FILE.json writes every tray's record (each frame's
 * answers, the readings, the frames not settled).
 * --settle JSON and --stabilizer JSON change the camera path's settings as a table's camera config does
 * (e.g. --stabilizer '{"minVotes":2}'); the fields left out keep their defaults (hardware.md).
 * A photo that cannot be decoded is named on stderr and left out; the run goes on.
 */
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createDiceReader } from '../vision/reader.ts';
import { readYoloFolder } from '../vision/yolo-dataset.ts';
import { summariseFlicker, type AnswerSteadiness, type StillTrayRecord } from '../vision/flicker.ts';
import type { LabelBox } from '../vision/scoring.ts';
import { setAsideKindOf, syntheticSetName, syntheticSetScene, type SyntheticSetKind } from '../synth/test-set.ts';
import { refuseKindWithoutSynthetic, syntheticKindOf } from './synthetic-kind.ts';
import { CAMERA_JITTER, validateCameraJitter, type StillPicture } from '../synth/camera-frames.ts';
import { Rng } from '../synth/random.ts';
import { watchStillTray, type AsideDie } from '../hardware/camera/still-tray.ts';
import { progressBar } from './progress.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';
import { VisionInputError, VisionModelError } from '../vision/errors.ts';
import { decodeImage } from '../vision/decode.ts';
import { DEFAULT_SETTLE, validateSettleOptions, type SettleOptions } from '../hardware/camera/settle.ts';
import { DEFAULT_STABILIZER, validateStabilizerOptions, type StabilizerOptions } from '../hardware/camera/stabilizer.ts';
import { checkPathOptions } from '../hardware/camera/config.ts';

const USAGE = `usage: npm run dice:flicker -- --synthetic N [--seed S] [--close-camera | --crowded | --large-frame | --leaning | --occluded] [--frames F]
       npm run dice:flicker -- --data DIR [--limit N] [--quality Q] [--frames F]
  camera: [--noise LEVELS] [--gain G] [--shift PX] [--jitter-seed S]   [--model DIR] [--records FILE.json]
  camera path: [--settle JSON] [--stabilizer JSON]   (as in a table's camera config, e.g. --stabilizer '{"minVotes":2}')
(each flag is explained at the top of server/cli/dice-flicker.ts; defaults: 30 frames, noise ${CAMERA_JITTER.noise}, gain ${CAMERA_JITTER.gain}, shift ${CAMERA_JITTER.shift}, quality 90)`;

interface StillScene {
  name: string;
  picture: StillPicture;
  labels: LabelBox[];
  /** dice with no right face, followed apart */
  aside: AsideDie[];
  quality: number;
}

function integer(value: string | undefined, flag: string, lo: number, hi: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new UsageError(`${flag} must be a whole number from ${lo} to ${hi}, got "${value}"`);
  return n;
}

function number(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number, got "${value}"`);
  return n;
}

/** A JSON object of camera-path settings, checked as a table's camera config checks it. */
function pathOptions<T extends object>(value: string | undefined, flag: string, defaults: T, validate: (o: Partial<T>, where: string) => T): T | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`${flag} must be a JSON object such as '{"${Object.keys(defaults)[0]}": …}', got "${value}"`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${flag} must be a JSON object, got ${value}`);
  const { options, problems } = checkPathOptions(parsed as Record<string, unknown>, flag, defaults, validate);
  if (problems.length > 0 || !options) throw new UsageError(problems.join('; '));
  return options;
}

async function* syntheticScenes(count: number, seed: number, kind: SyntheticSetKind): AsyncGenerator<StillScene> {
  for (let i = 0; i < count; i++) {
    const { scene, jpegQuality } = syntheticSetScene(i, seed, kind);
    const { width, height } = scene.image;
    const labels: LabelBox[] = [];
    const aside: AsideDie[] = [];
    for (const die of scene.dice) {
      const { x, y, w, h, face } = die;
      const asideKind = setAsideKindOf(kind, die);
      if (asideKind) aside.push({ x, y, w, h, kind: asideKind });
      else labels.push({ x, y, w, h, face });
    }
    yield { name: syntheticSetName(i), picture: { data: scene.image.toBytes(), width, height }, labels, aside, quality: jpegQuality };
  }
}

async function* photoScenes(dir: string, limit: number, quality: number, leftOut: string[]): AsyncGenerator<StillScene> {
  const images = (await readYoloFolder(dir)).slice(0, limit);
  for (const img of images) {
    let picture;
    try {
      picture = await decodeImage(await readFile(img.path));
    } catch (err) {
      if (!(err instanceof VisionInputError)) throw err;
      process.stderr.write(`\ndice:flicker: ${img.relPath} left out: cannot decode it (${err.message})\n`);
      leftOut.push(img.relPath);
      continue;
    }
    const { width, height } = picture;
    yield {
      name: img.relPath,
      picture,
      labels: img.labels.map((l) => ({ x: l.cx * width, y: l.cy * height, w: l.w * width, h: l.h * height, face: l.face })),
      aside: [],
      quality,
    };
  }
}

function describe(what: string, s: AnswerSteadiness, dice: number): string {
  return `${what}: ${s.changes} changes in ${s.dieFrames} die-frames (${s.changesPer100DieFrames.toFixed(2)} per 100); ${s.diceThatChanged} of ${dice} dice changed at least once; ${s.diceAlwaysRight} always right`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      synthetic: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'close-camera': { type: 'boolean', default: false },
      crowded: { type: 'boolean', default: false },
      'large-frame': { type: 'boolean', default: false },
      leaning: { type: 'boolean', default: false },
      occluded: { type: 'boolean', default: false },
      data: { type: 'string' },
      limit: { type: 'string' },
      quality: { type: 'string' },
      frames: { type: 'string' },
      noise: { type: 'string' },
      gain: { type: 'string' },
      shift: { type: 'string' },
      'jitter-seed': { type: 'string' },
      model: { type: 'string' },
      records: { type: 'string' },
      settle: { type: 'string' },
      stabilizer: { type: 'string' },
    },
  });
  const frames = integer(values.frames, '--frames', 2, 1000, 30);
  let jitter;
  try {
    jitter = validateCameraJitter(
      Object.fromEntries(Object.entries({ noise: number(values.noise, '--noise'), gain: number(values.gain, '--gain'), shift: number(values.shift, '--shift') }).filter(([, v]) => v !== undefined)),
    );
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(err.message.replace(/^camera (\w+)/, '--$1'));
    throw err;
  }
  const settle = pathOptions<SettleOptions>(values.settle, '--settle', DEFAULT_SETTLE, validateSettleOptions);
  const stabilizer = pathOptions<StabilizerOptions>(values.stabilizer, '--stabilizer', DEFAULT_STABILIZER, validateStabilizerOptions);
  const jitterSeed = integer(values['jitter-seed'], '--jitter-seed', 0, 2 ** 31 - 1, 1);
  let scenes: AsyncGenerator<StillScene>;
  const leftOut: string[] = [];
  let total: number;
  let what: string;
  if (values.synthetic !== undefined) {
    if (values.data !== undefined) throw new UsageError('--synthetic N and --data DIR go alone, not together');
    if (values.limit !== undefined || values.quality !== undefined) throw new UsageError('--limit and --quality go with --data DIR (a synthetic scene keeps its own JPEG quality)');
    total = integer(values.synthetic, '--synthetic', 1, 100_000, 0);
    const seed = integer(values.seed, '--seed', 0, 2 ** 31 - 1, 1);
    const kind = syntheticKindOf(values);
    scenes = syntheticScenes(total, seed, kind);
    what = `synthetic ${kind} test set, seed ${seed}, ${total} scenes`;
  } else {
    refuseKindWithoutSynthetic(values);
    if (!values.data) throw new UsageError('--data DIR or --synthetic N is needed');
    const dir = resolve(values.data);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--data ${dir} is not a folder`);
    const count = (await readYoloFolder(dir)).length;
    if (count === 0) throw new UsageError(`no labelled images in ${dir} (expected .jpg/.png files with same-stem .txt YOLO labels)`);
    const limit = integer(values.limit, '--limit', 1, 1_000_000, count);
    total = Math.min(limit, count);
    scenes = photoScenes(dir, limit, integer(values.quality, '--quality', 1, 100, 90), leftOut);
    what = `${dir}, ${total} photos`;
  }

  const reader = await createDiceReader({ modelDir: values.model ? resolve(values.model) : undefined });
  const rng = new Rng(jitterSeed);
  const records: StillTrayRecord[] = [];
  const names: string[] = [];
  const bar = progressBar();
  let done = 0;
  try {
    for await (const scene of scenes) {
      records.push(await watchStillTray(reader, scene.picture, scene.labels, { frames, jitter, quality: scene.quality, rng, settle, stabilizer }, scene.aside));
      names.push(scene.name);
      bar('film', ++done, total - leftOut.length);
    }
  } finally {
    reader.dispose();
  }
  process.stderr.write('\n');
  if (values.records) await writeFile(resolve(values.records), JSON.stringify(records.map((r, i) => ({ scene: names[i], ...r }))) + '\n');
  const s = summariseFlicker(records);
  const r = s.readings;
  console.log(`data: ${what}`);
  if (leftOut.length > 0) console.log(`photos left out (they could not be decoded): ${leftOut.join(', ')}`);
  console.log(`model ${reader.modelVersion}, backend ${reader.backend}; ${frames} frames a still tray, noise ${jitter.noise} levels, gain ±${jitter.gain}, shift ±${jitter.shift} px, jitter seed ${jitterSeed}`);
  if (settle) console.log(`settle detector: ${JSON.stringify(settle)}`);
  if (stabilizer) console.log(`stabiliser: ${JSON.stringify(stabilizer)}`);
  console.log(`${s.scenes} still trays, ${s.dice} dice, ${s.frames} frames (${s.framesRead} read; ${s.unsettledFrames} not taken as settled)`);
  console.log(describe('reader alone', s.raw, s.dice));
  console.log(describe('after the stabiliser (what the dashboard shows)', s.shown, s.dice));
  console.log(
    `readings the game was told: ${r.total} (${r.afterFirst} after a tray's first; ${r.rollChanges} changed a complete roll, on ${r.scenesWithRollChange} trays); trays with one reading ${r.scenesWithOneReading}, with none ${r.scenesWithoutReading}; first reading right ${r.firstRight}, last right ${r.lastRight}; median frames to the first ${r.medianFramesToFirst ?? '—'}`,
  );
  for (const a of s.aside) {
    console.log(
      `${a.about}, not labelled, followed apart: ${a.last.dice}; in the last frame the dashboard showed "not sure" ${a.last.notSure}, a face ${a.last.guessed}, nothing ${a.last.notFound}; a face in any frame ${a.everShownWithFace}; the reader alone named a face in ${a.rawWithFace} of ${a.rawDieFrames} die-frames`,
    );
  }
  const round = (v: number) => Math.round(v * 10000) / 10000;
  console.log(
    JSON.stringify({
      scenes: s.scenes,
      dice: s.dice,
      frames: s.frames,
      framesRead: s.framesRead,
      rawChangesPer100DieFrames: round(s.raw.changesPer100DieFrames),
      rawDiceThatChanged: s.raw.diceThatChanged,
      shownChangesPer100DieFrames: round(s.shown.changesPer100DieFrames),
      shownDiceThatChanged: s.shown.diceThatChanged,
      readings: r.total,
      readingsAfterFirst: r.afterFirst,
      rollChanges: r.rollChanges,
      traysWithRollChange: r.scenesWithRollChange,
      firstReadingRight: r.firstRight,
      lastReadingRight: r.lastRight,
      medianFramesToFirstReading: r.medianFramesToFirst,
      ...(s.aside.length > 0 ? { setAside: s.aside.map((a) => ({ kind: a.kind, ...a.last, everShownWithFace: a.everShownWithFace, rawDieFrames: a.rawDieFrames, rawWithFace: a.rawWithFace })) } : {}),
      settle: settle ?? DEFAULT_SETTLE,
      stabilizer: stabilizer ?? DEFAULT_STABILIZER,
      backend: reader.backend,
    }),
  );
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('dice:flicker', USAGE, err, [VisionModelError]));
