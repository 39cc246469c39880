/**
 * End-to-end latency to a socket.io watcher:
 *  - "dice": a `dice` reading entering the table (as the camera's DiceInput or a manual entry sends it)
 *    → journaled in SQLite (WAL, synchronous=FULL) → state pushed → received by a socket.io client;
 *  - "http": POST /api/tables/:id/commands {dice} → the watcher receiving the state;
 *  - "camera": a settled synthetic frame entering the DiceFeed → vision → stable reading → table →
 *    socket.io client (only when the dice model is present; skipped with the reason otherwise).
 * Median and p95 in ms over the samples.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { cameraConfig, defaultTable } from '../server/config/service-config.ts';
import { buildApp, type BuiltApp } from '../server/http/app.ts';
import type { TableSnapshot } from '../server/http/protocol.ts';
import type { YorktownState } from '../server/games/yorktown1942/index.ts';
import { tableGames } from '../server/table/games.ts';
import { startHardware, type TableHardware } from '../server/table/table-hardware.ts';
import { TableService } from '../server/table/table-service.ts';
import { createDiceReader } from '../server/vision/index.ts';
import { startAttackRoll } from '../test/service/helpers.ts';
import type { DiceReader } from '../server/hardware/ports.ts';
import type { SyntheticTraySource } from '../server/hardware/camera/synthetic-tray-source.ts';

/**
 * A stand-in for the dice model that returns the dice the synthetic tray drew in its settled frame
 * (what a perfect reader would see) and nothing in moving frames: it measures the camera pipeline
 * (settle detector, stabilizer, table, journal, socket.io) without the model's inference time.
 */
function groundTruthReader(source: () => SyntheticTraySource | null): DiceReader {
  return {
    backend: 'ground-truth (no model)',
    read: async (image: Buffer) => {
      const settled = source()?.settledFrame();
      if (!settled || !settled.image.equals(image)) return { width: 640, height: 480, dice: [] };
      return { width: 640, height: 480, dice: settled.dice.map((d) => ({ ...d, score: 1 })) };
    },
  };
}

const PIN = '1357';
const quiet = { info() {}, warn() {}, error() {} };

function stats(samples: number[]): { n: number; medianMs: number; p95Ms: number; maxMs: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, medianMs: +at(0.5).toFixed(2), p95Ms: +at(0.95).toFixed(2), maxMs: +s[s.length - 1].toFixed(2) };
}

function nextState(socket: Socket, accept: (s: TableSnapshot<YorktownState>) => boolean, timeoutMs = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('state', handler);
      reject(new Error(`no matching state push within ${timeoutMs} ms`));
    }, timeoutMs);
    const handler = (s: TableSnapshot<YorktownState>) => {
      if (!accept(s)) return;
      clearTimeout(timer);
      socket.off('state', handler);
      resolve(performance.now());
    };
    socket.on('state', handler);
  });
}

/** the simulated camera's layouts: the same throws every run, so that runs compare (its default seed is the clock) */
const LAYOUT_SEED = 1942;

async function setUp(
  camera: 'none' | 'synthetic',
  dir: string,
  reader: () => Promise<DiceReader> = () => createDiceReader(),
): Promise<{ built: BuiltApp; watcher: Socket; hw: Map<string, TableHardware> | null }> {
  let hw: Map<string, TableHardware> | null = null;
  mkdirSync(dir, { recursive: true });
  const table = { ...defaultTable(), camera: cameraConfig(camera === 'none' ? 'none' : { source: 'synthetic', fps: 10, movingFrames: 2, seed: LAYOUT_SEED }), serial: { kind: 'none' as const } };
  const built = await buildApp({
    service: (log) => new TableService({ config: { tables: [table], pin: PIN }, dbFile: join(dir, `${camera}.sqlite`), games: tableGames, log }),
    hardware:
      camera === 'none'
        ? undefined
        : async (service, log) => {
            const h = await startHardware(service, { reader, log: quiet });
            hw = h.tables;
            return h;
          },
  });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as AddressInfo;
  const watcher = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve) => watcher.once('state', () => resolve()));
  return { built, watcher, hw };
}

/** Readings without 1s that differ each time (so each one is a change the table accepts). */
function readings(n: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < n; i++) out.push([2 + (i % 5), 2 + ((i >> 1) % 5), 2 + ((i >> 2) % 5), 2 + ((i + 1) % 5)]);
  return out;
}

async function manualPath(dir: string, samples: number): Promise<Record<string, unknown>> {
  const { built, watcher } = await setUp('none', dir);
  try {
    startAttackRoll(built.service.first());
    const table = built.service.first();
    const direct: number[] = [];
    const http: number[] = [];
    let last: number[] | null = null;
    for (const faces of readings(samples * 2 + 10)) {
      if (last && last.join() === faces.join()) continue;
      last = faces;
      const seq = table.seq + 1;
      const useHttp = direct.length >= samples;
      const received = nextState(watcher, (s) => s.seq === seq);
      const t0 = performance.now();
      if (useHttp) {
        await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'dice', faces }, headers: { authorization: `Bearer ${PIN}` } });
      } else {
        const ack = table.submit({ type: 'dice', faces }, 'camera');
        if (!ack.ok) throw new Error(ack.error.message);
      }
      const t1 = await received;
      (useHttp ? http : direct).push(t1 - t0);
      if (http.length >= samples) break;
    }
    return { dice: stats(direct.slice(5)), http: stats(http.slice(5)) };
  } finally {
    watcher.close();
    await built.app.close();
  }
}

async function cameraPath(dir: string, samples: number, kind: 'model' | 'groundTruth'): Promise<Record<string, unknown>> {
  let synthetic: SyntheticTraySource | null = null;
  let reader: () => Promise<DiceReader>;
  if (kind === 'model') {
    try {
      const probe = await createDiceReader();
      probe.dispose();
    } catch (err) {
      return { skipped: `vision unavailable: ${String((err as Error).message ?? err)}` };
    }
    reader = () => createDiceReader();
  } else {
    reader = async () => groundTruthReader(() => synthetic);
  }
  const { built, watcher, hw } = await setUp('synthetic', dir + '-' + kind, reader);
  synthetic = hw!.get(built.service.first().id)!.synthetic;
  try {
    startAttackRoll(built.service.first());
    const table = built.service.first();
    const h = hw!.get(table.id)!;
    const synthetic = h.synthetic!;
    const feed = h.feed!;
    const frameToState: number[] = [];
    const visionToState: number[] = [];
    const throwToState: number[] = [];
    let misread = 0;
    for (const faces of readings(samples + 5)) {
      let settledFrameAt = 0;
      let settledVisionAt = 0;
      const onFrame = () => {
        if (settledFrameAt === 0 && synthetic.current().settled) settledFrameAt = performance.now();
      };
      const onVision = (v: { settled: boolean }) => {
        if (v.settled && settledVisionAt === 0) settledVisionAt = performance.now();
      };
      const seq = table.seq + 1;
      const want = [...faces].sort((a, b) => a - b).join();
      // a throw the camera has not read right within 6 s counts as misread
      const received = nextState(watcher, (s) => s.seq >= seq && s.state.roll?.tracker.faces?.join() === want, 6000);
      synthetic.on('frame', onFrame);
      feed.on('vision', onVision);
      const t0 = performance.now();
      synthetic.setDice(faces, [], true);
      try {
        const t1 = await received;
        throwToState.push(t1 - t0);
        if (settledFrameAt > 0) frameToState.push(t1 - settledFrameAt);
        if (settledVisionAt > 0) visionToState.push(t1 - settledVisionAt);
      } catch {
        misread++;
        // a misread may have locked a 1 or ended the roll: start the roll afresh for the next throw
        table.submit({ type: 'resetTable' }, 'player');
        startAttackRoll(built.service.first());
      } finally {
        synthetic.off('frame', onFrame);
        feed.off('vision', onVision);
      }
    }
    return {
      /** first settled frame out of the camera -> the watcher has the state (includes the frames the settle detector and stabilizer wait for) */
      settledFrameToState: frameToState.length ? stats(frameToState) : null,
      /** the feed's first settled vision update -> the watcher has the state */
      settledVisionToState: visionToState.length ? stats(visionToState) : null,
      throwToState: throwToState.length ? stats(throwToState) : null,
      fps: 10,
      misread,
      backend: built.service.first().hardware().vision.backend,
    };
  } finally {
    watcher.close();
    await built.app.close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'flightdeck-latency-'));
  try {
    const manual = await manualPath(dir, 200);
    const camera = await cameraPath(join(dir, 'cam'), 20, 'model');
    const cameraGroundTruth = await cameraPath(join(dir, 'cam'), 20, 'groundTruth');
    return { ...manual, camera, cameraGroundTruth };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run()));
}
