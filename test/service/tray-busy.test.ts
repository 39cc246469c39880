/**
 * Dice thrown again are not the roll's until the camera has read them at rest: right after a throw on the
 * simulated camera (before its first moving frame), while the camera sees them move, and while it is still
 * deciding a face of dice that moved, Confirm is refused (it would keep the dice read before the throw), and
 * the snapshots say so (`trayBusy`) for the screens to hold their Confirm button.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { tableGames } from '../../server/table/games.ts';
import type { Table } from '../../server/table/table.ts';
import { FakeCamera } from './fake-camera.ts';
import { startAttackRoll, tempDir, testApp } from './helpers.ts';

let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await built?.app.close();
  built = null;
  dir.cleanup();
});

async function start(): Promise<{ table: Table<any>; camera: FakeCamera }> {
  built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames });
  const table = built.service.first();
  return { table, camera: new FakeCamera(table) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A roll whose dice the camera read at rest (2 3 4 6), thrown again just now on the simulated camera. */
async function readThenThrow(): Promise<{ table: Table<any>; camera: FakeCamera }> {
  const started = await start();
  startAttackRoll(started.table);
  started.camera.rest([2, 3, 4, 6], Date.now());
  await sleep(5);
  expect(started.table.submit({ type: 'dice', faces: [2, 3, 4, 6] }, 'camera').ok).toBe(true);
  started.table.noteThrow();
  return started;
}
const trayBusy = (table: Table<any>) => table.snapshot({ canControl: false, showPin: false }).trayBusy;
const vision = (table: Table<any>, camera: FakeCamera, settled: boolean) =>
  table.publishVision({ tableId: table.id, at: Date.now(), width: 640, height: 480, settled, dice: settled ? camera.dice : [], frameUrl: `/api/tables/${table.id}/frame.jpg` });

describe('dice thrown again hold Confirm until the camera has read them at rest', () => {
  it('refuses Confirm from the throw until every die that moved is decided, and tells the screens when it starts and ends', async () => {
    const { table, camera } = await start();
    startAttackRoll(table);
    const first = Date.now();
    camera.rest([2, 3, 4, 6], first);
    await sleep(5);
    expect(table.submit({ type: 'dice', faces: [2, 3, 4, 6] }, 'camera').ok).toBe(true);
    expect(trayBusy(table)).toBeNull();
    let refreshes = 0;
    table.on('refresh', () => refreshes++);

    // thrown again: the camera still shows the dice from before the throw, at rest
    await sleep(5);
    table.noteThrow();
    expect(refreshes).toBe(1);
    expect(trayBusy(table)).toBe('moving');
    const seq = table.seq;
    for (const origin of ['player', 'box'] as const) {
      expect(table.submit({ type: 'confirmRoll' }, origin)).toEqual({ ok: false, error: { code: 'diceMoving', message: 'The dice are still moving: wait until the camera has read them, then confirm.' } });
    }
    expect(table.seq).toBe(seq);

    // the camera sees them move, then at rest, a die not decided yet
    camera.moving = { since: Date.now(), last: Date.now() };
    vision(table, camera, false);
    expect(trayBusy(table)).toBe('moving');
    expect(refreshes).toBe(1);
    await sleep(5);
    const landed = Date.now();
    camera.moving = null;
    camera.rest([5, 'p', 1, 1], landed);
    vision(table, camera, true);
    expect(trayBusy(table)).toBe('deciding');
    expect(refreshes).toBe(2);
    expect(table.submit({ type: 'confirmRoll' }, 'box')).toEqual({ ok: false, error: { code: 'diceBeingRead', message: 'The camera is still reading the dice that moved: wait a moment, then confirm.' } });

    // every die decided (the camera's reading goes in): confirmed on the dice of the throw
    camera.rest([5, 2, 1, 1], landed);
    vision(table, camera, true);
    expect(trayBusy(table)).toBeNull();
    expect(refreshes).toBe(3);
    expect(table.submit({ type: 'dice', faces: [1, 1, 2, 5] }, 'camera').ok).toBe(true);
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(true);
    expect(table.seq).toBe(seq + 2);
  });

  it('a throw the camera never shows, and a die never decided, hold the roll only so long', async () => {
    const { table, camera } = await readThenThrow();
    const thrown = Date.now();
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(false);
    vi.spyOn(Date, 'now').mockReturnValue(thrown + 10_001);
    expect(trayBusy(table)).toBeNull();
    vi.restoreAllMocks();

    // dice at rest since the throw, a face never decided: held so long from when they last moved
    await sleep(5);
    const landed = Date.now();
    camera.rest(['p', 3, 4, 6], landed);
    expect(trayBusy(table)).toBe('deciding');
    vi.spyOn(Date, 'now').mockReturnValue(landed + 10_001);
    expect(trayBusy(table)).toBeNull();
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(true);
  });

  it('dice the camera has not seen move since it started are not held while a face is being decided', async () => {
    const { table, camera } = await start();
    startAttackRoll(table);
    expect(table.submit({ type: 'dice', faces: [2, 3, 4, 6] }, 'player').ok).toBe(true);
    camera.rest(['p', 3, 4, 6], 0);
    camera.movedAt = null;
    expect(trayBusy(table)).toBeNull();
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(true);
  });

  it('dice a person types in are the roll\'s: neither the throw nor a face the camera is deciding holds them', async () => {
    const { table, camera } = await readThenThrow();
    expect(trayBusy(table)).toBe('moving');
    await sleep(5);
    camera.rest(['p', 3, 4, 6], Date.now());
    expect(trayBusy(table)).toBe('deciding');
    await sleep(5);
    expect(table.submit({ type: 'dice', faces: [3, 3, 4, 6] }, 'player').ok).toBe(true);
    expect(trayBusy(table)).toBeNull();
    expect(table.submit({ type: 'confirmRoll' }, 'box').ok).toBe(true);
    // and with no roll in progress the tray is never busy (nothing to confirm, nothing to tell the screens)
    table.noteThrow();
    expect(trayBusy(table)).toBeNull();
  });

  it('attract mode and a demo station confirm as before (they throw and confirm on their own)', async () => {
    const { table } = await readThenThrow();
    expect(table.submit({ type: 'confirmRoll' }, 'kiosk').ok).toBe(true);
  });
});
