/**
 * The database stops taking writes (disk full, read-only) in the middle of a game: play goes on in
 * memory, the snapshot's alerts and the log say so, nothing half-written reaches the journal, the
 * unsaved commands are written once the disk takes writes again (tried again every few seconds, and
 * with each command), and a reopened database
 * replays to exactly the state that was saved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { cameraConfig, defaultTable } from '../../server/config/service-config.ts';
import type { GameCommand } from '../../server/games/game-module.ts';
import { buildApp, type BuiltApp } from '../../server/http/app.ts';
import { tableGames } from '../../server/table/games.ts';
import { TableService } from '../../server/table/table-service.ts';
import { yorktownAdapter } from '../../server/table/yorktown-adapter.ts';
import { faultyDisk, makeImmutable, type FaultyDisk } from './faulty-disk.ts';
import { checkJournal, readJournal } from './journal-check.ts';
import { call, startServer, tempSetup } from './server-process.ts';

const PIN = '1357';
const STORAGE_CODES = ['diskFull', 'dbReadOnly', 'dbIoError', 'dbError'];

function captureLog() {
  const lines: { level: string; obj: unknown; msg?: string }[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

async function open(dbFile: string, log = captureLog().log): Promise<BuiltApp> {
  const tables = [{ ...defaultTable(), camera: cameraConfig('none'), serial: { kind: 'none' as const } }];
  return buildApp({ service: () => new TableService({ config: { tables, pin: PIN }, dbFile, games: tableGames, log, kiosk: { autoStart: false }, unsavedRetryMs: 200 }) });
}

async function post(b: BuiltApp, command: GameCommand) {
  return b.app.inject({ method: 'POST', url: '/api/tables/default/commands', headers: { authorization: `Bearer ${PIN}` }, payload: command });
}
const snapshot = async (b: BuiltApp) => (await b.app.inject({ url: '/api/tables/default/state' })).json();

let disk: FaultyDisk | null = null;
let built: BuiltApp | null = null;
afterEach(async () => {
  await built?.app.close();
  built = null;
  disk?.cleanup();
  disk = null;
});

for (const fault of ['full', 'readOnly'] as const) {
  describe(`the database ${fault === 'full' ? 'disk is full' : 'becomes read-only'} during a game`, () => {
    it('play goes on, the alert and the log say so, the backlog is written once the disk recovers, and a reopen replays it all', async () => {
      disk = faultyDisk(fault === 'full', 3072);
      console.log(`storage fault "${fault}": ${disk.mode}`);
      const dbFile = join(disk.dir, 'db.sqlite');
      const { lines, log } = captureLog();
      built = await open(dbFile, log);
      const plan = yorktownAdapter.attractPlan(21);
      let next = 0;
      const play = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const r = await post(built!, plan[next++]);
          expect(r.statusCode, JSON.stringify(r.json())).toBeLessThan(500);
        }
      };
      await play(20);
      const savedSeq = (await snapshot(built)).seq;
      const db = built.service.db;
      if (fault === 'full') disk.fill(db);
      else disk.readOnly(db, dbFile);
      // keep playing until the disk refuses a write (a full disk may still take a few pages)
      let snap = await snapshot(built);
      for (let i = 0; i < 150 && !snap.alerts.some((a: { code: string }) => STORAGE_CODES.includes(a.code)); i++) {
        await play(1);
        snap = await snapshot(built);
      }
      const alert = snap.alerts.find((a: { code: string }) => STORAGE_CODES.includes(a.code));
      expect(alert, 'an alert names the storage fault').toBeTruthy();
      if (fault === 'full' && disk.mode === 'real') expect(alert.code).toBe('diskFull');
      if (fault === 'readOnly' && disk.mode === 'simulated') expect(alert.code).toBe('dbReadOnly');
      expect(alert.message).toMatch(/no longer saved/);
      expect(lines.some((l) => l.level === 'error' && String(l.msg).includes('no longer saved'))).toBe(true);
      // the game goes on in memory
      await play(10);
      const inMemory = await snapshot(built);
      expect(inMemory.seq).toBeGreaterThan(savedSeq);
      expect(inMemory.alerts.find((a: { code: string }) => a.code === alert.code).message).toMatch(/\(\d+ unsaved\)/);
      // the disk recovers: the backlog is written and the alert goes away, by the table trying again
      // on its own (no command comes), or with the next command
      if (fault === 'full') disk.free(db);
      else disk.writable(db, dbFile);
      if (fault === 'full') {
        const seq = (await snapshot(built)).seq;
        await expect.poll(async () => (await snapshot(built!)).alerts.filter((a: { code: string }) => STORAGE_CODES.includes(a.code))).toEqual([]);
        expect((await snapshot(built)).seq).toBe(seq);
        expect(lines.some((l) => l.level === 'info' && String(l.msg).includes('unsaved journal entries written'))).toBe(true);
      } else {
        await play(1);
      }
      const recovered = await snapshot(built);
      expect(recovered.alerts.filter((a: { code: string }) => STORAGE_CODES.includes(a.code))).toEqual([]);
      await built.app.close();
      built = null;
      // reopen: exactly the state the table had, journal whole
      const rows = readJournal(dbFile, 'default');
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: recovered.seq }, (_, i) => i + 1));
      expect(checkJournal(rows, yorktownAdapter, [], rows.map((r) => r.command)).problems).toEqual([]);
      built = await open(dbFile);
      const reopened = await snapshot(built);
      expect(reopened.seq).toBe(recovered.seq);
      expect(isDeepStrictEqual(reopened.state, recovered.state)).toBe(true);
    }, 60_000);

    it('a process that ends while the disk refuses writes leaves a whole journal up to the last saved command', async () => {
      disk = faultyDisk(fault === 'full', 3072);
      const dbFile = join(disk.dir, 'db.sqlite');
      built = await open(dbFile);
      const plan = yorktownAdapter.attractPlan(22);
      for (const c of plan.slice(0, 15)) await post(built, c);
      const db = built.service.db;
      if (fault === 'full') disk.fill(db);
      else disk.readOnly(db, dbFile);
      let alerted = false;
      for (const c of plan.slice(15, 200)) {
        await post(built, c);
        if ((await snapshot(built)).alerts.length > 0) {
          alerted = true;
          break;
        }
      }
      expect(alerted).toBe(true);
      for (const c of plan.slice(200, 210)) await post(built, c);
      await built.app.close();
      built = null;
      if (fault === 'full') disk.free(db);
      else disk.writable(db, dbFile);
      const check = new Database(dbFile, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();
      const rows = readJournal(dbFile, 'default');
      expect(rows.length).toBeGreaterThanOrEqual(15);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      expect(checkJournal(rows, yorktownAdapter, [], rows.map((r) => r.command)).problems).toEqual([]);
      built = await open(dbFile);
      expect((await snapshot(built)).seq).toBe(rows.length);
    }, 60_000);
  });
}

describe('the database file is read-only when the service starts', () => {
  const root = process.getuid?.() === 0;

  /** chattr +i as root (root ignores permissions), chmod otherwise; false when neither holds */
  function lockDown(paths: string[], on: boolean): boolean {
    if (root) return makeImmutable(paths, on);
    for (const p of paths) chmodSync(p, on ? (statSync(p).isDirectory() ? 0o555 : 0o444) : statSync(p).isDirectory() ? 0o755 : 0o644);
    return true;
  }

  it('a copy left by a crash (journal frames still in the -wal file) is replayed whole, and the file is never written', async () => {
    const live = mkdtempSync(join(tmpdir(), 'flightdeck-ro-live-'));
    const frozen = mkdtempSync(join(tmpdir(), 'flightdeck-ro-frozen-'));
    const names = ['db.sqlite', 'db.sqlite-wal', 'db.sqlite-shm'];
    let locked: string[] = [];
    try {
      built = await open(join(live, 'db.sqlite'));
      for (const c of yorktownAdapter.attractPlan(9).slice(0, 12)) expect((await post(built, c)).statusCode).toBe(200);
      const before = await snapshot(built);
      // the files as a power cut would leave them: the last commands only in the -wal file
      for (const name of names) if (existsSync(join(live, name))) copyFileSync(join(live, name), join(frozen, name));
      expect(existsSync(join(frozen, 'db.sqlite-wal'))).toBe(true);
      await built.app.close();
      built = null;
      locked = [...names.map((n) => join(frozen, n)).filter((p) => existsSync(p)), frozen];
      const bytes = locked.slice(0, -1).map((p) => readFileSync(p));
      if (!lockDown(locked, true)) return console.warn('cannot make the files read-only here: skipped');
      const { lines, log } = captureLog();
      built = await open(join(frozen, 'db.sqlite'), log);
      const after = await snapshot(built);
      expect(after.seq).toBe(before.seq);
      expect(isDeepStrictEqual(after.state, before.state)).toBe(true);
      expect(after.alerts.find((a: { code: string }) => a.code === 'dbUnavailable')?.message, JSON.stringify(after.alerts)).toMatch(/not being saved/);
      expect(lines.some((l) => l.level === 'error' && String(l.msg).includes('not being saved'))).toBe(true);
      const next = yorktownAdapter.attractPlan(9)[12];
      expect((await post(built, next)).statusCode).toBe(200);
      expect((await snapshot(built)).seq).toBe(before.seq + 1);
      await built.app.close();
      built = null;
      expect(locked.slice(0, -1).map((p) => readFileSync(p).equals(bytes[locked.indexOf(p)]))).toEqual(locked.slice(0, -1).map(() => true));
    } finally {
      if (locked.length > 0) lockDown(locked, false);
      rmSync(live, { recursive: true, force: true });
      rmSync(frozen, { recursive: true, force: true });
    }
  }, 60_000);

  it('a file that is not a database at all gives an empty table in memory, with the alert', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flightdeck-ro-junk-'));
    const file = join(dir, 'db.sqlite');
    writeFileSync(file, 'this is not a database, and it must stay as it is');
    try {
      const { lines, log } = captureLog();
      built = await open(file, log);
      const snap = await snapshot(built);
      expect(snap.seq).toBe(0);
      expect(snap.alerts.find((a: { code: string }) => a.code === 'dbUnavailable')?.message).toMatch(/cannot be opened.*not being saved/);
      expect(lines.some((l) => l.level === 'error')).toBe(true);
      expect((await post(built, { type: 'newGame', players: 2 })).statusCode).toBe(200);
      await built.app.close();
      built = null;
      expect(readFileSync(file, 'utf8')).toBe('this is not a database, and it must stay as it is');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!root)('the real server starts, plays on in memory and says nothing is saved', async () => {
    const setup = tempSetup([{ id: 'default' }]);
    const dbFile = join(setup.dataDir, 'flightdeck.sqlite');
    let server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
    try {
      for (const c of yorktownAdapter.attractPlan(5).slice(0, 10)) await call(server.url, 'POST', '/api/tables/default/commands', c);
      await server.kill('SIGTERM');
      if (!makeImmutable([dbFile, setup.dataDir], true)) return console.warn('chattr +i is not available here: skipped');
      server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
      const snap = (await call(server.url, 'GET', '/api/tables/default/state')).json;
      expect(snap.alerts.map((a: { code: string }) => a.code)).toContain('dbUnavailable');
      expect(server.lines.some((l) => l.includes('"level":50') && l.includes('cannot be opened'))).toBe(true);
      expect((await call(server.url, 'POST', '/api/tables/default/commands', { type: 'newGame', players: 1 })).status).toBe(200);
    } finally {
      await server.kill('SIGKILL');
      makeImmutable([dbFile, setup.dataDir], false);
      setup.cleanup();
    }
  }, 60_000);

  // Once a defect: when the database could not be opened for writing the service fell back to an empty
  // ':memory:' database, so the games saved in the (readable) file were not shown. Now the tables replay
  // from an in-memory copy of the file, new entries stay in memory, and the alert says nothing is saved.
  it.skipIf(!root)('the tables come back with the games the read-only file holds', async () => {
    const setup = tempSetup([{ id: 'default' }]);
    const dbFile = join(setup.dataDir, 'flightdeck.sqlite');
    let server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
    try {
      for (const c of yorktownAdapter.attractPlan(5).slice(0, 10)) await call(server.url, 'POST', '/api/tables/default/commands', c);
      const before = (await call(server.url, 'GET', '/api/tables/default/state')).json;
      await server.kill('SIGTERM');
      if (!makeImmutable([dbFile, setup.dataDir], true)) throw new Error('chattr unavailable');
      const fileBefore = readFileSync(dbFile);
      server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
      const after = (await call(server.url, 'GET', '/api/tables/default/state')).json;
      expect(after.seq).toBe(before.seq);
      expect(isDeepStrictEqual(after.state, before.state)).toBe(true);
      const alert = after.alerts.find((a: { code: string }) => a.code === 'dbUnavailable');
      expect(alert?.message).toMatch(/not being saved/);
      expect(server.lines.some((l) => l.includes('"level":50') && l.includes('not being saved'))).toBe(true);
      // play goes on in memory; the file is never written
      const next = yorktownAdapter.attractPlan(5)[10];
      expect((await call(server.url, 'POST', '/api/tables/default/commands', next)).status).toBe(200);
      expect((await call(server.url, 'GET', '/api/tables/default/state')).json.seq).toBe(before.seq + 1);
      await server.kill('SIGTERM');
      expect(readFileSync(dbFile).equals(fileBefore)).toBe(true);
      // writable again: the file still holds exactly the saved game
      makeImmutable([dbFile, setup.dataDir], false);
      server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
      const reopened = (await call(server.url, 'GET', '/api/tables/default/state')).json;
      expect(reopened.seq).toBe(before.seq);
      expect(reopened.alerts).toEqual([]);
    } finally {
      await server.kill('SIGKILL');
      makeImmutable([dbFile, setup.dataDir], false);
      setup.cleanup();
    }
  }, 60_000);
});
