/**
 * Test helpers: build the firmware with make, and drive firmware/sim/build/fd_sim (the simavr
 * harness) through its stdin/stdout control channel.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const FIRMWARE_DIR = join(import.meta.dirname, '..', '..', 'firmware');
export const ELF = join(FIRMWARE_DIR, 'build', 'flightdeck_box.elf');
export const SIM = join(FIRMWARE_DIR, 'sim', 'build', 'fd_sim');

/** The tools the build needs, or the names of the missing ones. */
export function missingTools(): string[] {
  const need = ['make', 'avr-gcc', 'avr-size', 'g++', 'gcc'];
  const missing = need.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
  if (!existsSync('/usr/include/simavr/sim_avr.h')) missing.push('libsimavr-dev');
  if (!existsSync('/usr/share/arduino/hardware/arduino/avr/cores/arduino/Arduino.h')) missing.push('arduino-core-avr');
  return missing;
}

export function make(target: string): string {
  const r = spawnSync('make', ['-C', FIRMWARE_DIR, target], { encoding: 'utf8', timeout: 300_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`make ${target} failed (${r.status ?? r.signal}):\n${out.slice(-4000)}`);
  return out;
}

export interface PinState {
  t: number;
  pins: Record<string, { level: number; edges: number }>;
}

export class SimulatedBox {
  private proc: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiters: { match: RegExp; resolve: (line: string) => void }[] = [];
  readonly output: string[] = [];
  private exited = false;

  private constructor() {
    this.proc = spawn(SIM, [ELF]);
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d: string) => this.onData(d));
    this.proc.stderr.on('data', (d: Buffer) => this.output.push(`stderr: ${d.toString()}`));
    this.proc.on('exit', () => {
      this.exited = true;
    });
  }

  static async start(): Promise<{ sim: SimulatedBox; pty: string }> {
    const sim = new SimulatedBox();
    const line = await sim.waitLine(/^PTY /, 10_000);
    return { sim, pty: line.slice(4).trim() };
  }

  private onData(d: string): void {
    this.buffer += d;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.output.push(line);
      const i = this.waiters.findIndex((w) => w.match.test(line));
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(line);
    }
  }

  private waitLine(match: RegExp, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`simulator said no ${match} within ${timeoutMs} ms; output:\n${this.output.slice(-20).join('\n')}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }

  private async command(cmd: string, answer: RegExp): Promise<string> {
    if (this.exited) throw new Error('the simulator has exited');
    const p = this.waitLine(answer, 10_000);
    this.proc.stdin.write(`${cmd}\n`);
    const line = await p;
    if (line.startsWith('ERR')) throw new Error(`simulator: ${line}`);
    return line;
  }

  press(button: string, ms: number): Promise<string> {
    return this.command(`press ${button} ${ms}`, /^(OK|ERR)/);
  }

  async pins(): Promise<PinState> {
    const line = await this.command('pins', /^(PINS|ERR)/);
    const state: PinState = { t: 0, pins: {} };
    for (const field of line.split(' ').slice(1)) {
      const [k, v] = field.split('=');
      if (k === 't') state.t = Number(v);
      else {
        const [level, edges] = v.split(',').map(Number);
        state.pins[k] = { level, edges };
      }
    }
    return state;
  }

  /** Freezes the whole simulated board (the box stops answering), and lets it run again. */
  pause(): void {
    this.proc.kill('SIGSTOP');
  }

  resume(): void {
    this.proc.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    this.resume();
    const gone = new Promise((r) => this.proc.once('exit', r));
    this.proc.stdin.end('quit\n');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    await gone;
    clearTimeout(timer);
  }
}

/** Polls check() until it returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
