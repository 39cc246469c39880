/**
 * The serial box misbehaves while a game is played from it: garbage, truncated, over-long and
 * flooding lines, silence, and unplugging/replugging. Two tables get the same button presses: one
 * from a well-behaved box, one from a misbehaving box whose presses are wrapped in all of that. Both
 * games must end up with the same journal of commands (nothing lost, nothing invented), and the
 * misbehaving box must come back by itself each time. The whole service wiring is real
 * (TableHardware → SerialButtonBox on a pty → BoxLink → table); only the firmware is a stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cameraConfig, defaultTable, type TableConfig } from '../../server/config/service-config.ts';
import { buildApp, type BuiltApp } from '../../server/http/app.ts';
import { tableGames } from '../../server/table/games.ts';
import { startHardware } from '../../server/table/table-hardware.ts';
import { TableService } from '../../server/table/table-service.ts';
import { PtyBox, socatAvailable } from './pty-box.ts';

const PIN = '9753';
const silent = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let root: string;
let built: BuiltApp;
let clean: PtyBox;
let noisy: PtyBox;

const serialState = async (table: string) => (await built.app.inject({ url: `/api/tables/${table}/state` })).json().hardware.serial;
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await probe()) return;
    await sleep(50);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}
const commandsOf = (table: string) =>
  built.service.journal.load(table).filter((e) => e.origin === 'box').map((e) => e.command);

describe.skipIf(!socatAvailable())('a misbehaving serial box (socat pty pair)', () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'flightdeck-serial-'));
    clean = new PtyBox(join(root, 'clean-host'), join(root, 'clean-box'));
    noisy = new PtyBox(join(root, 'noisy-host'), join(root, 'noisy-box'));
    await clean.plug();
    await noisy.plug();
    const base = { ...defaultTable(), camera: cameraConfig('none') };
    const tables: TableConfig[] = [
      { ...base, id: 'clean', name: 'clean', serial: { kind: 'port', path: clean.hostPath } },
      { ...base, id: 'noisy', name: 'noisy', serial: { kind: 'port', path: noisy.hostPath } },
    ];
    built = await buildApp({
      service: () => new TableService({ config: { tables, pin: PIN }, dbFile: join(root, 'db.sqlite'), games: tableGames, log: silent, kiosk: { autoStart: false } }),
      hardware: (svc, log) => startHardware(svc, { reader: async () => Promise.reject(new Error('no vision in this test')), log }),
    });
    await until('both boxes connected', async () => (await serialState('clean')).state === 'ok' && (await serialState('noisy')).state === 'ok');
  }, 30_000);
  afterAll(async () => {
    await built?.app.close();
    await clean?.unplug();
    await noisy?.unplug();
    rmSync(root, { recursive: true, force: true });
  });

  it('plays the same game from both boxes: every press arrives, garbage changes nothing, the box comes back by itself', async () => {
    for (const t of ['clean', 'noisy']) {
      const r = await built.app.inject({ method: 'POST', url: `/api/tables/${t}/commands`, headers: { authorization: `Bearer ${PIN}` }, payload: { type: 'newGame', players: 2, seed: 77 } });
      expect(r.statusCode).toBe(200);
    }
    const presses = ['confirm', 'plane1', 'move', 'plane2', 'move', 'plane3', 'search', 'plane4', 'takeoffLanding', 'plane1', 'undo', 'plane1', 'attack', 'confirm', 'plane2', 'confirm'];
    const faults: ((box: PtyBox) => Promise<void>)[] = [
      async (b) => b.raw(Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x41, 0x0d, 0x0a, 0x80, 0x81, 0x0a])), // binary garbage
      async (b) => b.raw('00 BTN P1 S *00\n'), // bad checksum
      async (b) => b.raw('Z'.repeat(500) + '\n'), // over-long line
      async (b) => {
        b.raw('07 BTN P2'); // truncated: the rest never comes
        await sleep(700);
      },
      async (b) => {
        for (let i = 0; i < 400; i++) b.raw(`garbage line ${i}\n`); // a flood
        await sleep(1200);
      },
      async (b) => {
        b.silent = true; // stops answering: the driver must give up on it and reconnect
        await until('silence noticed', async () => (await serialState('noisy')).state !== 'ok', 15_000);
        b.silent = false;
        await until('back after silence', async () => (await serialState('noisy')).state === 'ok', 30_000);
      },
      async (b) => {
        await b.unplug();
        await until('unplug noticed', async () => (await serialState('noisy')).state !== 'ok', 15_000);
        const during = await built.app.inject({ url: '/api/tables/noisy/state' });
        expect(during.statusCode).toBe(200); // the table is there and playable without its box
        expect(during.json().alerts.map((a: { code: string }) => a.code)).toContain('boxProblem');
        await b.plug();
        await until('replugged box reconnected', async () => (await serialState('noisy')).state === 'ok', 30_000);
      },
    ];
    for (const [i, button] of presses.entries()) {
      await faults[i % faults.length]?.(noisy);
      clean.press(button);
      noisy.press(button);
      await sleep(250); // a human pace, well under the box's 10 presses a second
    }
    // both tables have handled every press (the slower one catches up; a lost press never would)
    await until('both journals equally long', async () => commandsOf('noisy').length === commandsOf('clean').length, 10_000).catch(() => {});
    await sleep(300);
    const a = commandsOf('clean');
    const b = commandsOf('noisy');
    expect(a.length).toBeGreaterThanOrEqual(4); // the presses did drive the game
    expect(b).toEqual(a);
    console.log(`serial faults: ${presses.length} presses, ${a.length} commands from each box: ${a.map((c) => c.type).join(', ')}`);
    expect((await serialState('noisy')).state).toBe('ok');
    const sa = (await built.app.inject({ url: '/api/tables/clean/state' })).json();
    const sb = (await built.app.inject({ url: '/api/tables/noisy/state' })).json();
    expect(sb.seq).toBe(sa.seq);
    expect(sb.state.turn).toBe(sa.state.turn);
    expect(sb.state.planes).toEqual(sa.state.planes);
  }, 150_000);
});
