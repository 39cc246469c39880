/**
 * The real service (`server/main.ts`) as a child process on 127.0.0.1 with a free port, for tests
 * that kill it. Started as ONE node process (`node --import tsx`), so SIGKILL hits the process that
 * holds the database, not a launcher in front of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const TEST_PIN = '2468';

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** every line the process wrote (stdout and stderr); readiness needs LOG_LEVEL info or lower */
  lines: string[];
  /** resolves with the exit code or signal once the process is gone */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  dataDir: string;
  configFile?: string;
  pin?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** extra node options before the script (e.g. --import of a preload) */
  nodeArgs?: string[];
  /** open an IPC channel to the child (process.send in the server process) */
  ipc?: boolean;
}

/** A temporary folder with a tables file: `tables` are TableConfig-like objects (camera/serial default to none). */
export function tempSetup(tables: Record<string, unknown>[]): { dir: string; dataDir: string; configFile: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'flightdeck-rel-'));
  const configFile = join(dir, 'tables.json');
  writeFileSync(configFile, JSON.stringify({ tables: tables.map((t) => ({ camera: 'none', serial: 'none', ...t })) }));
  return { dir, dataDir: join(dir, 'data'), configFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function startServer(options: StartOptions): Promise<ServerProcess> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: '0',
    HOST: '127.0.0.1',
    FLIGHTDECK_DATA: options.dataDir,
    TABLE_PIN: options.pin ?? TEST_PIN,
    LOG_LEVEL: 'info',
    ...(options.configFile ? { FLIGHTDECK_CONFIG: options.configFile } : {}),
    ...(options.env ?? {}),
  };
  if (!options.configFile) delete env.FLIGHTDECK_CONFIG;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not report its port within ${options.timeoutMs ?? 60_000} ms:\n${lines.slice(-20).join('\n')}`));
    }, options.timeoutMs ?? 60_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        lines.push(line);
        const m = /Flight Deck on http:\/\/localhost:(\d+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolvePromise({
            url: `http://127.0.0.1:${m[1]}`,
            pid: child.pid!,
            child,
            lines,
            exited,
            kill: (signal = 'SIGKILL') => {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              return exited;
            },
          });
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}, signal ${signal}) before listening:\n${lines.slice(-20).join('\n')}`));
    });
  });
}

/** Runs the service with these environment variables until it stops by itself (a start that fails): its exit code and all it printed. */
export async function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  return { code, output };
}

/** JSON over HTTP with the table PIN; never throws for HTTP statuses, only for a dead connection. */
export async function call(url: string, method: string, path: string, body?: unknown, pin: string | null = TEST_PIN): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (pin !== null) headers.authorization = `Bearer ${pin}`;
  const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}
