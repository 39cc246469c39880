/**
 * Teaching the dice model a table's own dice from the dashboard: runs `npm run model:adapt` on the
 * saved dice photos as a child process (its own process, at a lower CPU priority, so the service's
 * stopwatch, camera and sockets keep answering while it trains for minutes), follows its progress
 * (`--progress json`) and reports how it ended. One teaching at a time; cancelling kills the child.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckFigures } from './model-store.ts';

const ADAPT_CLI = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'adapt-model.ts');
const REPO_ROOT = resolve(dirname(ADAPT_CLI), '..', '..');
/** Lower than the service (0): the training takes what the service leaves. */
export const TEACHING_PRIORITY = 10;
const NICE = '/usr/bin/nice';

export type Teaching =
  | { state: 'idle' }
  | { state: 'teaching'; startedAt: string; photos: number; stage: string; done: number; total: number }
  | { state: 'taught'; startedAt: string; endedAt: string; photos: number; taught: number; written: boolean; before: CheckFigures | null; after: CheckFigures | null; leftOut: string[]; out: string | null }
  | { state: 'failed'; startedAt: string; endedAt: string; photos: number; message: string }
  | { state: 'cancelled'; startedAt: string; endedAt: string; photos: number };

export interface TeachRequest {
  /** the labelled photos (the dashboard's dice-samples folder) */
  photosDir: string;
  photos: number;
  /** the model taught from */
  modelDir: string;
  /** where the taught model is written (only when it reads the photos kept back at least as well) */
  outDir: string;
}

export interface ModelTeacherOptions {
  /** more model:adapt flags (tests make the run short with them) */
  extraArgs?: readonly string[];
  /** the child's CPU priority (default TEACHING_PRIORITY; the benchmark compares 0) */
  priority?: number;
  /** called once the child has ended, with how */
  onEnd?: (result: Teaching) => void | Promise<void>;
}

export class TeachingError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** The child's last JSON line on stdout, when it is model:adapt's result. */
function resultOf(stdout: string): { written?: boolean; before?: CheckFigures | null; after?: CheckFigures | null; out?: string | null; tableDice?: { teachPhotos?: number; leftOut?: string[] } } | null {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    const parsed = JSON.parse(last);
    return parsed && typeof parsed === 'object' && typeof parsed.written === 'boolean' ? parsed : null;
  } catch {
    return null;
  }
}

/** Why the child failed, in its own words: model:adapt's "model:adapt: …" line, else its last lines. */
function failureOf(stderrTail: readonly string[], code: number | null, signal: string | null): string {
  const said = [...stderrTail].reverse().find((l) => l.startsWith('model:adapt: ') || l.startsWith('model:adapt failed: '));
  if (said) return said.replace(/^model:adapt( failed)?: /, '');
  const last = stderrTail.filter((l) => l.trim() !== '').slice(-3).join(' ');
  return `model:adapt ended with ${signal ?? `exit code ${code}`}${last ? `: ${last}` : ''}`;
}

export class ModelTeacher {
  private teaching: Teaching = { state: 'idle' };
  private child: ChildProcess | null = null;
  private cancelled = false;
  private ended: Promise<void> = Promise.resolve();

  constructor(private readonly options: ModelTeacherOptions = {}) {}

  status(): Teaching {
    return this.teaching;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts teaching; refused while one runs. */
  start(request: TeachRequest): Teaching {
    if (this.child) throw new TeachingError('teachingRunning', 'The dice model is being taught already: wait for it, or stop it.');
    const startedAt = new Date().toISOString();
    // the child runs in the repository: folders are given to it whole
    const args = ['--import', 'tsx', ADAPT_CLI, '--photos', resolve(request.photosDir), '--out', resolve(request.outDir), '--model', resolve(request.modelDir), '--progress', 'json', ...(this.options.extraArgs ?? [])];
    const priority = this.options.priority ?? TEACHING_PRIORITY;
    // Linux sets a priority per thread: `nice` starts node niced, so every thread it makes is niced too
    const niced = existsSync(NICE);
    const child = niced
      ? spawn(NICE, ['-n', String(priority), process.execPath, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.cancelled = false;
    if (!niced && child.pid !== undefined) {
      try {
        setPriority(child.pid, priority);
      } catch {
        // not allowed here: it trains at the service's priority
      }
    }
    this.teaching = { state: 'teaching', startedAt, photos: request.photos, stage: 'check', done: 0, total: 0 };
    let stdout = '';
    const stderrTail: string[] = [];
    let partial = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-1_000_000);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split(/\r?\n|\r/);
      partial = lines.pop() ?? '';
      for (const line of lines) this.stderrLine(line, stderrTail);
    });
    this.ended = new Promise<void>((resolveEnded) => {
      let done = false;
      const end = async (code: number | null, signal: string | null, spawnError?: Error) => {
        if (done) return;
        done = true;
        if (partial) this.stderrLine(partial, stderrTail);
        const endedAt = new Date().toISOString();
        const base = { startedAt, endedAt, photos: request.photos };
        const result = resultOf(stdout);
        let ended: Teaching;
        if (this.cancelled) {
          ended = { state: 'cancelled', ...base };
          await rm(`${resolve(request.outDir)}.part`, { recursive: true, force: true }).catch(() => undefined);
        } else if (spawnError) {
          ended = { state: 'failed', ...base, message: `model:adapt could not start: ${spawnError.message}` };
        } else if (result && (code === 0 || (code === 1 && !result.written))) {
          ended = { state: 'taught', ...base, taught: result.tableDice?.teachPhotos ?? 0, written: result.written!, before: result.before ?? null, after: result.after ?? null, leftOut: result.tableDice?.leftOut ?? [], out: result.out ?? null };
        } else {
          ended = { state: 'failed', ...base, message: failureOf(stderrTail, code, signal) };
        }
        // reported once what follows from it is done (the cameras reading a model written): until then it is still running
        try {
          await this.options.onEnd?.(ended);
        } finally {
          this.teaching = ended;
          this.child = null;
          resolveEnded();
        }
      };
      child.on('error', (err) => void end(null, null, err));
      child.on('close', (code, signal) => void end(code, signal));
    });
    return this.teaching;
  }

  private stderrLine(line: string, tail: string[]): void {
    if (line.startsWith('{"progress":')) {
      try {
        const { stage, done, total } = JSON.parse(line).progress;
        if (this.teaching.state === 'teaching' && typeof stage === 'string' && Number.isFinite(done) && Number.isFinite(total)) {
          this.teaching = { ...this.teaching, stage: stage === 'classifier' && done >= total ? 'check' : stage, done, total };
        }
        return;
      } catch {
        // not a progress line after all: kept as what it said
      }
    }
    tail.push(line);
    if (tail.length > 40) tail.shift();
  }

  /** Stops the teaching running (nothing is written); resolves once the child has ended. */
  async cancel(): Promise<boolean> {
    const child = this.child;
    if (!child) return false;
    this.cancelled = true;
    child.kill('SIGTERM');
    const killHard = setTimeout(() => child.kill('SIGKILL'), 5_000);
    killHard.unref();
    await this.ended;
    clearTimeout(killHard);
    return true;
  }

  /** Resolves when the teaching running (if any) has ended and been reported. */
  whenEnded(): Promise<void> {
    return this.ended;
  }
}
