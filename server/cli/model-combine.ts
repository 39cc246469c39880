/**
 * `npm run model:combine -- --detector DIR [--detector DIR …] --classifier DIR [--classifier DIR …] --out DIR`
 * Puts the detector of one trained folder and the classifier of another into --out (they are trained
 * separately, so two `model:train --stage …` runs can go on in parallel, one a core). spec.json keeps the
 * detector folder's training record with the classifier folder's classifier runs.
 * Several `--classifier` folders (classifiers of one architecture, e.g. rounds continued from one model)
 * are averaged weight by weight; spec.json then keeps the first one's classifier runs and records the
 * average with each folder's last run. Several `--detector` folders are averaged the same way, and
 * spec.json's detector runs end with that average.
 */
import { parseArgs } from 'node:util';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { classifierRunsOf, readSpec, writeSpec } from '../vision/model-store.ts';
import { averageLayersModels } from '../vision/training/average-weights.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';

const USAGE = 'usage: npm run model:combine -- --detector DIR [--detector DIR …] --classifier DIR [--classifier DIR …] --out DIR';

/** a folder given on the line that holds no model is the user's to fix */
function asUsageError(err: unknown): never {
  throw new UsageError((err as Error).message);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { detector: { type: 'string', multiple: true }, classifier: { type: 'string', multiple: true }, out: { type: 'string' } },
    strict: true,
  });
  if (!values.detector?.length || !values.classifier?.length || !values.out) {
    throw new UsageError('--detector, --classifier and --out are all needed');
  }
  const detDirs = values.detector.map((d) => resolve(d));
  const clsDirs = values.classifier.map((d) => resolve(d));
  const outDir = resolve(values.out);
  if (detDirs.includes(outDir) || clsDirs.includes(outDir)) throw new UsageError('--out must be a folder other than --detector and --classifier');
  if (new Set(clsDirs).size !== clsDirs.length) throw new UsageError('each --classifier folder may be given once');
  if (new Set(detDirs).size !== detDirs.length) throw new UsageError('each --detector folder may be given once');
  const detectors = await Promise.all(detDirs.map((d) => readSpec(d).catch(asUsageError)));
  const classifiers = await Promise.all(clsDirs.map((d) => readSpec(d).catch(asUsageError)));
  const { classifierInput } = classifiers[0];
  const otherInput = classifiers.findIndex((c) => c.classifierInput !== classifierInput);
  if (otherInput >= 0) throw new UsageError(`${clsDirs[otherInput]}'s classifier reads ${classifiers[otherInput].classifierInput} crops, ${clsDirs[0]}'s ${classifierInput}: they cannot be averaged`);
  // the averages are made first, so a folder that cannot be averaged leaves --out as it was
  const averagedClassifier = join(outDir, '.classifier-average');
  const averagedDetector = join(outDir, '.detector-average');
  const average = async (dirs: string[], part: string, into: string) => {
    await rm(into, { recursive: true, force: true });
    if (dirs.length < 2) return;
    await averageLayersModels(dirs.map((d) => join(d, part)), into).catch(async (err: unknown) => {
      await rm(averagedClassifier, { recursive: true, force: true });
      await rm(averagedDetector, { recursive: true, force: true });
      asUsageError(err);
    });
  };
  await average(clsDirs, 'classifier', averagedClassifier);
  await average(detDirs, 'detector', averagedDetector);
  await mkdir(outDir, { recursive: true });
  /** one folder's part is copied, several folders' average moved into place */
  const place = async (dirs: string[], part: string, averaged: string) => {
    await rm(join(outDir, part), { recursive: true, force: true });
    if (dirs.length === 1) await cp(join(dirs[0], part), join(outDir, part), { recursive: true });
    else await rename(averaged, join(outDir, part));
  };
  await place(detDirs, 'detector', averagedDetector);
  await place(clsDirs, 'classifier', averagedClassifier);
  const thisRun = { date: new Date().toISOString(), command: `npm run model:combine -- ${process.argv.slice(2).join(' ')}` };
  const firstClassifierRuns = classifierRunsOf(classifiers[0]);
  const classifierRuns =
    clsDirs.length === 1
      ? firstClassifierRuns
      : [...firstClassifierRuns, { ...thisRun, averagedClassifiers: values.classifier.map((folder, i) => ({ folder, lastRun: classifierRunsOf(classifiers[i]).at(-1) ?? null })) }];
  const detectorRunsOf = (d: (typeof detectors)[number]) => (d.training.detectorRuns as unknown[] | undefined) ?? [];
  const detectorTraining = detectors[0].training;
  const training =
    detDirs.length === 1
      ? { ...detectorTraining, classifierRuns }
      : {
          ...detectorTraining,
          detectorRuns: [...detectorRunsOf(detectors[0]), { ...thisRun, averagedDetectors: values.detector.map((folder, i) => ({ folder, lastRun: detectorRunsOf(detectors[i]).at(-1) ?? null })) }],
          classifierRuns,
        };
  await writeSpec(outDir, training, classifierInput);
  const detWhat = detDirs.length === 1 ? `detector of ${detDirs[0]}` : `the average of the detectors of ${detDirs.join(', ')}`;
  const what = clsDirs.length === 1 ? `classifier of ${clsDirs[0]}` : `the average of the classifiers of ${clsDirs.join(', ')}`;
  process.stdout.write(`wrote ${outDir}: ${detWhat}, ${what}\n`);
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('model:combine', USAGE, err));
