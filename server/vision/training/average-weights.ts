/**
 * Averages the weights of TF.js Layers models of one architecture (a "model soup": several rounds
 * continued from one model, averaged). Pure file work: model.json and its weight files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface WeightsGroup {
  paths: string[];
  weights: { name: string; shape: number[]; dtype: string }[];
}

async function manifestOf(dir: string): Promise<{ json: string; groups: WeightsGroup[] }> {
  const json = await readFile(join(dir, 'model.json'), 'utf8');
  const groups = (JSON.parse(json) as { weightsManifest?: WeightsGroup[] }).weightsManifest;
  if (!Array.isArray(groups)) throw new Error(`${join(dir, 'model.json')} has no weightsManifest`);
  return { json, groups };
}

/** Writes into `outDir` the model of `dirs[0]` with each weight the mean of that weight in every folder. */
export async function averageLayersModels(dirs: string[], outDir: string): Promise<void> {
  if (dirs.length === 0) throw new Error('no model to average');
  const manifests = await Promise.all(dirs.map(manifestOf));
  const reference = JSON.stringify(manifests[0].groups);
  dirs.forEach((dir, i) => {
    if (JSON.stringify(manifests[i].groups) !== reference) throw new Error(`${dir} holds another architecture than ${dirs[0]}: its weights cannot be averaged with them`);
  });
  const dtypes = new Set(manifests[0].groups.flatMap((g) => g.weights.map((w) => w.dtype)));
  if ([...dtypes].some((d) => d !== 'float32')) throw new Error(`only float32 weights can be averaged, ${dirs[0]} holds ${[...dtypes].join(', ')}`);
  await mkdir(outDir, { recursive: true });
  for (const path of manifests[0].groups.flatMap((g) => g.paths)) {
    const files = await Promise.all(dirs.map((dir) => readFile(join(dir, path))));
    if (files.some((f) => f.length !== files[0].length || f.length % 4 !== 0)) throw new Error(`${path} differs in size between the folders`);
    const sum = new Float64Array(files[0].length / 4);
    for (const f of files) {
      const values = new Float32Array(f.buffer.slice(f.byteOffset, f.byteOffset + f.length));
      for (let i = 0; i < values.length; i++) sum[i] += values[i];
    }
    await writeFile(join(outDir, path), Buffer.from(Float32Array.from(sum, (v) => v / files.length).buffer));
  }
  await writeFile(join(outDir, 'model.json'), manifests[0].json);
}
