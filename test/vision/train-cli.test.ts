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

describe('npm run model:train arguments', () => {
  it('names the bad option before any training starts', async () => {
    expect(await failure(['--stage', 'both'])).toContain('--stage must be all, detector or classifier');
    expect(await failure(['--continue'])).toContain('--continue needs --stage detector or --stage classifier');
    expect(await failure(['--focus', '1.5'])).toContain('--focus must be a number from 0 to 1');
    expect(await failure(['--stage', 'detector', '--crop-at-detected'])).toContain('--crop-at-detected needs --stage classifier');
    expect(await failure(['--detector-lr', '0'])).toContain('--detector-lr must be a positive number');
    expect(await failure(['--hard-negatives'])).toContain('--hard-negatives needs --stage classifier');
    expect(await failure(['--classifier-arch', 'huge'])).toContain('--classifier-arch must be small or wide');
    expect(await failure(['--detector-arch', 'deep'])).toContain('--detector-arch must be plain or context');
    expect(await failure(['--hard-looks', 'half'])).toContain('--hard-looks must be a number from 0 to 1');
    expect(await failure(['--closer-look-windows', '2'])).toContain('--closer-look-windows must be a number from 0 to 1');
    expect(await failure(['--stage', 'classifier', '--closer-look-windows', '0.5'])).toContain('--closer-look-windows trains the detector');
    expect(await failure(['--centre-jitter', '0.6'])).toContain('--centre-jitter must be under 0.5');
    expect(await failure(['--centre-jitter', '0'])).toContain('--centre-jitter must be a positive number');
    expect(await failure(['--stage', 'detector', '--centre-jitter', '0.2'])).toContain('--centre-jitter shapes the classifier');
    expect(await failure(['--scene', '10'])).toContain("Unknown option '--scene'");
    expect(await failure(['--pip-negatives', '0.5'])).toContain('--pip-negatives must be a weight of 1 or more');
    expect(await failure(['--stage', 'classifier', '--pip-negatives', '4'])).toContain('--pip-negatives trains the detector');
    expect(await failure(['--marbled', '1.5'])).toContain('--marbled must be a number from 0 to 1');
    expect(await failure(['--marbled', '0.5'])).toContain('--marbled is a share of the focus and hard-look scenes');
    expect(await failure(['--faint-pips', '1.5'])).toContain('--faint-pips must be a number from 0 to 1');
    expect(await failure(['--crowded', '1.5'])).toContain('--crowded must be a number from 0 to 1');
    expect(await failure(['--occluders', '1.2'])).toContain('--occluders must be a number from 0 to 1');
    expect(await failure(['--leaning', '1.5'])).toContain('--leaning must be a number from 0 to 1');
    expect(await failure(['--stage', 'detector', '--continue', '--detector-negatives', '0.5'])).toContain('--detector-negatives must be a weight of 1 or more');
    expect(await failure(['--stage', 'detector', '--detector-negatives', '4'])).toContain('--detector-negatives weighs the false peaks of the detector in --out');
    expect(await failure(['--stage', 'classifier', '--continue', '--detector-negatives', '4'])).toContain('it needs --stage detector --continue');
    expect(await failure(['--focus', '0.5', '--faint-pips', '0.5'])).toContain('--faint-pips is a share of the marbled scenes');
    expect(await failure(['--classifier-input', 'hsv'])).toContain('--classifier-input must be rgb or lightness-colour');
    expect(await failure(['--stage', 'detector', '--classifier-input', 'rgb'])).toContain("--classifier-input shapes the classifier's crops");
    expect(await failure(['--pip-map', '0'])).toContain('--pip-map must be a positive number');
    expect(await failure(['--stage', 'detector', '--pip-map', '3'])).toContain('--pip-map trains the classifier');
    expect(await failure(['--stage', 'classifier', '--hard-crops', '2'])).toContain('--hard-crops repeats the crops the classifier in --out reads wrong');
    expect(await failure(['--hard-crops', 'many'])).toContain('--hard-crops must be a non-negative integer');
    expect(await failure(['--light-casts', '2'])).toContain('--light-casts must be a number from 0 to 1');
    expect(await failure(['--light-casts', '0.5', '--no-real'])).toContain('--light-casts copies real photos in other light');
    expect(await failure(['--light-casts', '0.5', '--light-range', 'dusk'])).toContain('--light-range must be one of narrow, wide, got dusk');
    expect(await failure(['--light-range', 'wide'])).toContain('--light-range names the light of --light-casts');
    expect(await failure(['--recolours', '1.5'])).toContain('--recolours must be a number from 0 to 1');
    expect(await failure(['--recolours', '0.5', '--no-real'])).toContain('--recolours copies real photos in other colours');
    expect(await failure(['--marbled-recolours', '2'])).toContain('--marbled-recolours must be a number from 0 to 1');
    expect(await failure(['--marbled-recolours', '1', '--no-real'])).toContain('--marbled-recolours copies real photos with marbled dice');
  });

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
