import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { syntheticSetLook } from '../../server/synth/test-set.ts';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const cli = ['--import', 'tsx', join(repoRoot, 'server/cli/dice-eval.ts')];

describe('npm run dice:eval', () => {
  it('exits non-zero naming the problem on a folder without labelled images', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-empty-'));
    try {
      await expect(run(process.execPath, [...cli, '--data', dir], { cwd: repoRoot })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('no labelled images'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names an image it cannot decode, counts its dice as missed and goes on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-corrupt-'));
    try {
      const set = join(dir, 'set');
      await run(process.execPath, [...cli, '--synthetic', '1', '--seed', '3', '--out', set], { cwd: repoRoot });
      const good = JSON.parse((await run(process.execPath, [...cli, '--data', set], { cwd: repoRoot })).stdout.trim().split('\n').at(-1)!);
      await writeFile(join(set, 'broken.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
      await writeFile(join(set, 'broken.txt'), '0 0.5 0.5 0.1 0.1\n2 0.25 0.25 0.1 0.1\n');
      const predictionsFile = join(dir, 'predictions.json');
      const { stdout, stderr } = await run(process.execPath, [...cli, '--data', set, '--predictions', predictionsFile], { cwd: repoRoot });
      expect(stderr).toMatch(/broken\.jpg: .*its 2 labelled dice count as missed/);
      expect(stdout).toContain('images that could not be read (their dice counted as missed): broken.jpg');
      // the mean average precision over the faces, published readers' figure
      expect(stdout).toMatch(/^mAP \d+\.\d % \(AP by face 1: (\d+\.\d %|-), 2: /m);
      const figures = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(figures).toMatchObject({ images: good.images + 1, dice: good.dice + 2 });
      expect(figures.recall).toBeCloseTo((good.recall * good.dice) / (good.dice + 2), 3);
      const predictions = JSON.parse(await readFile(predictionsFile, 'utf8'));
      expect(predictions.find((p: { image: string }) => p.image === 'broken.jpg')).toMatchObject({ dice: [], error: expect.stringContaining('cannot decode') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints its usage for --help, and with the error for an unknown flag', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--help'], { cwd: repoRoot });
    expect(stdout).toContain('usage: npm run dice:eval -- --data DIR');
    await expect(run(process.execPath, [...cli, '--dta', repoRoot], { cwd: repoRoot })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/dice:eval: Unknown option '--dta'[^]*usage: npm run dice:eval/),
    });
  });

  it('rejects a threshold outside 0..1 and a model folder without a model', async () => {
    // each refusal comes before any reading: they run side by side
    const refusals: { args: string[]; says?: string; code?: number; noStack?: true }[] = [
      { args: ['--data', repoRoot, '--detect-threshold', '1.5'], says: '--detect-threshold must be a number from 0 to 1' },
      { args: ['--data', repoRoot, '--side-face', '1.2'], says: '--side-face must be a number from 0 to 1' },
      { args: ['--data', repoRoot, '--side-face', '-1'], code: 2, noStack: true },
      { args: ['--data', repoRoot, '--close-camera'], says: '--close-camera goes with --synthetic' },
      { args: ['--data', repoRoot, '--crowded'], says: '--crowded goes with --synthetic' },
      { args: ['--data', repoRoot, '--by-look'], code: 2, says: '--by-look goes with --synthetic N' },
      { args: ['--synthetic', '1', '--close-camera', '--crowded'], code: 2, says: '--close-camera and --crowded are two different sets' },
      { args: ['--data', repoRoot, '--occluded'], says: '--occluded goes with --synthetic' },
      { args: ['--data', repoRoot, '--large-frame'], says: '--large-frame goes with --synthetic' },
      { args: ['--data', repoRoot, '--table', 'marbled'], says: '--table goes with --synthetic' },
      { args: ['--synthetic', '1', '--table', 'pink'], code: 2, says: '--table must be one of black, red, blue, green, yellow, purple, translucent, marbled, white, got "pink"' },
      { args: ['--synthetic', '1', '--table', 'red', '--crowded'], says: '--crowded and --table are two different sets' },
      { args: ['--data', repoRoot, '--fine-look', 'maybe'], code: 2, says: '--fine-look must be on or off, got "maybe"' },
    ];
    const failures = await Promise.all(
      refusals.map((r) => run(process.execPath, [...cli, ...r.args], { cwd: repoRoot }).then(() => null, (err: { code: number; stderr: string }) => err)),
    );
    refusals.forEach((r, i) => {
      const failed = failures[i];
      const what = r.args.join(' ');
      expect(failed, `${what} should be refused`).not.toBeNull();
      if (r.says) expect(failed!.stderr, what).toContain(r.says);
      if (r.code !== undefined) expect(failed!.code, what).toBe(r.code);
      if (r.noStack) expect(failed!.stderr, what).not.toContain('    at ');
    });
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-model-'));
    try {
      await run(process.execPath, [...cli, '--synthetic', '1', '--seed', '3', '--out', join(dir, 'set'), '--model', join(dir, 'nomodel')], { cwd: repoRoot }).then(
        () => expect.unreachable('should fail'),
        (err: { code: number; stderr: string }) => {
          expect(err.code).toBe(1);
          expect(err.stderr).toContain('nomodel');
          expect(err.stderr).not.toContain('    at ');
        },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // close camera: 1–6 dice a frame, 30–120 px across; crowded: 13–25 a frame (a die with no room left out)
  it.each([
    ['--close-camera', 1, 6],
    ['--crowded', 11, 25],
    ['--large-frame', 1, 25],
    ['--table=marbled', 1, 12],
  ])('writes the synthetic set of %s when asked', async (flag, fewest, most) => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-kind-'));
    try {
      const { stdout } = await run(process.execPath, [...cli, '--synthetic', '1', '--seed', '3', flag, '--out', join(dir, 'set')], { cwd: repoRoot });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!).images).toBe(1);
      const labels = (await readFile(join(dir, 'set', 'synthetic_0000.txt'), 'utf8')).trim().split('\n');
      expect(labels.length).toBeGreaterThanOrEqual(fewest);
      expect(labels.length).toBeLessThanOrEqual(most);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sets the readings on hidden dice aside with --occluded, counting them on a line of their own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-occluded-'));
    try {
      const set = join(dir, 'set');
      const { stdout } = await run(process.execPath, [...cli, '--synthetic', '3', '--seed', '3', '--occluded', '--out', set], { cwd: repoRoot });
      const hidden: Record<string, unknown[]> = JSON.parse(await readFile(join(set, 'hidden.json'), 'utf8'));
      const count = Object.values(hidden).reduce((n, list) => n + list.length, 0);
      expect(count).toBeGreaterThan(0);
      const line = stdout.split('\n').find((l) => l.startsWith('hidden dice'))!;
      const [total, notSure, guessed, notFound] = line.match(/\d+/g)!.map(Number);
      expect(total).toBe(count);
      expect(notSure + guessed + notFound).toBe(count);
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!).images).toBe(3);
      await writeFile(join(set, 'hidden.json'), '{"synthetic_0000.jpg": [{"x": 1}]}');
      await expect(run(process.execPath, [...cli, '--data', set], { cwd: repoRoot })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('"synthetic_0000.jpg" die 0 needs x, y, w, h as fractions of the frame'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sets the readings on leaning dice aside with --leaning, on a line for dice leaning on dice and one for the wall', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-leaning-'));
    try {
      const set = join(dir, 'set');
      const { stdout } = await run(process.execPath, [...cli, '--synthetic', '4', '--seed', '5', '--leaning', '--out', set], { cwd: repoRoot });
      let all = 0;
      for (const [file, start] of [['leaning-on-dice.json', 'dice leaning on another die'], ['leaning-on-wall.json', 'dice leaning against the tray wall']]) {
        const listed: Record<string, unknown[]> = JSON.parse(await readFile(join(set, file), 'utf8'));
        const count = Object.values(listed).reduce((n, list) => n + list.length, 0);
        const line = stdout.split('\n').find((l) => l.startsWith(start))!;
        const [total, notSure, guessed, notFound] = line.match(/\d+/g)!.map(Number);
        expect(total).toBe(count);
        expect(notSure + guessed + notFound).toBe(count);
        all += count;
      }
      expect(all).toBeGreaterThan(0);
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!).images).toBe(4);
      await expect(run(process.execPath, [...cli, '--data', set, '--leaning'], { cwd: repoRoot })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--leaning goes with --synthetic'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads every image as another camera would with --camera, and names the variations it knows', async () => {
    await expect(run(process.execPath, [...cli, '--data', repoRoot, '--camera', 'sepia'], { cwd: repoRoot })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--camera must be one of half, third, double, square, warm, tungsten, cool, candle, skylight, negative, red, blue, marbled, dim, soft, jpeg, got "sepia"'),
    });
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-camera-'));
    try {
      const set = join(dir, 'set');
      const preds = join(dir, 'pred.json');
      await run(process.execPath, [...cli, '--synthetic', '1', '--seed', '3', '--out', set], { cwd: repoRoot });
      const { stdout } = await run(process.execPath, [...cli, '--data', set, '--camera', 'half', '--predictions', preds], { cwd: repoRoot });
      expect(stdout).toContain('camera variation: half, the frame at half size');
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!).images).toBe(1);
      expect(JSON.parse(await readFile(preds, 'utf8'))[0]).toMatchObject({ image: 'synthetic_0000.jpg', width: 320, height: 240 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes a synthetic set, predictions, and the figures as the last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-synth-'));
    try {
      const preds = join(dir, 'pred.json');
      const { stdout } = await run(process.execPath, [...cli, '--synthetic', '2', '--seed', '3', '--out', join(dir, 'set'), '--predictions', preds], { cwd: repoRoot });
      const last = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(Object.keys(last)).toEqual(['images', 'dice', 'faceAccuracy', 'recall', 'precision', 'wholeRollAccuracy', 'msPerImageMedian', 'backend']);
      expect(last.images).toBe(2);
      expect(stdout).toContain('label\\pred');
      const written = JSON.parse(await readFile(preds, 'utf8'));
      expect(written).toHaveLength(2);
      expect(written[0]).toMatchObject({ image: 'synthetic_0000.jpg', width: 640, height: 480 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('splits the figures by look with --by-look, the figures still the last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-eval-looks-'));
    try {
      const { stdout } = await run(process.execPath, [...cli, '--synthetic', '3', '--seed', '3', '--by-look', '--out', join(dir, 'set')], { cwd: repoRoot });
      const lines = stdout.trim().split('\n');
      expect(JSON.parse(lines.at(-1)!).images).toBe(3);
      const head = lines.findIndex((l) => /^look\s+frames\s+dice\s+right\s+face\s+extra$/.test(l));
      expect(head).toBeGreaterThan(0);
      const rows = lines.slice(head + 1, -1).map((l) => l.split(/\s{2,}/));
      const looks = [0, 1, 2].map((i) => syntheticSetLook(i, 3)).map((l) => (l === 'any' ? 'mixed' : l));
      expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining([...new Set(looks)]));
      // each frame counted once under its own look
      const ownLooks = rows.filter((r) => !r[0].startsWith('every look'));
      expect(ownLooks.reduce((n, r) => n + Number(r[1]), 0)).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
