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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { detector: { type: 'string' }, classifier: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  if (!values.detector || !values.classifier || !values.out) {
    throw new Error('usage: model:combine -- --detector DIR --classifier DIR --out DIR');
  }
  const [detDir, clsDir, outDir] = [values.detector, values.classifier, values.out].map((d) => resolve(d));
  if (outDir === detDir || outDir === clsDir) throw new Error('--out must be a folder other than --detector and --classifier');
  const det = await readSpec(detDir);
  const cls = await readSpec(clsDir);
  await mkdir(outDir, { recursive: true });
  for (const [from, part] of [[detDir, 'detector'], [clsDir, 'classifier']] as const) {
    await rm(join(outDir, part), { recursive: true, force: true });
    await cp(join(from, part), join(outDir, part), { recursive: true });
  }
  const training = { ...det.training, classifierRuns: cls.training.classifierRuns ?? [] };
  await writeSpec(outDir, training);
  process.stdout.write(`wrote ${outDir}: detector of ${detDir}, classifier of ${clsDir}\n`);
}

main().catch((err) => {
  process.stderr.write(`model:combine failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
