/**
 * `npm run model:combine -- --detector DIR --classifier DIR --out DIR`
 * Puts the detector of one trained folder and the classifier of another into --out (they are trained
 * separately, so two `model:train --stage …` runs can go on in parallel, one a core). spec.json keeps the
 * detector folder's training record with the classifier folder's classifier runs.
 */
import { parseArgs } from 'node:util';
import { cp, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readSpec, writeSpec } from '../vision/model-store.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';

const USAGE = 'usage: npm run model:combine -- --detector DIR --classifier DIR --out DIR';

/** a folder given on the line that holds no model is the user's to fix */
function asUsageError(err: unknown): never {
  throw new UsageError((err as Error).message);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { detector: { type: 'string' }, classifier: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  if (!values.detector || !values.classifier || !values.out) {
    throw new UsageError('--detector, --classifier and --out are all needed');
  }
  const [detDir, clsDir, outDir] = [values.detector, values.classifier, values.out].map((d) => resolve(d));
  if (outDir === detDir || outDir === clsDir) throw new UsageError('--out must be a folder other than --detector and --classifier');
  const det = await readSpec(detDir).catch(asUsageError);
  const cls = await readSpec(clsDir).catch(asUsageError);
  await mkdir(outDir, { recursive: true });
  for (const [from, part] of [[detDir, 'detector'], [clsDir, 'classifier']] as const) {
    await rm(join(outDir, part), { recursive: true, force: true });
    await cp(join(from, part), join(outDir, part), { recursive: true });
  }
  const training = { ...det.training, classifierRuns: cls.training.classifierRuns ?? [] };
  await writeSpec(outDir, training);
  process.stdout.write(`wrote ${outDir}: detector of ${detDir}, classifier of ${clsDir}\n`);
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('model:combine', USAGE, err));
