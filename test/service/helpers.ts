/** Builds the service on a temporary database, for app.inject and real socket.io clients. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { cameraConfig, defaultTable, type TableConfig } from '../../server/config/service-config.ts';
import { buildApp, type AppOptions, type BuiltApp } from '../../server/http/app.ts';
import type { GameAdapter } from '../../server/table/game-adapter.ts';
import { TableService } from '../../server/table/table-service.ts';
import type { Table } from '../../server/table/table.ts';

export const PIN = '2468';

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'flightdeck-service-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestAppOptions {
  dbFile: string;
  games: Record<string, GameAdapter<any>>;
  tables?: Partial<TableConfig>[];
  pin?: string | null;
  now?: () => number;
  webRoot?: string;
  pinLimits?: AppOptions['pinLimits'];
  hardware?: AppOptions['hardware'];
  kiosk?: ConstructorParameters<typeof TableService>[0]['kiosk'];
  samples?: AppOptions['samples'];
  models?: AppOptions['models'];
}

export async function testApp(options: TestAppOptions): Promise<BuiltApp> {
  const tables = (options.tables ?? [{}]).map((t) => ({ ...defaultTable(), camera: cameraConfig('none'), serial: { kind: 'none' } as const, ...t }));
  return buildApp({
    service: (log) =>
      new TableService({ config: { tables, pin: options.pin === undefined ? PIN : options.pin }, dbFile: options.dbFile, games: options.games, log, now: options.now, kiosk: options.kiosk }),
    webRoot: options.webRoot,
    pinLimits: options.pinLimits,
    hardware: options.hardware,
    samples: options.samples,
    models: options.models,
  });
}

export async function listen(built: BuiltApp): Promise<string> {
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = built.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export function socketClient(url: string, auth: Record<string, unknown>): Socket {
  return connect(url, { auth, transports: ['websocket'], forceNew: true, reconnection: false });
}

/** Resolves with the next value of an event that passes `accept`. */
export function nextEvent<T>(socket: Socket, event: string, accept: (value: T) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler);
      reject(new Error(`no "${event}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const handler = (value: T) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      socket.off(event, handler);
      resolve(value);
    };
    socket.on(event, handler);
  });
}

export function emitAck<T>(socket: Socket, event: string, payload: unknown): Promise<T> {
  return socket.timeout(10_000).emitWithAck(event, payload) as Promise<T>;
}

export const auth = (pin = PIN) => ({ authorization: `Bearer ${pin}` });

/** The commands that start a Yorktown game and an attack roll of 4 dice (plane 4 on island 9, seed 5). */
export const ATTACK_ROLL = [
  { type: 'newGame', seed: 5, players: 2, deck: 'digital' },
  { type: 'drawCard' },
  { type: 'chooseAction', plane: 1, action: 'move' },
  { type: 'chooseAction', plane: 2, action: 'move' },
  { type: 'chooseAction', plane: 3, action: 'move' },
  { type: 'chooseAction', plane: 4, action: 'attack' },
  { type: 'attack', plane: 4, target: 'planes' },
] as const;

/** Starts a Yorktown game and an attack roll of 4 dice (plane 4 on island 9, seed 5). */
export function startAttackRoll(table: Table<any>): void {
  for (const c of ATTACK_ROLL) {
    const ack = table.submit(c, 'player');
    if (!ack.ok) throw new Error(`setting up the roll failed at ${c.type}: ${ack.error.message}`);
  }
}
