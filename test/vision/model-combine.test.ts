import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CLASSIFIER_INPUTS } from '../../server/vision/spec.ts';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const cli = ['--import', 'tsx', join(repoRoot, 'server/cli/model-combine.ts')];
const work = await mkdtemp(join(tmpdir(), 'model-combine-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** a copy of the shipped model whose weights and training record are marked with `tag` */
async function markedCopy(tag: string): Promise<string> {
  const dir = join(work, tag);
  await cp(join(repoRoot, 'models'), dir, { recursive: true });
  for (const part of ['detector', 'classifier']) await writeFile(join(dir, part, 'weights.bin'), `${tag}-${part}`);
  const spec = JSON.parse(await readFile(join(dir, 'spec.json'), 'utf8'));
  spec.training = { seed: tag, classifierRuns: [{ seed: `${tag}-cls` }], detectorRuns: [{ seed: `${tag}-det` }] };
  await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
  return dir;
}

async function stderrOf(args: string[]): Promise<string> {
  try {
    await run(process.execPath, [...cli, ...args], { cwd: repoRoot });
  } catch (err) {
    expect((err as { code: number }).code).toBe(2);
    return (err as { stderr: string }).stderr;
  }
  throw new Error(`model:combine ${args.join(' ')} did not fail`);
}

describe('npm run model:combine', () => {
  it("takes one folder's detector and another's classifier, with both training records", async () => {
    const a = await markedCopy('a');
    const b = await markedCopy('b');
    const out = join(work, 'out');
    await run(process.execPath, [...cli, '--detector', a, '--classifier', b, '--out', out], { cwd: repoRoot });
    expect(await readFile(join(out, 'detector', 'weights.bin'), 'utf8')).toBe('a-detector');
    expect(await readFile(join(out, 'classifier', 'weights.bin'), 'utf8')).toBe('b-classifier');
    const { spec, training } = JSON.parse(await readFile(join(out, 'spec.json'), 'utf8'));
    expect(spec).toEqual(JSON.parse(await readFile(join(repoRoot, 'models', 'spec.json'), 'utf8')).spec);
    expect(training).toEqual({ seed: 'a', detectorRuns: [{ seed: 'a-det' }], classifierRuns: [{ seed: 'b-cls' }] });
  });

  it('averages several classifiers weight by weight and records each one', async () => {
    const shipped = await readFile(join(repoRoot, 'models', 'classifier', 'weights.bin'));
    const weights = new Float32Array(shipped.buffer.slice(shipped.byteOffset, shipped.byteOffset + shipped.length));
    const dirs: string[] = [];
    for (const [tag, shift] of [['p', 0], ['q', 1], ['r', 2]] as const) {
      const dir = await markedCopy(tag);
      await writeFile(join(dir, 'classifier', 'weights.bin'), Buffer.from(weights.map((v) => v + shift).buffer));
      dirs.push(dir);
    }
    const out = join(work, 'soup');
    await run(process.execPath, [...cli, '--detector', dirs[0], ...dirs.flatMap((d) => ['--classifier', d]), '--out', out], { cwd: repoRoot });
    const averaged = await readFile(join(out, 'classifier', 'weights.bin'));
    const values = new Float32Array(averaged.buffer.slice(averaged.byteOffset, averaged.byteOffset + averaged.length));
    expect(values.length).toBe(weights.length);
    for (const i of [0, 1, 1000, weights.length - 1]) expect(values[i]).toBeCloseTo(weights[i] + 1, 5);
    expect(await readFile(join(out, 'classifier', 'model.json'), 'utf8')).toBe(await readFile(join(repoRoot, 'models', 'classifier', 'model.json'), 'utf8'));
    const { training } = JSON.parse(await readFile(join(out, 'spec.json'), 'utf8'));
    expect(training.classifierRuns[0]).toEqual({ seed: 'p-cls' });
    expect(training.classifierRuns[1].averagedClassifiers).toEqual(dirs.map((folder, i) => ({ folder, lastRun: { seed: `${'pqr'[i]}-cls` } })));
  });

  it('averages several detectors the same way, their average the last detector run', async () => {
    const shipped = await readFile(join(repoRoot, 'models', 'detector', 'weights.bin'));
    const weights = new Float32Array(shipped.buffer.slice(shipped.byteOffset, shipped.byteOffset + shipped.length));
    const dirs: string[] = [];
    for (const [tag, shift] of [['u', 0], ['v', 3]] as const) {
      const dir = await markedCopy(tag);
      await writeFile(join(dir, 'detector', 'weights.bin'), Buffer.from(weights.map((v) => v + shift).buffer));
      dirs.push(dir);
    }
    const out = join(work, 'detector-soup');
    await run(process.execPath, [...cli, ...dirs.flatMap((d) => ['--detector', d]), '--classifier', dirs[1], '--out', out], { cwd: repoRoot });
    const averaged = await readFile(join(out, 'detector', 'weights.bin'));
    const values = new Float32Array(averaged.buffer.slice(averaged.byteOffset, averaged.byteOffset + averaged.length));
    for (const i of [0, 7, weights.length - 1]) expect(values[i]).toBeCloseTo(weights[i] + 1.5, 5);
    expect(await readFile(join(out, 'classifier', 'weights.bin'), 'utf8')).toBe('v-classifier');
    const { training } = JSON.parse(await readFile(join(out, 'spec.json'), 'utf8'));
    expect(training.seed).toBe('u');
    expect(training.detectorRuns[0]).toEqual({ seed: 'u-det' });
    expect(training.detectorRuns[1].averagedDetectors).toEqual(dirs.map((folder, i) => ({ folder, lastRun: { seed: `${'uv'[i]}-det` } })));
    expect(training.classifierRuns).toEqual([{ seed: 'v-cls' }]);
    await expect(readFile(join(out, '.detector-average', 'model.json'))).rejects.toThrow();
  });

  it('refuses to average classifiers of different architectures, and writes nothing', async () => {
    const a = await markedCopy('s');
    const b = await markedCopy('t');
    const manifest = JSON.parse(await readFile(join(b, 'classifier', 'model.json'), 'utf8'));
    manifest.weightsManifest[0].weights[0].shape = [1];
    await writeFile(join(b, 'classifier', 'model.json'), JSON.stringify(manifest));
    const out = join(work, 'mixed');
    expect(await stderrOf(['--detector', a, '--classifier', a, '--classifier', b, '--out', out])).toMatch(/another architecture/);
    await expect(readFile(join(out, 'spec.json'))).rejects.toThrow();
    await expect(readFile(join(out, 'classifier', 'model.json'))).rejects.toThrow();
  });

  it('refuses to average classifiers reading differently normalised crops, and writes nothing', async () => {
    const a = await markedCopy('u');
    const b = await markedCopy('v');
    const spec = JSON.parse(await readFile(join(b, 'spec.json'), 'utf8'));
    spec.spec.classifier.normalisation = CLASSIFIER_INPUTS['lightness-colour'];
    await writeFile(join(b, 'spec.json'), JSON.stringify(spec));
    const out = join(work, 'two-inputs');
    expect(await stderrOf(['--detector', a, '--classifier', a, '--classifier', b, '--out', out])).toMatch(/reads lightness-colour crops, .* rgb: they cannot be averaged/);
    await expect(readFile(join(out, 'spec.json'))).rejects.toThrow();
  });

  it('says what is wrong with a missing folder or option, and writes nothing', async () => {
    expect(await stderrOf(['--detector', join(work, 'none'), '--classifier', join(work, 'none'), '--out', join(work, 'x')])).toMatch(
      /model:combine: cannot read .*none.*spec\.json/,
    );
    expect(await stderrOf(['--detector', join(repoRoot, 'models')])).toContain('usage: npm run model:combine');
    await expect(readFile(join(work, 'x', 'spec.json'))).rejects.toThrow();
  });
});
