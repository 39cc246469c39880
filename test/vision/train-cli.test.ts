import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { initBackend } from '../../server/vision/backend.ts';
import { buildClassifier } from '../../server/vision/architecture.ts';
import { saveLayersModel } from '../../server/vision/model-store.ts';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const cli = ['--import', 'tsx', join(repoRoot, 'server/cli/train-model.ts')];

async function failure(args: string[]): Promise<string> {
  try {
    await run(process.execPath, [...cli, ...args, '--out', join(repoRoot, '.cache', 'never-written')], { cwd: repoRoot });
  } catch (err) {
    expect((err as { code: number }).code).toBe(2);
    const { stderr } = err as { stderr: string };
    expect(stderr).toContain('usage: npm run model:train');
    expect(stderr).not.toContain('    at ');
    return stderr;
  }
  throw new Error(`model:train ${args.join(' ')} did not fail`);
}

/** `work` over `items`, at most `width` at a time, results in order. */
async function mapInBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return results;
}

describe('npm run model:train arguments', () => {
  // one process a case (each loads the training code), a few at a time: the cases are many, the cores few
  const BAD_OPTIONS: [args: string[], message: string][] = [
    [['--stage', 'both'], '--stage must be all, detector or classifier'],
    [['--continue'], '--continue needs --stage detector or --stage classifier'],
    [['--focus', '1.5'], '--focus must be a number from 0 to 1'],
    [['--stage', 'detector', '--crop-at-detected'], '--crop-at-detected needs --stage classifier'],
    [['--detector-lr', '0'], '--detector-lr must be a positive number'],
    [['--hard-negatives'], '--hard-negatives needs --stage classifier'],
    [['--classifier-arch', 'huge'], '--classifier-arch must be small or wide'],
    [['--detector-arch', 'deep'], '--detector-arch must be plain or context'],
    [['--hard-looks', 'half'], '--hard-looks must be a number from 0 to 1'],
    [['--closer-look-windows', '2'], '--closer-look-windows must be a number from 0 to 1'],
    [['--stage', 'classifier', '--closer-look-windows', '0.5'], '--closer-look-windows trains the detector'],
    [['--centre-jitter', '0.6'], '--centre-jitter must be under 0.5'],
    [['--centre-jitter', '0'], '--centre-jitter must be a positive number'],
    [['--stage', 'detector', '--centre-jitter', '0.2'], '--centre-jitter shapes the classifier'],
    [['--scene', '10'], "Unknown option '--scene'"],
    [['--pip-negatives', '0.5'], '--pip-negatives must be a weight of 1 or more'],
    [['--stage', 'classifier', '--pip-negatives', '4'], '--pip-negatives trains the detector'],
    [['--marbled', '1.5'], '--marbled must be a number from 0 to 1'],
    [['--marbled', '0.5'], '--marbled is a share of the focus and hard-look scenes'],
    [['--faint-pips', '1.5'], '--faint-pips must be a number from 0 to 1'],
    [['--crowded', '1.5'], '--crowded must be a number from 0 to 1'],
    [['--occluders', '1.2'], '--occluders must be a number from 0 to 1'],
    [['--leaning', '1.5'], '--leaning must be a number from 0 to 1'],
    [['--stage', 'detector', '--continue', '--detector-negatives', '0.5'], '--detector-negatives must be a weight of 1 or more'],
    [['--stage', 'detector', '--detector-negatives', '4'], '--detector-negatives weighs the false peaks of the detector in --out'],
    [['--stage', 'classifier', '--continue', '--detector-negatives', '4'], 'it needs --stage detector --continue'],
    [['--focus', '0.5', '--faint-pips', '0.5'], '--faint-pips is a share of the marbled scenes'],
    [['--classifier-input', 'hsv'], '--classifier-input must be rgb or lightness-colour'],
    [['--stage', 'detector', '--classifier-input', 'rgb'], "--classifier-input shapes the classifier's crops"],
    [['--pip-map', '0'], '--pip-map must be a positive number'],
    [['--stage', 'detector', '--pip-map', '3'], '--pip-map trains the classifier'],
    [['--stage', 'classifier', '--hard-crops', '2'], '--hard-crops repeats the crops the classifier in --out reads wrong'],
    [['--hard-crops', 'many'], '--hard-crops must be a non-negative integer'],
    [['--light-casts', '2'], '--light-casts must be a number from 0 to 1'],
    [['--light-casts', '0.5', '--no-real'], '--light-casts copies real photos in other light'],
    [['--light-casts', '0.5', '--light-range', 'dusk'], '--light-range must be one of narrow, wide, got dusk'],
    [['--light-range', 'wide'], '--light-range names the light of --light-casts'],
    [['--recolours', '1.5'], '--recolours must be a number from 0 to 1'],
    [['--recolours', '0.5', '--no-real'], '--recolours copies real photos in other colours'],
    [['--marbled-recolours', '2'], '--marbled-recolours must be a number from 0 to 1'],
    [['--marbled-recolours', '1', '--no-real'], '--marbled-recolours copies real photos with marbled dice'],
  ];

  it('names the bad option before any training starts', async () => {
    const stderrs = await mapInBatches(BAD_OPTIONS, 4, ([args]) => failure(args));
    BAD_OPTIONS.forEach(([, message], i) => expect(stderrs[i]).toContain(message));
  }, 600_000);

  it('refuses to continue a wide classifier as a small one, before reading any data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wide-classifier-'));
    try {
      await initBackend('cpu');
      await cp(join(repoRoot, 'models', 'spec.json'), join(dir, 'spec.json'));
      await cp(join(repoRoot, 'models', 'detector'), join(dir, 'detector'), { recursive: true });
      await saveLayersModel(buildClassifier('wide'), join(dir, 'classifier'));
      const args = ['--stage', 'classifier', '--continue', '--classifier-arch', 'small', '--out', dir, '--backend', 'cpu'];
      const err = await run(process.execPath, [...cli, ...args], { cwd: repoRoot }).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(err?.code).toBe(2);
      expect(err?.stderr).toContain('--classifier-arch small cannot continue the wide classifier');
      expect(err?.stderr).not.toContain('synthetic  [');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints its usage for --help and trains nothing', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--help', '--out', join(repoRoot, '.cache', 'never-written')], { cwd: repoRoot });
    expect(stdout).toContain('usage: npm run model:train');
    expect(stdout).toContain('--pip-negatives W');
  });
});
