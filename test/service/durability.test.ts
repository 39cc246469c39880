import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { openDatabase } from '../../server/store/database.ts';
import { JournalStore } from '../../server/store/journal-store.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { auth, tempDir, testApp } from './helpers.ts';

const games = { tally: tallyAdapter };
let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await built?.app.close();
  built = null;
  dir.cleanup();
});

const post = (b: BuiltApp, payload: unknown, table = 'default') =>
  b.app.inject({ method: 'POST', url: `/api/tables/${table}/commands`, payload: payload as object, headers: auth() });
const state = async (b: BuiltApp, table = 'default') => (await b.app.inject({ url: `/api/tables/${table}/state` })).json();

async function until<T>(probe: () => Promise<T>, accept: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (accept(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never met');
}

describe('restart', () => {
  it('restores every table exactly, undo included', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    const tables = [{ id: 'a', game: 'tally' }, { id: 'b', game: 'tally' }];
    built = await testApp({ dbFile, games, tables });
    await post(built, { type: 'newGame' }, 'a');
    await post(built, { type: 'add', n: 4 }, 'a');
    await post(built, { type: 'add', n: 2 }, 'a');
    const undone = await post(built, { type: 'undo' }, 'a');
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({ seq: 4, state: { tally: 4 } });
    await post(built, { type: 'newGame' }, 'b');
    await post(built, { type: 'roll' }, 'b');
    await post(built, { type: 'dice', faces: [2, 5, 5] }, 'b');
    const before = { a: await state(built, 'a'), b: await state(built, 'b') };
    await built.app.close();
    built = await testApp({ dbFile, games, tables });
    for (const id of ['a', 'b'] as const) {
      const after = await state(built, id);
      expect(after.seq).toBe(before[id].seq);
      expect(after.state).toEqual(before[id].state);
    }
    // undo still knows the history after the restart
    expect((await post(built, { type: 'undo', count: 1 }, 'a')).json().state.tally).toBe(0);
  });

  it('says on the table display, until the next game, that recorded commands no longer apply after a restart', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    await post(built, { type: 'newGame' });
    await post(built, { type: 'add', n: 4 });
    await post(built, { type: 'add', n: 2 });
    expect((await state(built)).alerts).toEqual([]);
    await built.app.close();
    // the journal holds a command the game refuses now (a newer version's rules, an edited file)
    const db = openDatabase(dbFile);
    new JournalStore(db).append('default', [{ seq: 4, at: Date.now(), origin: 'player', command: { type: 'add', n: 5 } }]);
    db.close();
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    const after = await state(built);
    expect(after.state.tally).toBe(6);
    expect(after.alerts).toEqual([{ code: 'journalSkipped', message: '1 recorded command no longer applies after the restart and was left out (the first: #4 add, "The tally cannot pass 10."); the game is as far as the others take it.' }]);
    // play goes on; the next game clears it
    expect((await post(built, { type: 'add', n: 1 })).statusCode).toBe(200);
    expect(built.service.journal.load('default').at(-1)).toMatchObject({ seq: 5, command: { type: 'add', n: 1 } });
    expect((await state(built)).alerts).toHaveLength(1);
    await post(built, { type: 'newGame' });
    expect((await state(built)).alerts).toEqual([]);
  });

  it('leaves out, and names, journal entries its schemas refuse or the game fails on (an edited or damaged journal)', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    await post(built, { type: 'newGame' });
    await post(built, { type: 'add', n: 2 });
    await built.app.close();
    const db = openDatabase(dbFile);
    new JournalStore(db).append('default', [
      { seq: 3, at: Date.now(), origin: 'player', command: { type: 'add', n: 99 } },
      { seq: 4, at: Date.now(), origin: 'player', command: { type: 'crash' } },
      { seq: 5, at: Date.now(), origin: 'player', command: { type: 'add', n: 3 } },
    ]);
    db.close();
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    const after = await state(built);
    expect(after.state.tally).toBe(5);
    expect(after.alerts).toEqual([{ code: 'journalSkipped', message: expect.stringMatching(/^2 recorded commands no longer apply after the restart and were left out \(the first: #3 add, "add: .*"\)/) }]);
  });

  it('undo refuses what cannot be undone, and more steps than there are', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games, tables: [{ game: 'tally' }] });
    expect((await post(built, { type: 'undo' })).json().error.code).toBe('cannotUndo');
    await post(built, { type: 'newGame' });
    await post(built, { type: 'add', n: 1 });
    const r = await post(built, { type: 'undo', count: 5 });
    expect(r.statusCode).toBe(409);
    expect(r.json().error.code).toBe('cannotUndo');
    expect((await state(built)).state.tally).toBe(1);
  });

  it('the stopwatch keeps running on the wall clock while the service is down', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    let clock = Date.UTC(2026, 0, 10, 12, 0, 0);
    const now = () => clock;
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }], now });
    await post(built, { type: 'newGame', minutes: 30 });
    clock += 10 * 60_000;
    await post(built, { type: 'add', n: 1 });
    await built.app.close();
    // down for 25 minutes: the 30-minute game ran out at minute 30
    clock += 25 * 60_000;
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }], now });
    const s = await until(() => state(built!), (v) => v.state.outcome !== null);
    expect(s.state.outcome).toMatchObject({ result: 'lost', cause: 'time' });
    expect(s.seq).toBe(3);
    const timeUp = built.service.journal.load('default').at(-1)!;
    expect(timeUp).toMatchObject({ origin: 'stopwatch', command: { type: 'timeUp' } });
  });

  it('the stopwatch ends a running game when its deadline passes', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games, tables: [{ game: 'tally' }] });
    const cues: string[] = [];
    built.service.first().on('cue', (c: string) => cues.push(c));
    await post(built, { type: 'newGame', minutes: 0.002 }); // 120 ms
    const s = await until(() => state(built!), (v) => v.state.outcome !== null);
    expect(s.state.outcome).toMatchObject({ result: 'lost', cause: 'time' });
    expect(built.service.journal.load('default').at(-1)).toMatchObject({ origin: 'stopwatch', command: { type: 'timeUp' } });
    expect(cues).toContain('alarm');
  });

  it('a restart before the deadline keeps the same deadline', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    let clock = Date.UTC(2026, 0, 10, 12, 0, 0);
    const start = clock;
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }], now: () => clock });
    await post(built, { type: 'newGame', minutes: 30 });
    await built.app.close();
    clock += 5 * 60_000;
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }], now: () => clock });
    const s = await state(built);
    expect(s.state.deadline).toBe(start + 30 * 60_000);
    expect(s.state.outcome).toBeNull();
    expect(s.serverTime).toBe(clock);
  });
});

describe('database trouble', () => {
  it('a read-only database raises an alert, play goes on, and the journal catches up when writable', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    await post(built, { type: 'newGame' });
    built.service.db.pragma('query_only = ON');
    const r = await post(built, { type: 'add', n: 2 });
    expect(r.statusCode).toBe(200);
    const s = await state(built);
    expect(s.state.tally).toBe(2);
    expect(s.alerts).toEqual([expect.objectContaining({ code: 'dbReadOnly' })]);
    const h = (await built.app.inject({ url: '/api/health' })).json();
    expect(h.tables[0].alerts[0].code).toBe('dbReadOnly');
    await post(built, { type: 'add', n: 3 });
    expect(built.service.journal.load('default').map((e) => e.seq)).toEqual([1]);
    built.service.db.pragma('query_only = OFF');
    await post(built, { type: 'add', n: 1 });
    expect((await state(built)).alerts).toEqual([]);
    expect(built.service.journal.load('default').map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    await built.app.close();
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    expect((await state(built)).state.tally).toBe(6);
  });

  it('a full disk leaves no partial batch in the journal', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    const db = openDatabase(dbFile);
    const journal = new JournalStore(db);
    journal.append('t', [{ seq: 1, at: 1, origin: 'player', command: { type: 'newGame' } }]);
    const pages = Number(db.pragma('page_count', { simple: true }));
    db.pragma(`max_page_count = ${pages}`);
    const big = (seq: number) => ({ seq, at: seq, origin: 'player' as const, command: { type: 'dice', faces: new Array(5000).fill(6) } });
    let error: unknown;
    try {
      journal.append('t', [big(2), big(3), big(4)]);
    } catch (err) {
      error = err;
    }
    expect(String((error as { code?: string })?.code)).toMatch(/^SQLITE_FULL/);
    expect(journal.load('t').map((e) => e.seq)).toEqual([1]);
    db.close();
  });
});

describe('database that cannot be opened', () => {
  it('serves in memory with an alert', async () => {
    const { writeFileSync } = await import('node:fs');
    const dbFile = join(dir.dir, 'not-a-db.sqlite');
    writeFileSync(dbFile, 'this is not an SQLite database, just text that fills the header and more '.repeat(20));
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    const s = await state(built);
    expect(s.alerts).toEqual([expect.objectContaining({ code: 'dbUnavailable' })]);
    expect((await post(built, { type: 'newGame' })).statusCode).toBe(200);
  });
});
