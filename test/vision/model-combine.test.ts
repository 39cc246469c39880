import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

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

  it('says what is wrong with a missing folder or option, and writes nothing', async () => {
    expect(await stderrOf(['--detector', join(work, 'none'), '--classifier', join(work, 'none'), '--out', join(work, 'x')])).toMatch(
      /model:combine: cannot read .*none.*spec\.json/,
    );
    expect(await stderrOf(['--detector', join(repoRoot, 'models')])).toContain('usage: npm run model:combine');
    await expect(readFile(join(work, 'x', 'spec.json'))).rejects.toThrow();
  });
});
