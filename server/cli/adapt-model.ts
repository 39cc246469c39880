/**
 * `npm run model:adapt -- --photos DIR --out DIR [--check-every K | --check DIR] [--model DIR] [--seed N]
 *   [--epochs N] [--per-die N] [--scenes N] [--real-photos N] [--learning-rate X] [--detector-steps N]
 *   [--detector-learning-rate X] [--keep-worse] [--backend wasm|cpu] [--progress bar|json]`
 *
 * Teaches the model one table's own dice: the labelled photos of --photos (the dashboard's Dice photos
 * folder, or any folder in the layout of ../shared/docs/dice-data.md; its `cocked.json` dice are taught
 * as unreadable, a photo that cannot be decoded is left out and named). One photo in K (--check-every,
 * default 3: the first, the K+1-th, … by name) is kept back and never taught; the model is read on those
 * before and after, and the taught model is written to --out (spec.json recording the run) only when it
 * reads them at least as well (right faces less extra dice), unless --keep-worse. --check DIR checks on
 * another folder instead and teaches every photo of --photos. First the detector is taught where the
 * table's dice lie, --detector-steps N steps of 12 crops (default 600; 0 keeps it as it is), half its
 * crops from the table's photos (their centres; the sizes it knows are kept), half from other dice; then
 * the classifier, --epochs rounds on --per-die crops of each table die cut at the sizes the taught
 * detector finds. So that both keep reading other dice, they also see --scenes synthetic scenes of every
 * look (default 200, or 400 without real photos) and --real-photos of the real train photos of ../shared
 * (default 80, when present). The service reads the taught model at start when --out is its data
 * folder's dice-model/ (the Dice photos page's teaching runs this command so), or FLIGHTDECK_MODEL
 * names it. Progress on stderr; the last line of stdout is one JSON object. `--progress json` writes
 * the progress as JSON lines (`{"progress":{"stage","done","total"}}`) instead of a bar: the service
 * teaching from the dashboard reads them.
 */
import { parseArgs } from 'node:util';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initBackend, type BackendName } from '../vision/backend.ts';
import { classifierArchitectureOf } from '../vision/architecture.ts';
import { registerWasmTrainingKernels } from '../vision/wasm-training-kernels.ts';
import { DEFAULT_MODEL_DIR, loadLayersModel, readSpec, saveLayersModel, writeSpec, classifierRunsOf } from '../vision/model-store.ts';
import { readYoloFolder, sharedDir, type LabelledImage } from '../vision/yolo-dataset.ts';
import { evaluateImages, readFolderExtras, type FolderEvaluation, type FolderExtras } from '../vision/evaluate-folder.ts';
import { createDiceReader } from '../vision/reader.ts';
import { VisionInputError, VisionModelError } from '../vision/errors.ts';
import { checkScore, frameExamples, splitForCheck, tablePhotoSample, withoutSizes } from '../vision/training/adapt.ts';
import { realSample, syntheticSample, type FrameSample } from '../vision/training/samples.ts';
import { detectorExample, trainClassifier, trainDetector, type ClassifierExample } from '../vision/training/train.ts';
import { withoutErrata } from '../vision/training/label-errata.ts';
import { seedTensorFlowRandom } from '../vision/training/seeded-random.ts';
import { Rng } from '../synth/random.ts';
import { jsonProgress, progressBar } from './progress.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `usage: npm run model:adapt -- --photos DIR --out DIR [--check-every K | --check DIR] [--model DIR] [--seed N]
  [--epochs N] [--per-die N] [--scenes N] [--real-photos N] [--learning-rate X] [--detector-steps N] [--detector-learning-rate X]
  [--keep-worse] [--backend wasm|cpu] [--progress bar|json]
(each flag is explained at the top of server/cli/adapt-model.ts and in models/README.md, "Teaching it a table's dice")`;

/** Synthetic rehearsal scenes by default: with the real train photos, and without them (models/README, "Teaching it a table's dice"). */
const SCENES_WITH_REAL = 200;
const SCENES_WITHOUT_REAL = 400;

/** Seeds of the rehearsal scenes: apart from model:train's (seed × 1 000 003 + i) and the test sets' (≥ 2 000 000 000). */
const REHEARSAL_SEED_BASE = 1_500_000_000;

function integer(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

function rate(value: string | undefined, name: string, fallback: number): number {
  const x = value === undefined ? fallback : Number(value);
  if (!(Number.isFinite(x) && x > 0 && x < 1)) throw new UsageError(`--${name} must be a number between 0 and 1, got "${value}"`);
  return x;
}

/** A folder --out may be replaced at: an empty one, or a model folder (spec.json, detector/, classifier/ and nothing else). */
function isReplaceable(dir: string): boolean {
  if (!statSync(dir).isDirectory()) return false;
  const names = readdirSync(dir);
  return names.length === 0 || (names.includes('spec.json') && names.every((n) => ['spec.json', 'detector', 'classifier'].includes(n)));
}

function folder(value: string | undefined, name: string): string {
  if (value === undefined) throw new UsageError(`--${name} DIR is needed`);
  const dir = resolve(value);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--${name} ${dir} is not a folder`);
  return dir;
}

async function labelledPhotos(dir: string, name: string): Promise<{ photos: LabelledImage[]; extras: FolderExtras }> {
  const photos = await readYoloFolder(dir);
  if (photos.length === 0) throw new UsageError(`no labelled photos in --${name} ${dir} (expected .jpg/.png files with same-stem .txt YOLO labels)`);
  try {
    return { photos, extras: await readFolderExtras(dir) };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function summary(e: FolderEvaluation) {
  const cocked = e.setAside.find((s) => s.kind === 'cocked')?.reads;
  return {
    photos: e.images,
    dice: e.dice,
    faceAccuracy: e.faceAccuracy,
    recall: e.recall,
    precision: e.precision,
    extra: e.extra,
    ...(cocked && cocked.dice > 0 ? { cockedDice: cocked.dice, cockedNamedAFace: cocked.guessed } : {}),
  };
}

function line(what: string, e: FolderEvaluation): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  return `${what}: ${e.dice} dice on ${e.images} photos, face ${pct(e.faceAccuracy)}, recall ${pct(e.recall)}, precision ${pct(e.precision)}, extra ${e.extra}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      photos: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'string' },
      'check-every': { type: 'string' },
      model: { type: 'string' },
      seed: { type: 'string' },
      epochs: { type: 'string' },
      'per-die': { type: 'string' },
      scenes: { type: 'string' },
      'real-photos': { type: 'string' },
      'learning-rate': { type: 'string' },
      'detector-steps': { type: 'string' },
      'detector-learning-rate': { type: 'string' },
      'keep-worse': { type: 'boolean', default: false },
      backend: { type: 'string' },
      progress: { type: 'string' },
    },
  });
  const photosDir = folder(values.photos, 'photos');
  if (values.out === undefined) throw new UsageError('--out DIR is needed: where the taught model is written');
  const out = resolve(values.out);
  const modelDir = values.model === undefined ? DEFAULT_MODEL_DIR : folder(values.model, 'model');
  if (out === modelDir) throw new UsageError(`--out ${out} is the model taught from: give another folder`);
  if (existsSync(out) && !isReplaceable(out)) throw new UsageError(`--out ${out} holds something other than a dice model: give a new folder, or one model:adapt wrote`);
  if (values.check !== undefined && values['check-every'] !== undefined) throw new UsageError('--check DIR and --check-every K both choose the photos to check on: give one');
  const checkDir = values.check === undefined ? null : folder(values.check, 'check');
  const checkEvery = integer(values['check-every'], 'check-every', 0, 1000, 3);
  if (checkEvery === 1) throw new UsageError('--check-every 1 would keep every photo back and teach none: give 0 (check none) or 2 or more');
  const seed = integer(values.seed, 'seed', 0, 2 ** 31 - 1, 1);
  const epochs = integer(values.epochs, 'epochs', 1, 50, 4);
  const perDie = integer(values['per-die'], 'per-die', 1, 64, 12);
  const realWanted = integer(values['real-photos'], 'real-photos', 0, 100_000, 80);
  const realDir = join(sharedDir(repoRoot), 'datasets', 'webcam-white-dice', 'train');
  const withReal = realWanted > 0 && existsSync(realDir);
  // without real photos to rehearse on (a machine without ../shared), twice the synthetic scenes keep other dice read as well
  const scenes = integer(values.scenes, 'scenes', 0, 100_000, withReal ? SCENES_WITH_REAL : SCENES_WITHOUT_REAL);
  const learningRate = rate(values['learning-rate'], 'learning-rate', 3e-4);
  const detectorSteps = integer(values['detector-steps'], 'detector-steps', 0, 100_000, 600);
  const detectorLearningRate = rate(values['detector-learning-rate'], 'detector-learning-rate', 2e-4);
  const backendArg = values.backend as BackendName | undefined;
  if (backendArg !== undefined && !['wasm', 'cpu'].includes(backendArg)) throw new UsageError('--backend must be wasm or cpu');
  if (values.progress !== undefined && !['bar', 'json'].includes(values.progress)) throw new UsageError('--progress must be bar or json');

  const { photos, extras } = await labelledPhotos(photosDir, 'photos');
  const { teach, check } = checkDir ? { teach: photos, check: [] as LabelledImage[] } : splitForCheck(photos, checkEvery);
  if (teach.length === 0) throw new UsageError(`--photos ${photosDir} leaves no photo to teach once one in ${checkEvery} is kept back to check: save more photos`);
  const checkSet = checkDir ? await labelledPhotos(checkDir, 'check') : { photos: check, extras };

  const started = Date.now();
  const backend = await initBackend(backendArg ?? 'wasm');
  if (backend === 'wasm') registerWasmTrainingKernels();
  const shipped = await readSpec(modelDir);
  const progress = values.progress === 'json' ? jsonProgress() : progressBar();
  const rng = new Rng(seed);
  seedTensorFlowRandom(seed);
  process.stderr.write(`teaching ${modelDir}'s ${detectorSteps > 0 ? 'detector and classifier' : 'classifier'} ${teach.length} photos of ${photosDir} on backend ${backend}, seed ${seed}; checking on ${checkSet.photos.length} photos${checkDir ? ` of ${checkDir}` : ' kept back'}\n`);

  const evaluate = async (dir: string): Promise<FolderEvaluation | null> => {
    if (checkSet.photos.length === 0) return null;
    const reader = await createDiceReader({ modelDir: dir, backend });
    try {
      return await evaluateImages(reader, checkSet.photos, checkSet.extras);
    } finally {
      reader.dispose();
    }
  };
  const before = await evaluate(modelDir);
  if (before) console.log(line('before', before));

  const startDetector = await loadLayersModel(join(modelDir, 'detector'));
  const classifier = await loadLayersModel(join(modelDir, 'classifier'));
  const input = shipped.classifierInput;
  const cockedOf = extras.setAside.find((s) => s.kind === 'cocked')?.dice;
  const tableSamples: FrameSample[] = [];
  const taughtNames: string[] = [];
  let teachDice = 0;
  let teachCocked = 0;
  const skipped: string[] = [];
  for (let i = 0; i < teach.length; i++) {
    let s: FrameSample;
    try {
      s = await tablePhotoSample(teach[i], cockedOf?.get(teach[i].relPath) ?? []);
    } catch (err) {
      if (!(err instanceof VisionInputError)) throw err;
      skipped.push(teach[i].relPath);
      process.stderr.write(`\n${teach[i].relPath} left out: ${err.message}\n`);
      continue;
    }
    teachDice += teach[i].labels.length;
    teachCocked += s.dice.length - teach[i].labels.length;
    tableSamples.push(s);
    taughtNames.push(teach[i].relPath);
    progress('table', i + 1, teach.length, `${teachDice} dice, ${teachCocked} cocked`);
  }
  if (tableSamples.length === 0) throw new VisionInputError(`none of the ${teach.length} photos to teach could be read: ${skipped.join(', ')}`);
  const rehearsal: FrameSample[] = [];
  for (let i = 0; i < scenes; i++) {
    rehearsal.push(await syntheticSample(REHEARSAL_SEED_BASE + seed * 100_003 + i));
    progress('other dice', i + 1, scenes);
  }
  const realRehearsal: FrameSample[] = [];
  if (realWanted > 0 && !withReal) process.stderr.write(`the real train photos are not at ${realDir}: rehearsing on ${scenes} synthetic scenes only\n`);
  else if (withReal) {
    const { images } = withoutErrata(await readYoloFolder(realDir));
    const use = images.filter((_, i) => i % Math.max(1, Math.floor(images.length / realWanted)) === 0).slice(0, realWanted);
    for (let i = 0; i < use.length; i++) {
      realRehearsal.push(await realSample(use[i]));
      progress('real', i + 1, use.length);
    }
  }

  const detectorStart = Date.now();
  const detector =
    detectorSteps > 0
      ? await trainDetector(
          [...rehearsal, ...realRehearsal].map((s) => detectorExample(s, false)),
          tableSamples.map(withoutSizes).flatMap((s) => [detectorExample(s, false), detectorExample(s, true)]),
          { steps: detectorSteps, batch: 12, cropCells: [24, 32], learningRate: detectorLearningRate, realFraction: 0.5 },
          rng.fork(),
          progress,
          startDetector,
        )
      : startDetector;
  const detectorSeconds = Math.round((Date.now() - detectorStart) / 1000);

  const data: ClassifierExample[] = [];
  for (const s of tableSamples) data.push(...frameExamples(detector, s, input, rng, perDie, perDie, s.dice.map((d) => d.size ?? 30)));
  const tableCrops = data.length;
  for (const s of rehearsal) data.push(...frameExamples(detector, s, input, rng, 1, 2, s.dice.map((d) => d.size ?? 30)));
  for (const s of realRehearsal) data.push(...frameExamples(detector, s, input, rng, 2, 2, (72 * s.pixels.width) / 640));
  const realUsed = realRehearsal.length;
  const trainStart = Date.now();
  const taught = await trainClassifier(data, { architecture: classifierArchitectureOf(classifier), epochs, batch: 64, learningRate }, rng.fork(), progress, classifier);
  const trainSeconds = Math.round((Date.now() - trainStart) / 1000);

  const staging = `${out}.part`;
  await mkdir(staging, { recursive: true });
  if (detectorSteps > 0) await saveLayersModel(detector, join(staging, 'detector'));
  else await cp(join(modelDir, 'detector'), join(staging, 'detector'), { recursive: true });
  await saveLayersModel(taught, join(staging, 'classifier'));
  detector.dispose();
  taught.dispose();
  const date = new Date().toISOString();
  const run = {
    date,
    command: `npm run model:adapt -- ${process.argv.slice(2).join(' ')}`.trim(),
    seed,
    backend,
    tableDice: { date, photos: photosDir, teachPhotos: tableSamples.length, ...(skipped.length > 0 ? { leftOut: skipped } : {}), teachDice, teachCocked, taught: taughtNames, checkPhotos: checkSet.photos.length, checkedOn: checkDir ?? `one photo in ${checkEvery} of ${photosDir}, kept back` },
    tableCrops,
    rehearsalScenes: scenes,
    rehearsalRealPhotos: realUsed,
    classifierExamples: data.length,
    classifierEpochs: epochs,
    classifierLearningRate: learningRate,
    classifierSeconds: trainSeconds,
    ...(detectorSteps > 0 ? { detectorSteps, detectorLearningRate, detectorSeconds } : {}),
  };
  const earlierDetectorRuns = (shipped.training.detectorRuns as unknown[] | undefined) ?? [];
  const training = {
    ...shipped.training,
    classifierRuns: [...classifierRunsOf(shipped), run],
    ...(detectorSteps > 0 ? { detectorRuns: [...earlierDetectorRuns, run] } : {}),
    tableDice: run.tableDice,
  };
  await writeSpec(staging, training, input);
  const after = await evaluate(staging);
  if (after) console.log(line('after', after));
  const better = before === null || after === null || checkScore(after) >= checkScore(before);
  const written = better || values['keep-worse'];
  if (written) {
    // the check goes with the model, so whoever reads it later (the dashboard after a restart) sees it
    if (before && after) await writeSpec(staging, { ...training, tableDice: { ...run.tableDice, check: { before: summary(before), after: summary(after) } } }, input);
    await rm(out, { recursive: true, force: true });
    await rename(staging, out);
    process.stderr.write(`wrote ${out} in ${Math.round((Date.now() - started) / 1000)}s${before === null ? ' (no photo kept back: not checked)' : ''}; the service reads it with FLIGHTDECK_MODEL=${out}\n`);
  } else {
    await rm(staging, { recursive: true, force: true });
    process.stderr.write(`not written: the taught model reads the photos kept back worse than ${modelDir} (--keep-worse writes it anyway)\n`);
  }
  console.log(JSON.stringify({ ...run, before: before && summary(before), after: after && summary(after), better, written, out: written ? out : null }));
  if (!written) process.exitCode = 1;
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('model:adapt', USAGE, err, [VisionModelError, VisionInputError]));
