/**
 * `npm run model:combine -- --detector DIR --classifier DIR [--classifier DIR …] --out DIR`
 * Puts the detector of one trained folder and the classifier of another into --out (they are trained
 * separately, so two `model:train --stage …` runs can go on in parallel, one a core). spec.json keeps the
 * detector folder's training record with the classifier folder's classifier runs.
 * Several `--classifier` folders (classifiers of one architecture, e.g. rounds continued from one model)
 * are averaged weight by weight; spec.json then keeps the first one's classifier runs and records the
 * average with each folder's last run.
 */
import { parseArgs } from 'node:util';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { classifierRunsOf, readSpec, writeSpec } from '../vision/model-store.ts';
import { averageLayersModels } from '../vision/training/average-weights.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';

const USAGE = 'usage: npm run model:combine -- --detector DIR --classifier DIR [--classifier DIR …] --out DIR';

/** a folder given on the line that holds no model is the user's to fix */
function asUsageError(err: unknown): never {
  throw new UsageError((err as Error).message);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { detector: { type: 'string' }, classifier: { type: 'string', multiple: true }, out: { type: 'string' } },
    strict: true,
  });
  if (!values.detector || !values.classifier?.length || !values.out) {
    throw new UsageError('--detector, --classifier and --out are all needed');
  }
  const detDir = resolve(values.detector);
  const clsDirs = values.classifier.map((d) => resolve(d));
  const outDir = resolve(values.out);
  if (outDir === detDir || clsDirs.includes(outDir)) throw new UsageError('--out must be a folder other than --detector and --classifier');
  if (new Set(clsDirs).size !== clsDirs.length) throw new UsageError('each --classifier folder may be given once');
  const det = await readSpec(detDir).catch(asUsageError);
  const classifiers = await Promise.all(clsDirs.map((d) => readSpec(d).catch(asUsageError)));
  const { classifierInput } = classifiers[0];
  const otherInput = classifiers.findIndex((c) => c.classifierInput !== classifierInput);
  if (otherInput >= 0) throw new UsageError(`${clsDirs[otherInput]}'s classifier reads ${classifiers[otherInput].classifierInput} crops, ${clsDirs[0]}'s ${classifierInput}: they cannot be averaged`);
  // the average is made first, so a folder that cannot be averaged leaves --out as it was
  const averaged = join(outDir, '.classifier-average');
  await rm(averaged, { recursive: true, force: true });
  if (clsDirs.length > 1) {
    await averageLayersModels(clsDirs.map((d) => join(d, 'classifier')), averaged).catch(async (err: unknown) => {
      await rm(averaged, { recursive: true, force: true });
      asUsageError(err);
    });
  }
  await mkdir(outDir, { recursive: true });
  await rm(join(outDir, 'detector'), { recursive: true, force: true });
  await cp(join(detDir, 'detector'), join(outDir, 'detector'), { recursive: true });
  await rm(join(outDir, 'classifier'), { recursive: true, force: true });
  const firstRuns = classifierRunsOf(classifiers[0]);
  let classifierRuns = firstRuns;
  if (clsDirs.length === 1) {
    await cp(join(clsDirs[0], 'classifier'), join(outDir, 'classifier'), { recursive: true });
  } else {
    await rename(averaged, join(outDir, 'classifier'));
    const average = {
      date: new Date().toISOString(),
      command: `npm run model:combine -- ${process.argv.slice(2).join(' ')}`,
      averagedClassifiers: values.classifier.map((folder, i) => ({ folder, lastRun: classifierRunsOf(classifiers[i]).at(-1) ?? null })),
    };
    classifierRuns = [...firstRuns, average];
  }
  await writeSpec(outDir, { ...det.training, classifierRuns }, classifierInput);
  const what = clsDirs.length === 1 ? `classifier of ${clsDirs[0]}` : `the average of the classifiers of ${clsDirs.join(', ')}`;
  process.stdout.write(`wrote ${outDir}: detector of ${detDir}, ${what}\n`);
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('model:combine', USAGE, err));
