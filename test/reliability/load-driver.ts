/**
 * Load on the real service (a child process on 127.0.0.1): several tables each played by a controller
 * over socket.io (whole games from the engine's built-in policy, with undo-and-redo cycles, one command
 * in flight per table), and many watching socket.io clients spread over the tables. Measures commands
 * per second, command round trips, how late state pushes reach watchers (receive time − the snapshot's
 * serverTime; same machine, same clock), and the server's memory (RSS and V8 heap, sampled through an
 * IPC preload, after a full GC so the heap figure is live data) with a least-squares slope. Used by bench/load.bench.ts and bench/soak.ts.
 */
import { Worker } from 'node:worker_threads';
import { io as connect, type Socket } from 'socket.io-client';
import type { GameCommand } from '../../server/games/game-module.ts';
import { yorktownAdapter } from '../../server/table/yorktown-adapter.ts';
import { startServer, tempSetup, TEST_PIN, type ServerProcess } from './server-process.ts';

export interface LoadOptions {
  tables: number;
  watchers: number;
  durationMs: number;
  /** memory sample period */
  sampleMs?: number;
  /** progress lines (stderr) */
  progress?: (line: string) => void;
}

export interface MemorySample {
  t: number;
  rss: number;
  heapUsed: number;
  cpuMicros: number;
}

export interface LoadReport {
  tables: number;
  watchers: number;
  seconds: number;
  commands: number;
  accepted: number;
  rejected: number;
  /** why commands were refused (code: command type → count) */
  rejectedBy: Record<string, number>;
  commandsPerSecond: number;
  acceptedPerSecond: number;
  commandRoundTripMs: Percentiles;
  pushes: number;
  pushLatencyMs: Percentiles;
  pushesLost: number;
  memory: {
    samples: number;
    rssStartMiB: number;
    rssEndMiB: number;
    rssMaxMiB: number;
    heapStartMiB: number;
    heapEndMiB: number;
    heapMaxMiB: number;
    /** least-squares slope over the second half of the run (after warm-up) */
    rssSlopeMiBPerMin: number;
    heapSlopeMiBPerMin: number;
  };
  /** the server process's CPU time over the load phase, in % of one core */
  serverCpuPercent: number;
  /** size of one state push as JSON (the last snapshot a watcher got) */
  snapshotBytes: number;
  serverErrors: number;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Keeps at most `cap` values, a uniform sample of everything offered (reservoir sampling). */
class Reservoir {
  readonly values: number[] = [];
  seen = 0;
  constructor(private readonly cap: number) {}
  add(v: number): void {
    this.seen++;
    if (this.values.length < this.cap) this.values.push(v);
    else {
      const j = Math.floor(Math.random() * this.seen);
      if (j < this.cap) this.values[j] = v;
    }
  }
  percentiles(): Percentiles {
    const s = [...this.values].sort((a, b) => a - b);
    const at = (q: number) => (s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))]);
    const r = (x: number) => Math.round(x * 100) / 100;
    return { p50: r(at(0.5)), p95: r(at(0.95)), p99: r(at(0.99)), max: r(s.length ? s[s.length - 1] : 0) };
  }
}

export function slopePerMinute(points: { t: number; v: number }[]): number {
  if (points.length < 3) return 0;
  const n = points.length;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const mv = points.reduce((a, p) => a + p.v, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.v - mv);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60_000;
}

const MEMORY_PRELOAD =
  'data:text/javascript,' +
  encodeURIComponent('if (process.send) { const t = setInterval(() => { try { if (globalThis.gc) globalThis.gc(); const m = process.memoryUsage(); const c = process.cpuUsage(); process.send({ mem: { rss: m.rss, heapUsed: m.heapUsed, cpuMicros: c.user + c.system } }); } catch {} }, Number(process.env.FD_MEM_SAMPLE_MS || 1000)); t.unref(); }');

/** A worker thread's code that registers tsx in the thread, then runs the TypeScript module. */
function tsWorkerBootstrap(module: URL): string {
  const api = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(module.href)}); });`;
}

function socketTo(url: string, auth: Record<string, unknown>): Promise<Socket> {
  const s = connect(url, { auth, transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/** A table's endless stream of sensible commands: whole games, and every 15th accepted command undone and sent again. */
class CommandStream {
  private plan: GameCommand[] = [];
  private next = 0;
  private seed: number;
  private redo: GameCommand | null = null;
  private sinceUndo = 0;
  constructor(seed: number) {
    this.seed = seed;
  }
  take(): GameCommand {
    if (this.redo) {
      const c = this.redo;
      this.redo = null;
      return c;
    }
    if (this.next >= this.plan.length) {
      this.plan = yorktownAdapter.attractPlan(this.seed++);
      this.next = 0;
    }
    return this.plan[this.next++];
  }
  accepted(command: GameCommand): GameCommand | null {
    if (command.type === 'undo' || command.type === 'newGame') return null;
    if (++this.sinceUndo < 15) return null;
    this.sinceUndo = 0;
    this.redo = command;
    return { type: 'undo' };
  }
  /** a refusal (the plan derailed, or an undo the rules refuse, e.g. past the start of the game): start a new game */
  derailed(): void {
    this.redo = null;
    this.next = this.plan.length;
  }
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const progress = o.progress ?? (() => {});
  const tableIds = Array.from({ length: o.tables }, (_, i) => `t${i + 1}`);
  const setup = tempSetup(tableIds.map((id) => ({ id, name: id })));
  const memory: MemorySample[] = [];
  let server: ServerProcess | null = null;
  const sockets: Socket[] = [];
  try {
    server = await startServer({
      dataDir: setup.dataDir,
      configFile: setup.configFile,
      nodeArgs: ['--expose-gc', '--import', MEMORY_PRELOAD],
      ipc: true,
      env: { FD_MEM_SAMPLE_MS: String(o.sampleMs ?? 1000) },
    });
    const t0 = Date.now();
    server.child.on('message', (m: { mem?: { rss: number; heapUsed: number; cpuMicros: number } }) => {
      if (m?.mem) memory.push({ t: Date.now() - t0, rss: m.mem.rss, heapUsed: m.mem.heapUsed, cpuMicros: m.mem.cpuMicros });
    });
    const url = server.url;
    // watchers, round-robin over the tables, in a worker thread of their own
    const watcherThread =
      o.watchers > 0 ? new Worker(tsWorkerBootstrap(new URL('./watchers-worker.ts', import.meta.url)), { eval: true, workerData: { url, tables: tableIds, count: o.watchers } }) : null;
    if (watcherThread) {
      await new Promise<void>((resolve, reject) => {
        watcherThread.once('message', () => resolve());
        watcherThread.once('error', reject);
      });
    }
    progress(`load: ${o.watchers} watchers on ${o.tables} tables connected`);
    const roundTrip = new Reservoir(200_000);
    let accepted = 0;
    let rejected = 0;
    const rejectedBy: Record<string, number> = {};
    const start = Date.now();
    const end = start + o.durationMs;
    const controllers = await Promise.all(tableIds.map((table) => socketTo(url, { table, pin: TEST_PIN })));
    sockets.push(...controllers);
    let lastReport = start;
    await Promise.all(
      controllers.map(async (c, i) => {
        const stream = new CommandStream(1000 * (i + 1));
        let pending: GameCommand | null = null;
        while (Date.now() < end) {
          const command: GameCommand = pending ?? stream.take();
          pending = null;
          const sent = performance.now();
          const ack = (await c.timeout(30_000).emitWithAck('command', command)) as { ok: boolean; error?: { code: string } };
          roundTrip.add(performance.now() - sent);
          if (ack.ok) {
            accepted++;
            pending = stream.accepted(command);
          } else {
            rejected++;
            const key = `${ack.error?.code ?? '?'}: ${command.type}`;
            rejectedBy[key] = (rejectedBy[key] ?? 0) + 1;
            stream.derailed();
          }
          if (i === 0 && Date.now() - lastReport > 10_000) {
            lastReport = Date.now();
            const m = memory.at(-1);
            progress(`load: ${Math.round((Date.now() - start) / 1000)} s, ${accepted + rejected} commands, rss ${m ? (m.rss / 2 ** 20).toFixed(1) : '?'} MiB`);
          }
        }
      }),
    );
    const seconds = (Date.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 300)); // the last pushes
    const push = new Reservoir(200_000);
    let pushesLost = 0;
    let snapshotBytes = 0;
    if (watcherThread) {
      const figures = await new Promise<{ pushes: number; lost: number; snapshotBytes: number; latencies: number[] }>((resolve) => {
        watcherThread.once('message', resolve);
        watcherThread.postMessage({ stop: true });
      });
      for (const v of figures.latencies) push.add(v);
      push.seen = figures.pushes;
      pushesLost = figures.lost;
      snapshotBytes = figures.snapshotBytes;
      await watcherThread.terminate();
    }
    const mib = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
    const later = memory.filter((m) => m.t >= memory[Math.floor(memory.length / 2)]?.t);
    const during = memory.filter((m) => m.t >= start - t0);
    const [cpuFirst, cpuLast] = [during[0], during.at(-1)];
    const serverCpuPercent = cpuFirst && cpuLast && cpuLast.t > cpuFirst.t ? Math.round(((cpuLast.cpuMicros - cpuFirst.cpuMicros) / 1000 / (cpuLast.t - cpuFirst.t)) * 100) : 0;
    const serverErrors = server.lines.filter((l) => /"level":(50|60)/.test(l)).length;
    return {
      tables: o.tables,
      watchers: o.watchers,
      seconds: Math.round(seconds * 10) / 10,
      commands: accepted + rejected,
      accepted,
      rejected,
      rejectedBy,
      commandsPerSecond: Math.round(((accepted + rejected) / seconds) * 10) / 10,
      acceptedPerSecond: Math.round((accepted / seconds) * 10) / 10,
      commandRoundTripMs: roundTrip.percentiles(),
      pushes: push.seen,
      pushLatencyMs: push.percentiles(),
      pushesLost,
      memory: {
        samples: memory.length,
        rssStartMiB: mib(memory[0]?.rss ?? 0),
        rssEndMiB: mib(memory.at(-1)?.rss ?? 0),
        rssMaxMiB: mib(Math.max(0, ...memory.map((m) => m.rss))),
        heapStartMiB: mib(memory[0]?.heapUsed ?? 0),
        heapEndMiB: mib(memory.at(-1)?.heapUsed ?? 0),
        heapMaxMiB: mib(Math.max(0, ...memory.map((m) => m.heapUsed))),
        rssSlopeMiBPerMin: Math.round(slopePerMinute(later.map((m) => ({ t: m.t, v: m.rss / 2 ** 20 }))) * 100) / 100,
        heapSlopeMiBPerMin: Math.round(slopePerMinute(later.map((m) => ({ t: m.t, v: m.heapUsed / 2 ** 20 }))) * 100) / 100,
      },
      serverCpuPercent,
      snapshotBytes,
      serverErrors,
    };
  } finally {
    for (const s of sockets) s.close();
    await server?.kill('SIGTERM');
    setup.cleanup();
  }
}
