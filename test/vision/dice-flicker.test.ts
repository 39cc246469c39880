import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sharedDir } from '../../server/vision/yolo-dataset.ts';
import { syntheticSetScene } from '../../server/synth/test-set.ts';
import type { SceneDie } from '../../server/synth/scene.ts';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const cli = ['--import', 'tsx', join(repoRoot, 'server/cli/dice-flicker.ts')];
const validDir = join(sharedDir(repoRoot), 'datasets', 'webcam-white-dice', 'valid');
const haveReal = existsSync(validDir);
if (!haveReal) console.warn(`real dice photos not found at ${validDir}: the dice:flicker run on real photos is skipped (set FLIGHTDECK_SHARED)`);

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);

describe('npm run dice:flicker', () => {
  it('films synthetic still trays through the camera path and reports how steady they read', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--synthetic', '2', '--seed', '1', '--frames', '7'], { cwd: repoRoot });
    expect(stdout).toContain('data: synthetic coloured test set, seed 1, 2 scenes');
    expect(stdout).toMatch(/reader alone: \d+ changes in \d+ die-frames/);
    const f = lastJson(stdout);
    expect(f).toMatchObject({ scenes: 2, frames: 14, backend: expect.any(String) });
    // the first frame of a tray has nothing to compare with; three still frames later it is read
    expect(f.framesRead).toBeGreaterThanOrEqual(6);
    expect(f.framesRead).toBeLessThanOrEqual(8);
    expect(f.readings).toBeGreaterThanOrEqual(1);
    expect(f.lastReadingRight).toBeLessThanOrEqual(2);
    expect(f.rollChanges).toBeLessThanOrEqual(f.readingsAfterFirst);
    expect(f.traysWithRollChange).toBeLessThanOrEqual(f.rollChanges);
  });

  it('films the large-frame set\'s HD trays too', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--synthetic', '1', '--seed', '2', '--large-frame', '--frames', '5'], { cwd: repoRoot });
    expect(stdout).toContain('data: synthetic large-frame test set, seed 2, 1 scenes');
    expect(lastJson(stdout)).toMatchObject({ scenes: 1, frames: 5 });
  });

  it('follows the leaning dice of the leaning set apart, as dice:eval sets them aside', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--synthetic', '2', '--seed', '1', '--leaning', '--frames', '6'], { cwd: repoRoot });
    expect(stdout).toContain('data: synthetic leaning test set, seed 1, 2 scenes');
    const scenes = [0, 1].map((i) => syntheticSetScene(i, 1, 'leaning').scene.dice);
    const count = (is: (d: SceneDie) => boolean) => scenes.flat().filter(is).length;
    const onDice = count((d) => d.leansOn === 'die');
    const f = lastJson(stdout);
    expect(f.dice).toBe(count((d) => !d.unreadable));
    const leaning = (f.setAside as { kind: string; dice: number; notSure: number; guessed: number; notFound: number }[]).map(({ kind, dice, notSure, guessed, notFound }) => ({ kind, dice, sum: notSure + guessed + notFound }));
    expect(leaning.reduce((n, a) => n + a.dice, 0)).toBe(count((d) => d.unreadable === 'cocked'));
    expect(onDice).toBeGreaterThan(0);
    expect(leaning).toContainEqual({ kind: 'leaningOnDice', dice: onDice, sum: onDice });
    expect(stdout).toMatch(/dice leaning on another die, not labelled, followed apart: \d+; in the last frame the dashboard showed "not sure" \d+, a face \d+, nothing \d+/);
  });

  it('runs the camera path with the settings given, as a camera config would', async () => {
    const old = '{"minVotes":2,"switchVotes":4,"memory":5,"switchLead":0}';
    const { stdout } = await run(process.execPath, [...cli, '--synthetic', '1', '--seed', '1', '--frames', '6', '--stabilizer', old, '--settle', '{"stillFrames":3}'], { cwd: repoRoot });
    expect(stdout).toContain('stabiliser: {"window":5,"minVotes":2,"switchVotes":4,"memory":5,"switchLead":0,');
    const f = lastJson(stdout);
    expect(f.stabilizer).toMatchObject({ minVotes: 2, switchVotes: 4, memory: 5, switchLead: 0 });
    expect(f.settle).toMatchObject({ stillFrames: 3, shiftTolerance: 1 });
    // two agreeing reads decide a die with these settings: the first reading comes with the fifth frame, not the sixth
    expect(f.medianFramesToFirstReading).toBe(5);
  });

  it.skipIf(!haveReal)('films real photos (webcam-white-dice/valid) as still trays', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--data', validDir, '--limit', '2', '--frames', '6', '--quality', '85'], { cwd: repoRoot });
    expect(stdout).toContain('2 photos');
    expect(lastJson(stdout)).toMatchObject({ scenes: 2, frames: 12 });
  });

  it('leaves out a photo it cannot decode, names it and goes on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-flicker-'));
    try {
      const set = join(dir, 'set');
      await run(process.execPath, ['--import', 'tsx', join(repoRoot, 'server/cli/dice-eval.ts'), '--synthetic', '1', '--seed', '2', '--out', set], { cwd: repoRoot });
      await writeFile(join(set, 'broken.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
      await writeFile(join(set, 'broken.txt'), '0 0.5 0.5 0.1 0.1\n');
      const { stdout, stderr } = await run(process.execPath, [...cli, '--data', set, '--frames', '4'], { cwd: repoRoot });
      expect(stderr).toMatch(/broken\.jpg left out: cannot decode it/);
      expect(stdout).toContain('photos left out (they could not be decoded): broken.jpg');
      expect(lastJson(stdout)).toMatchObject({ scenes: 1, frames: 4 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a wrong flag with the usage', async () => {
    // each refusal comes before any reading: they run side by side
    const bad: [string[], RegExp][] = [
      [['--synthetic', '2', '--frames', '1'], /--frames must be a whole number from 2 to 1000, got "1"[^]*usage: npm run dice:flicker/],
      [['--synthetic', '2', '--noise=-1'], /--noise must be 0..64 levels/],
      [['--synthetic', '2', '--shift', 'x'], /--shift must be a number, got "x"/],
      [['--synthetic', '2', '--data', repoRoot], /go alone, not together/],
      [['--synthetic', '2', '--quality', '80'], /--limit and --quality go with --data DIR/],
      [['--synthetic', '2', '--close-camera', '--crowded'], /--close-camera and --crowded are two different sets/],
      [['--data', repoRoot, '--crowded'], /--crowded goes with --synthetic N/],
      [['--data', join(repoRoot, 'no-such-folder')], /is not a folder/],
      [['--data', join(repoRoot, 'server')], /no labelled images/],
      [[], /--data DIR or --synthetic N is needed/],
      [['--synthetic', '1', '--stabilizer', '{"minVotes":9}'], /--stabilizer\.minVotes: must be an integer from 1 to 5 \(got 9\)/],
      [['--synthetic', '1', '--stabilizer', '{"votes":2}'], /--stabilizer: unknown field\(s\) votes \(allowed: window, minVotes/],
      [['--synthetic', '1', '--settle', '[1]'], /--settle must be a JSON object, got \[1\]/],
      [['--synthetic', '1', '--settle', 'still'], /--settle must be a JSON object such as/],
    ];
    await Promise.all(
      bad.map(([args, message]) =>
        expect(run(process.execPath, [...cli, ...args], { cwd: repoRoot }), args.join(' ')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(message) }),
      ),
    );
    const { stdout } = await run(process.execPath, [...cli, '--help'], { cwd: repoRoot });
    expect(stdout).toContain('usage: npm run dice:flicker -- --synthetic N');
  });
});
