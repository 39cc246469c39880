/**
 * A camera reading taken back with Undo during a roll: the dice still lying in the tray are not read into
 * the roll again while they have not moved (the players undid that reading), a re-throw landing on the same
 * faces is a new reading, and the players can ask for the tray to be read again (`POST …/read-tray`, the
 * socket's `readTray`): every refusal says why.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import type { VisionUpdate } from '../../server/http/protocol.ts';
import { tableGames } from '../../server/table/games.ts';
import { startHardware, type TableHardware } from '../../server/table/table-hardware.ts';
import type { Table } from '../../server/table/table.ts';
import { FakeCamera } from './fake-camera.ts';
import { auth, emitAck, listen, nextEvent, socketClient, startAttackRoll, tempDir, testApp, PIN } from './helpers.ts';

let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;
const quiet = { info() {}, warn() {}, error() {} };

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await built?.app.close();
  built = null;
  dir.cleanup();
});

/** The table with its camera → dice path (DiceInput); what the camera sees at rest is set by the test. */
async function start(): Promise<{ b: BuiltApp; hw: TableHardware; table: Table<any>; camera: FakeCamera }> {
  let tables: Map<string, TableHardware> | null = null;
  built = await testApp({
    dbFile: join(dir.dir, 'db.sqlite'),
    games: tableGames,
    hardware: async (service) => {
      const h = await startHardware(service, { reader: () => Promise.reject(new Error('not used')), log: quiet });
      tables = h.tables;
      return h;
    },
  });
  const hw = tables!.get('default')!;
  const table = built.service.first();
  const camera = new FakeCamera(table);
  return { b: built, hw, table, camera };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An attack roll whose dice the camera read at rest (2 3 4 6, thrown at `thrown`), that reading taken back with the box's Undo. */
async function readThenUndo(): Promise<Awaited<ReturnType<typeof start>> & { thrown: number }> {
  const started = await start();
  const { hw, table, camera } = started;
  startAttackRoll(table);
  const thrown = Date.now();
  camera.rest([6, 4, 2, 3], thrown);
  await sleep(5);
  expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: thrown })).toBe('sent');
  await sleep(5);
  expect(table.submit({ type: 'undo' }, 'box').ok).toBe(true);
  return { ...started, thrown };
}
const post = (b: BuiltApp, url: string, payload?: unknown) => b.app.inject({ method: 'POST', url, headers: auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
const readTray = (b: BuiltApp) => post(b, '/api/tables/default/read-tray');
const state = async (b: BuiltApp) => (await b.app.inject({ url: '/api/tables/default/state' })).json();

describe('a dice reading taken back with Undo', () => {
  it('is not read again from the same dice lying still; a re-throw landing on the same faces is read', async () => {
    const { b, hw, table } = await start();
    startAttackRoll(table);
    const thrown = Date.now();
    await sleep(5);
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: thrown })).toBe('sent');
    expect(table.state.roll.tracker.faces).toEqual([2, 3, 4, 6]);
    expect((await state(b)).readingUndone).toBeNull();

    expect((await post(b, '/api/tables/default/commands', { type: 'undo' })).statusCode).toBe(200);
    expect(table.state.roll.tracker.faces).toBeNull();
    const snap = await state(b);
    // the screens are told which reading was taken back, and when: the dice in the tray are not the roll's
    expect(snap.readingUndone).toEqual({ faces: [2, 3, 4, 6], at: expect.any(Number) });
    expect(snap.readingUndone.at).toBeGreaterThanOrEqual(thrown);
    const seq = table.seq;

    // the camera loses a die and finds it again, the dice not moved: the reading taken back is not taken again
    expect(hw.diceInput.reading({ faces: [6, 4, 2], kept: [], unreadable: 1, movedAt: thrown })).toBe('incomplete');
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: thrown })).toBe('undone');
    expect(table.seq).toBe(seq);
    // another reading of the same dice (the camera decided a die again) is news: taken
    await sleep(5);
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 5], kept: [], unreadable: 0, movedAt: thrown })).toBe('sent');
    expect(table.state.roll.tracker.faces).toEqual([2, 4, 5, 6]);
    expect((await state(b)).readingUndone).toBeNull();

    // taken back again, then the camera's reading of dice thrown again landing on the same faces (passed on when
    // its last reading was another): a new reading, taken, not "unchanged" from the reading taken back
    expect(table.submit({ type: 'undo' }, 'box').ok).toBe(true);
    expect((await state(b)).readingUndone).toMatchObject({ faces: [2, 4, 5, 6] });
    await sleep(5);
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 5], kept: [], unreadable: 0, movedAt: Date.now() })).toBe('sent');
    expect(table.state.roll.tracker.faces).toEqual([2, 4, 5, 6]);
    expect(b.service.journal.load('default').at(-1)).toMatchObject({ origin: 'camera', command: { type: 'dice', faces: [2, 4, 5, 6] } });
  });

  it('a second reading taken back leaves the roll on the first; the tray still holds the second', async () => {
    const { b, hw, table } = await start();
    startAttackRoll(table);
    const first = Date.now();
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0, movedAt: first })).toBe('sent');
    await sleep(5);
    const second = Date.now();
    expect(hw.diceInput.reading({ faces: [5, 5, 3, 6], kept: [], unreadable: 0, movedAt: second })).toBe('sent');
    await sleep(5);
    expect(table.submit({ type: 'undo' }, 'player').ok).toBe(true);
    expect(table.state.roll.tracker.faces).toEqual([2, 3, 4, 6]);
    expect((await state(b)).readingUndone).toMatchObject({ faces: [3, 5, 5, 6] });
    expect(hw.diceInput.reading({ faces: [5, 5, 3, 6], kept: [], unreadable: 0, movedAt: second })).toBe('undone');
    // a re-throw landing on the first reading's faces: the roll shows them already
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0, movedAt: Date.now() })).toBe('unchanged');
  });
});

describe('a reading taken back, then the service restarted', () => {
  it('stays taken back: the dice not moved since are not read into the roll again; dice thrown again are', async () => {
    const { b, thrown } = await readThenUndo();
    const undone = (await state(b)).readingUndone;
    expect(undone).toMatchObject({ faces: [2, 3, 4, 6] });
    await b.app.close();
    built = null;

    const { b: again, hw, table } = await start();
    expect(table.state.roll.tracker.faces).toBeNull();
    // said as before the restart: the same reading, taken back when the journal says the Undo was made
    const restored = (await state(again)).readingUndone;
    expect(restored.faces).toEqual(undone.faces);
    expect(restored.at).toBe(again.service.journal.load('default').at(-1)!.at);
    const seq = table.seq;
    // the camera started afresh sees the same dice at rest (no motion since it started), or knows they last moved at the throw
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: null })).toBe('undone');
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: thrown })).toBe('undone');
    expect(table.seq).toBe(seq);
    await sleep(5);
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: Date.now() })).toBe('sent');
    expect(table.state.roll.tracker.faces).toEqual([2, 3, 4, 6]);
    expect((await state(again)).readingUndone).toBeNull();
  });
});

describe('dice thrown again after the Undo', () => {
  it('landing on the faces the camera passed on last are read, though the camera passes on no new reading', async () => {
    const { b, hw, table, camera } = await readThenUndo();
    const seq = table.seq;
    // each frame of dice at rest is shown on the dashboards; the camera's reading comes only when it differs from its last
    const atRest = () => table.publishVision({ tableId: 'default', at: Date.now(), width: 640, height: 480, settled: true, dice: camera.dice, frameUrl: '/api/tables/default/frame.jpg' } satisfies VisionUpdate);
    // the dice not moved since the Undo: not taken back
    atRest();
    expect(table.seq).toBe(seq);
    expect(hw.diceInput.restedAfterUndo()).toBeNull();
    // thrown again: at rest with a die still being decided, then every one decided, on the same faces
    await sleep(5);
    const again = Date.now();
    camera.rest([6, 4, 'p', 3], again);
    atRest();
    camera.rest([6, 4, null, 3], again);
    atRest();
    expect(table.seq).toBe(seq);
    camera.rest([6, 4, 2, 3], again);
    atRest();
    expect(table.seq).toBe(seq + 1);
    expect(table.state.roll.tracker.faces).toEqual([2, 3, 4, 6]);
    expect(b.service.journal.load('default').at(-1)).toMatchObject({ origin: 'camera', command: { type: 'dice', faces: [2, 3, 4, 6] } });
    expect((await state(b)).readingUndone).toBeNull();
    // read once: the frames after it take nothing more
    atRest();
    expect(hw.diceInput.restedAfterUndo()).toBeNull();
    expect(table.seq).toBe(seq + 1);
  });
});

describe('reading the tray again', () => {
  it('takes the dice the camera sees at rest into the roll as the camera\'s reading, over HTTP and the socket', async () => {
    const { b, hw, table, thrown } = await readThenUndo();
    expect(table.state.roll.tracker.faces).toBeNull();

    const again = await readTray(b);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ seq: table.seq, state: { roll: { tracker: { faces: [2, 3, 4, 6] } } } });
    expect(b.service.journal.load('default').at(-1)).toMatchObject({ origin: 'camera', command: { type: 'dice', faces: [2, 3, 4, 6] } });
    expect((await state(b)).readingUndone).toBeNull();
    // the camera's next reading of the same dice is the roll's already
    expect(hw.diceInput.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0, movedAt: thrown })).toBe('unchanged');
    // read again while the roll shows those dice: nothing to do, said so
    const same = await readTray(b);
    expect(same.statusCode).toBe(409);
    expect(same.json().error).toMatchObject({ code: 'alreadyRead', message: 'The roll already shows the dice in the tray (2 3 4 6).' });

    // the socket's readTray, with the PIN; without it, or with something to read, refused in words
    expect(table.submit({ type: 'undo' }, 'player').ok).toBe(true);
    const url = await listen(b);
    const watcher = socketClient(url, {});
    const player = socketClient(url, { pin: PIN });
    try {
      await Promise.all([nextEvent(watcher, 'state'), nextEvent(player, 'state')]);
      expect(await emitAck(watcher, 'readTray', {})).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
      expect(await emitAck(player, 'readTray', { faces: [1, 2, 3, 4] })).toEqual({ ok: false, error: { code: 'badRequest', message: "readTray takes nothing: send {} (the dice read are the camera's own)" } });
      const pushed = nextEvent<{ readingUndone: unknown; state: { roll: { tracker: { faces: number[] | null } } } }>(watcher, 'state', (s) => s.state.roll?.tracker.faces !== null);
      expect(await emitAck(player, 'readTray', {})).toMatchObject({ ok: true, state: { roll: { tracker: { faces: [2, 3, 4, 6] } } } });
      expect(await pushed).toMatchObject({ readingUndone: null });
    } finally {
      watcher.close();
      player.close();
    }
  });

  it('is refused, saying why, when there is nothing right to read', async () => {
    const { b, table, camera } = await start();
    const refusal = async (code: string, message: string | RegExp) => {
      const r = await readTray(b);
      expect(r.statusCode).toBe(409);
      expect(r.json().error.code).toBe(code);
      expect(r.json().error.message).toMatch(message);
    };
    camera.rest([2, 3, 4, 6], Date.now());
    await refusal('noRoll', 'No roll is in progress: there is nothing to read the dice into.');
    const beforeRoll = Date.now() - 1;
    startAttackRoll(table);
    const seq = table.seq;
    // the last roll's dice, not moved since this roll began
    camera.rest([2, 3, 4, 6], beforeRoll);
    await refusal('diceFromBefore', /from before this roll .*throw them/);
    camera.movedAt = null;
    await refusal('diceFromBefore', /from before this roll/);
    const thrown = Date.now() + 1;
    camera.rest([2, 3, 'p', 6], thrown);
    await refusal('diceDeciding', 'The camera is still deciding a die: wait a moment, then read the tray again.');
    camera.rest([2, null, null, 6], thrown);
    await refusal('trayUnread', /cannot read 2 dice in the tray .*straighten or re-roll them, or type the dice in/);
    camera.rest([], thrown);
    await refusal('trayEmpty', 'The camera sees no dice in the tray: throw them, or type them in.');
    camera.dice = [];
    camera.movedAt = null;
    await refusal('trayNotRead', /has not read dice at rest yet/);
    camera.rest([2, 3, 4, 6], thrown);
    camera.moving = { since: Date.now() - 200, last: Date.now() };
    await refusal('trayMoving', 'The dice are still moving: wait until they are at rest, then read the tray again.');
    camera.moving = null;
    camera.state = 'retrying';
    await refusal('cameraProblem', 'The camera is not reading (no frame for 5.0 s): type the dice in.');
    camera.state = 'ok';
    camera.kind = 'none';
    await refusal('noCamera', 'This table has no camera: dice are typed in.');
    camera.kind = 'simulated';
    expect(table.seq).toBe(seq);
    const noPin = await b.app.inject({ method: 'POST', url: '/api/tables/default/read-tray' });
    expect(noPin.statusCode).toBe(401);
    expect(noPin.json().error.code).toBe('pinRequired');
    const body = await b.app.inject({ method: 'POST', url: '/api/tables/default/read-tray?x=1', headers: auth() });
    expect(body.statusCode).toBe(400);
    expect(table.seq).toBe(seq);
    // at last the dice are right: read in
    expect((await readTray(b)).statusCode).toBe(200);
    expect(table.state.roll.tracker.faces).toEqual([2, 3, 4, 6]);
  });
});

describe('a refused reading taken back with Undo', () => {
  /** An attack roll of 4 dice read 2 3 4 6, then a fifth die in the tray: the camera's reading 2 3 4 5 6 refused. */
  async function extraDie(): Promise<Awaited<ReturnType<typeof start>>> {
    const started = await start();
    const { hw, table, camera } = started;
    startAttackRoll(table);
    await sleep(5);
    const thrown = Date.now();
    camera.rest([2, 3, 4, 6], thrown);
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0, movedAt: thrown })).toBe('sent');
    const added = Date.now();
    camera.rest([2, 3, 4, 6, 5], added);
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6, 5], kept: [], unreadable: 0, movedAt: added })).toBe('sent');
    expect(table.state.roll.tracker.flags).toEqual([{ type: 'wrongDiceCount', expected: 4, seen: 5 }]);
    return started;
  }
  const confirm = (table: Table<any>) => table.submit({ type: 'confirmRoll' }, 'box');

  it('comes back while the camera sees those dice: the warning stays and Confirm stays refused, the tray put right reads in', async () => {
    const { b, hw, table, camera } = await extraDie();
    const undo = table.submit({ type: 'undo' }, 'box');
    expect(undo.ok && undo.events).toEqual([expect.objectContaining({ type: 'undone', commands: [expect.objectContaining({ type: 'dice' })] })]);
    await sleep(5);
    // the camera's reading of the tray as it is, read again: refused again, the roll still on the dice read before
    expect(table.state.roll.tracker).toMatchObject({ faces: [2, 3, 4, 6], flags: [{ type: 'wrongDiceCount', expected: 4, seen: 5 }] });
    expect(b.service.journal.load('default').slice(-2)).toMatchObject([{ command: { type: 'undo' } }, { origin: 'camera', command: { type: 'dice', faces: [2, 3, 4, 5, 6] } }]);
    expect(confirm(table)).toMatchObject({ ok: false, error: { code: 'readingFlagged' } });
    expect((await state(b)).readingUndone).toBeNull();

    // the extra die taken out: the camera's reading is the roll's again, and Confirm goes through
    await sleep(5);
    const moved = Date.now();
    camera.rest([2, 3, 4, 6], moved);
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0, movedAt: moved })).toBe('sent');
    expect(table.state.roll.tracker.flags).toEqual([]);
    expect(confirm(table).ok).toBe(true);
  });

  it('read again once: a second Undo, the same dice lying still, goes back to the reading before it, and a third further', async () => {
    const { b, hw, table, camera } = await extraDie();
    expect(table.submit({ type: 'undo' }, 'box').ok).toBe(true);
    await sleep(5);
    expect(table.state.roll.tracker.flags).toEqual([{ type: 'wrongDiceCount', expected: 4, seen: 5 }]);
    const entries = b.service.journal.load('default').length;

    expect(table.submit({ type: 'undo' }, 'box').ok).toBe(true);
    await sleep(5);
    expect(table.state.roll.tracker).toMatchObject({ faces: [2, 3, 4, 6], flags: [] });
    expect(b.service.journal.load('default')).toHaveLength(entries + 1);
    // the camera's next look at the same dice at rest takes nothing in either
    camera.rest([2, 3, 4, 6, 5], camera.movedAt!);
    expect(hw.diceInput.refusalUndone()).toBeNull();
    expect(hw.diceInput.restedAfterUndo()).toBeNull();
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6, 5], kept: [], unreadable: 0, movedAt: camera.movedAt! })).toBe('undone');

    expect(table.submit({ type: 'undo' }, 'box').ok).toBe(true);
    await sleep(5);
    expect(table.state.roll.tracker.faces).toBeNull();

    // the extra die taken out and the dice thrown: read as ever
    await sleep(5);
    const thrown = Date.now();
    camera.rest([1, 2, 5, 6], thrown);
    expect(hw.diceInput.reading({ faces: [1, 2, 5, 6], kept: [], unreadable: 0, movedAt: thrown })).toBe('sent');
    expect(table.state.roll.tracker).toMatchObject({ faces: [1, 2, 5, 6], flags: [] });
  });

  it('the reading that put a refused one right, taken back: the dice at rest are that reading taken back, read again on asking', async () => {
    const { b, hw, table, camera } = await extraDie();
    await sleep(5);
    const moved = Date.now();
    camera.rest([2, 3, 4, 6], moved);
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0, movedAt: moved })).toBe('sent');
    expect(table.state.roll.tracker.flags).toEqual([]);

    expect(table.submit({ type: 'undo' }, 'player').ok).toBe(true);
    await sleep(5);
    // the roll is back on the refused reading; the dice lying there are the reading taken back, shown as such
    expect(table.state.roll.tracker.flags).toEqual([{ type: 'wrongDiceCount', expected: 4, seen: 5 }]);
    expect((await state(b)).readingUndone).toMatchObject({ faces: [2, 3, 4, 6] });
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0, movedAt: moved })).toBe('undone');
    // read again at the players' asking: the roll is right again
    expect((await readTray(b)).statusCode).toBe(200);
    expect(table.state.roll.tracker).toMatchObject({ faces: [2, 3, 4, 6], flags: [] });
    expect(confirm(table).ok).toBe(true);
  });

  it('waits for a working camera and the tray at rest with every die decided; dice typed in answer for the tray', async () => {
    const { hw, table, camera } = await extraDie();
    const added = camera.movedAt!;
    camera.rest([2, 3, 4, 6, 'p'], added);
    expect(table.submit({ type: 'undo' }, 'player').ok).toBe(true);
    await sleep(5);
    expect(table.state.roll.tracker.flags).toEqual([]);
    camera.rest([2, 3, 4, 6, 5], added);
    camera.state = 'retrying';
    expect(hw.diceInput.refusalUndone()).toBeNull();
    camera.state = 'ok';
    expect(hw.diceInput.refusalUndone()).toBe('sent');
    expect(table.state.roll.tracker.flags).toEqual([{ type: 'wrongDiceCount', expected: 4, seen: 5 }]);
    // read once: nothing more to read
    expect(hw.diceInput.refusalUndone()).toBeNull();

    // taken back again, the dice still being decided; the players type the dice in: the tray is not read over them
    camera.rest([2, 3, 4, 6, 'p'], added);
    expect(table.submit({ type: 'undo' }, 'player').ok).toBe(true);
    expect(table.submit({ type: 'dice', faces: [2, 3, 4, 6] }, 'player').ok).toBe(true);
    camera.rest([2, 3, 4, 6, 5], added);
    await sleep(5);
    expect(hw.diceInput.refusalUndone()).toBeNull();
    expect(table.state.roll.tracker).toMatchObject({ faces: [2, 3, 4, 6], flags: [] });
    expect(confirm(table).ok).toBe(true);
  });
});
