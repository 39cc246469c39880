/**
 * The real HTTP app (server/http/app.ts) over a real TableService and SQLite file in a temporary
 * folder, with the Yorktown game, for fuzzing through app.inject and real socket.io clients.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { cameraConfig, defaultTable, type TableConfig } from '../../server/config/service-config.ts';
import type { GameCommand } from '../../server/games/game-module.ts';
import { buildApp, type AppOptions, type BuiltApp } from '../../server/http/app.ts';
import type { SettledRead } from '../../server/hardware/ports.ts';
import { DiceSampleStore } from '../../server/store/dice-sample-store.ts';
import { CameraSetup } from '../../server/table/camera-setup.ts';
import { tableGames } from '../../server/table/games.ts';
import { TableService } from '../../server/table/table-service.ts';
import { yorktownAdapter } from '../../server/table/yorktown-adapter.ts';

export const FUZZ_PIN = '4321';

export interface Fixture {
  built: BuiltApp;
  dir: string;
  close(): Promise<void>;
}

const FUZZ_SETTLED_READ: SettledRead = {
  frame: { at: 1, mime: 'image/jpeg', data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) },
  width: 640,
  height: 480,
  dice: [{ x: 100, y: 100, w: 40, h: 40, face: 3, score: 0.9 }],
};

const silent = { info() {}, warn() {}, error() {} };

export async function fuzzApp(options: { tables?: string[]; pinLimits?: AppOptions['pinLimits']; webRoot?: string; allowedOrigins?: string[] } = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'flightdeck-fuzz-'));
  const tables: TableConfig[] = (options.tables ?? ['default']).map((id) => ({ ...defaultTable(), id, name: id, camera: cameraConfig('none'), serial: { kind: 'none' } }));
  const built = await buildApp({
    service: () => new TableService({ config: { tables, pin: FUZZ_PIN }, dbFile: join(dir, 'fuzz.sqlite'), games: tableGames, log: silent, kiosk: { autoStart: false } }),
    pinLimits: options.pinLimits ?? { maxFailures: 1_000_000, windowMs: 60_000, blockMs: 1 },
    webRoot: options.webRoot,
    allowedOrigins: options.allowedOrigins,
    samples: new DiceSampleStore(join(dir, 'dice-samples')),
  });
  // a camera's last settled read, so that the dice photo routes hold and save (hold id "1"); saving never decodes the bytes
  for (const table of built.service.tables.values()) table.setSettledReadProvider(() => FUZZ_SETTLED_READ);
  // a camera to set up (its calibration kept in the database): the calibration routes check, keep and estimate
  for (const table of built.service.tables.values()) {
    table.cameraSetup = new CameraSetup({ setCalibration() {}, latestFrame: () => ({ data: FUZZ_SETTLED_READ.frame.data, mime: FUZZ_SETTLED_READ.frame.mime, at: 0 }) }, { tray: null, keptZone: null }, table);
  }
  return {
    built,
    dir,
    close: async () => {
      await built.app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function listenLoopback(built: BuiltApp): Promise<string> {
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
}

/** A game in progress: the first `count` commands of a built-in game, so that fuzzed commands meet a real mid-game state. */
export function midGame(count: number, seed = 3): GameCommand[] {
  return yorktownAdapter.attractPlan(seed).slice(0, count);
}

/** Everything about a table a rejected command must leave untouched: seq, state, and the journal rows. */
export function tableFingerprint(built: BuiltApp, tableId = 'default'): string {
  const table = built.service.resolve(tableId)!;
  const rows = built.service.journal.load(table.id);
  return JSON.stringify({ seq: table.seq, state: yorktownAdapter.publicView(table.state), journal: rows });
}
