import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { localDay } from '../../server/store/stats-store.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { startHardware } from '../../server/table/table-hardware.ts';
import { tableGames } from '../../server/table/games.ts';
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

describe('demo station (kiosk)', () => {
  it('plays attract games when idle, keeps them out of the statistics, and resets between visitors', async () => {
    let clock = Date.UTC(2026, 2, 3, 9, 0, 0);
    built = await testApp({
      dbFile: join(dir.dir, 'db.sqlite'),
      games,
      now: () => clock,
      tables: [{ game: 'tally', kiosk: { attractAfterMinutes: 1, resetAfterGameSeconds: 10, idleResetMinutes: 5 } }],
      kiosk: { autoStart: false, stepMs: 1000, attractEndSeconds: 20 },
    });
    const b = built;
    const kiosk = b.service.kiosks.get('default')!;
    const state = async () => (await b.app.inject({ url: '/api/tables/default/state' })).json();
    const tick = (ms: number) => {
      clock += ms;
      kiosk.tick();
    };

    tick(30_000);
    expect((await state()).seq).toBe(0); // not idle long enough yet
    tick(31_000);
    let s = await state();
    expect(s).toMatchObject({ attract: true, kiosk: true, seq: 1, resetAt: null });
    for (let i = 0; i < 10; i++) tick(1000);
    s = await state();
    expect(s.state).toMatchObject({ tally: 5, outcome: { result: 'won' } });
    expect(s.attract).toBe(true);
    expect(b.service.journal.load('default').every((e) => e.origin === 'attract')).toBe(true);
    let stats = (await b.app.inject({ url: `/api/tables/default/stats?day=${localDay(clock)}` })).json();
    expect(stats).toMatchObject({ games: 0, attractGames: 1 });

    tick(21_000); // the attract game's end has been shown: reset
    s = await state();
    expect(s.state.started).toBeNull();
    tick(1000); // still idle: the next attract game
    expect((await state()).attract).toBe(true);

    // a visitor takes over: the attract game goes, theirs starts on a clean table
    const mine = await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    expect(mine.statusCode).toBe(200);
    s = await state();
    expect(s.attract).toBe(false);
    expect(s.state.tally).toBe(0);
    const origins = b.service.journal.load('default').slice(-2).map((e) => [e.origin, e.command.type]);
    expect(origins).toEqual([['kiosk', 'resetTable'], ['player', 'newGame']]);

    // the visitor wins; 10 s later the table is ready for the next ones
    clock += 5000;
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'win' }, headers: auth() });
    tick(5000);
    s = await state();
    expect(s.state.outcome).not.toBeNull();
    // the screens are told when the table clears itself
    expect(s.resetAt).toBe(s.state.outcome.at + 10_000);
    expect(s.resetWarnAt).toBeNull();
    tick(6000);
    expect((await state()).state.outcome).toBeNull();
    stats = (await b.app.inject({ url: `/api/tables/default/stats?day=${localDay(clock)}` })).json();
    expect(stats).toMatchObject({ games: 1, results: { won: 1 }, attractGames: 1 });

    // a game nobody made a move in since it started (a stray tap) is cleared as soon as an empty table would show the attract mode
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    expect((await state())).toMatchObject({ resetAt: clock + 60_000, resetWarnAt: clock + 30_000 });
    tick(59_000);
    expect((await state()).state.started).not.toBeNull();
    tick(1000);
    expect((await state()).state.started).toBeNull();

    // a game left alone is abandoned after idleResetMinutes, unless a visitor says they are still playing
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'add', n: 1 }, headers: auth() });
    expect((await state())).toMatchObject({ resetAt: clock + 5 * 60_000, resetWarnAt: clock + 4 * 60_000 });
    tick(4 * 60_000);
    expect((await state()).state.started).not.toBeNull();
    const here = await b.app.inject({ method: 'POST', url: '/api/tables/default/still-here', headers: auth() });
    expect(here.json()).toEqual({ ok: true, resetAt: clock + 5 * 60_000, resetWarnAt: clock + 4 * 60_000 });
    expect((await state()).resetAt).toBe(clock + 5 * 60_000);
    tick(61_000);
    expect((await state()).state.started).not.toBeNull();
    tick(4 * 60_000);
    expect((await state()).state.started).toBeNull();
    // counted apart from the finished games, with how it was left; so is one a new game took the place of
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    clock += 1000;
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'add', n: 1 }, headers: auth() });
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    // and one nobody made a move in before another took its place: untouched, like the stray tap's
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    stats = (await b.app.inject({ url: `/api/tables/default/stats?day=${localDay(clock)}` })).json();
    expect(stats).toMatchObject({ games: 1, results: { won: 1 }, abandoned: { games: 2, causes: { leftAlone: 1, newGame: 1 } }, untouched: 2, attractGames: 1 });
    // how long each was played before it was left, for the owner to see how far visitors get: the one left
    // alone until its visitors' last sign (the "still playing" at 4 minutes), not until the reset 5 minutes after
    expect(stats.abandoned.recent.map((r: { cause: string; durationMs: number }) => [r.cause, r.durationMs])).toEqual([['leftAlone', 240_000], ['newGame', 1000]]);
    expect(stats.abandoned.durationMs).toEqual({ median: 120_500, mean: 241_000 / 2, min: 1000, max: 240_000 });
  });
});

describe('Yorktown attract mode', () => {
  it('plays a whole game of the engine\'s built-in policy on the table', async () => {
    const { tableGames } = await import('../../server/table/games.ts');
    let clock = Date.UTC(2026, 2, 3, 9, 0, 0);
    built = await testApp({
      dbFile: join(dir.dir, 'db.sqlite'),
      games: tableGames,
      now: () => clock,
      tables: [{ kiosk: { attractAfterMinutes: 1, resetAfterGameSeconds: 10, idleResetMinutes: 5 } }],
      kiosk: { autoStart: false, stepMs: 1000, attractEndSeconds: 20, random: () => 0.25 },
    });
    const table = built.service.first();
    const kiosk = built.service.kiosks.get('default')!;
    clock += 61_000;
    kiosk.tick();
    expect(table.attract).toBe(true);
    let steps = 0;
    while (table.adapter.outcome(table.state) === null && table.attract && steps < 5000) {
      clock += 1000;
      kiosk.tick();
      steps++;
    }
    const outcome = table.adapter.outcome(table.state);
    expect(outcome, 'the attract game ends').not.toBeNull();
    const entries = built.service.journal.load('default');
    expect(entries.filter((e) => e.command.type === 'resetTable')).toEqual([]);
    expect(entries.length).toBeGreaterThan(20);
    expect(built.service.stats.day('default', localDay(clock))).toMatchObject({ games: 0, attractGames: 1 });
  });
});

describe('an attract game ends on the table', () => {
  const kioskTable = { kiosk: { attractAfterMinutes: 1, resetAfterGameSeconds: 10, idleResetMinutes: 5 } };
  /** the kiosk's random number that makes this the attract game's seed */
  const seedOf = (seed: number) => () => (seed + 0.5) / 0xffffffff;

  async function station(dbFile: string, clock: { now: number }, kiosk: { stepMs: number; random?: () => number }) {
    const { tableGames } = await import('../../server/table/games.ts');
    built = await testApp({ dbFile, games: tableGames, now: () => clock.now, tables: [kioskTable], kiosk: { autoStart: false, attractEndSeconds: 20, ...kiosk } });
    return { table: built.service.first(), kiosk: built.service.kiosks.get('default')!, service: built.service };
  }

  function playUntilOver(s: Awaited<ReturnType<typeof station>>, clock: { now: number }, stepMs: number): number {
    let steps = 0;
    while (s.table.adapter.outcome(s.table.state) === null && s.table.attract && steps < 5000) {
      clock.now += stepMs;
      s.kiosk.tick();
      steps++;
    }
    return steps;
  }

  it('plays on at the table\'s pace to the game\'s end, which stays on screen, is counted, and then clears', async () => {
    // seed 5: the same policy on the simulation's slower clock runs out of time after 387 commands; at one
    // command a second the table's stopwatch has most of its time left then, and the game goes on
    const clock = { now: Date.UTC(2026, 2, 3, 9, 0, 0) };
    const s = await station(join(dir.dir, 'db.sqlite'), clock, { stepMs: 1000, random: seedOf(5) });
    clock.now += 61_000;
    s.kiosk.tick();
    expect(s.table.attract).toBe(true);
    expect(s.service.journal.load('default')[0].command).toMatchObject({ type: 'newGame', seed: 5 });
    playUntilOver(s, clock, 1000);
    const outcome = s.table.adapter.outcome(s.table.state);
    expect(outcome, 'the attract game ends').not.toBeNull();
    expect(s.service.journal.load('default').filter((e) => e.command.type === 'resetTable')).toEqual([]);
    expect(s.service.stats.day('default', localDay(clock.now))).toMatchObject({ games: 0, attractGames: 1 });
    // its end screen: shown for the attract end pause, then the table clears
    clock.now += 19_000;
    s.kiosk.tick();
    expect(s.table.snapshot({ canControl: false, showPin: false })).toMatchObject({ attract: true, state: { outcome: { result: outcome!.result } } });
    clock.now += 2000;
    s.kiosk.tick();
    expect(s.service.journal.load('default').at(-1)).toMatchObject({ origin: 'kiosk', command: { type: 'resetTable' } });
    expect(s.table.adapter.running(s.table.state)).toBe(false);
  });

  it('is lost on time when the table\'s stopwatch runs out first', async () => {
    const clock = { now: Date.UTC(2026, 2, 3, 9, 0, 0) };
    const s = await station(join(dir.dir, 'db.sqlite'), clock, { stepMs: 30_000, random: seedOf(5) });
    clock.now += 61_000;
    s.kiosk.tick();
    playUntilOver(s, clock, 30_000);
    expect(s.table.adapter.outcome(s.table.state)).toMatchObject({ result: 'lost', cause: 'time' });
    expect(s.service.stats.day('default', localDay(clock.now))).toMatchObject({ games: 0, attractGames: 1 });
  });

  it('carries on after a restart from the state the journal restores', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    const clock = { now: Date.UTC(2026, 2, 3, 9, 0, 0) };
    let s = await station(dbFile, clock, { stepMs: 1000, random: () => 0.25 });
    clock.now += 61_000;
    s.kiosk.tick();
    for (let i = 0; i < 40; i++) {
      clock.now += 1000;
      s.kiosk.tick();
    }
    expect(s.table.attract).toBe(true);
    expect(s.table.adapter.running(s.table.state)).toBe(true);
    const seqBefore = s.table.seq;
    await built!.app.close();

    clock.now += 5000; // the service is back
    s = await station(dbFile, clock, { stepMs: 1000, random: () => 0.25 });
    expect(s.table).toMatchObject({ attract: true, seq: seqBefore });
    clock.now += 1000;
    s.kiosk.tick();
    expect(s.table.seq, 'the next command of the same game').toBe(seqBefore + 1);
    expect(s.table.attract).toBe(true);
    playUntilOver(s, clock, 1000);
    expect(s.table.adapter.outcome(s.table.state), 'the attract game ends').not.toBeNull();
    const entries = s.service.journal.load('default');
    expect(entries.filter((e) => e.command.type === 'resetTable' || e.command.type === 'newGame')).toHaveLength(1);
    expect(s.service.stats.day('default', localDay(clock.now))).toMatchObject({ games: 0, attractGames: 1 });
  });
});

describe('a visitor game left alone across a restart', () => {
  it("is counted as played until the visitors' last move before the restart, and reset the idle wait after that move", async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    let clock = Date.UTC(2026, 2, 3, 9, 0, 0);
    const open = async () => {
      built = await testApp({ dbFile, games, now: () => clock, tables: [{ game: 'tally', kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 10, idleResetMinutes: 5 } }], kiosk: { autoStart: false } });
      return built;
    };
    let b = await open();
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', minutes: 30 }, headers: auth() });
    clock += 60_000;
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'add', n: 1 }, headers: auth() });
    await b.app.close();
    // back two minutes later; the visitors have gone
    clock += 120_000;
    b = await open();
    expect((await b.app.inject({ url: '/api/tables/default/state' })).json().resetAt).toBe(Date.UTC(2026, 2, 3, 9, 0, 0) + 60_000 + 5 * 60_000);
    clock += 3 * 60_000 + 1000;
    b.service.kiosks.get('default')!.tick();
    const stats = (await b.app.inject({ url: `/api/tables/default/stats?day=${localDay(clock)}` })).json();
    expect(stats.abandoned.recent.map((r: { cause: string; durationMs: number }) => [r.cause, r.durationMs])).toEqual([['leftAlone', 60_000]]);
  });
});

describe('attract mode with the synthetic camera', () => {
  it('shows its dice on the camera and the table reads them through the camera pipeline', async () => {
    const { tableGames } = await import('../../server/table/games.ts');
    const { cameraConfig } = await import('../../server/config/service-config.ts');
    const { startHardware } = await import('../../server/table/table-hardware.ts');
    type Synthetic = import('../../server/hardware/camera/synthetic-tray-source.ts').SyntheticTraySource;
    let synthetic: Synthetic | null = null;
    // stands in for the dice model: the dice the synthetic tray drew in its settled frame, nothing in moving frames
    const groundTruth = {
      backend: 'ground-truth (test)',
      read: async (image: Buffer) => {
        const settled = synthetic?.settledFrame();
        if (!settled || !settled.image.equals(image)) return { width: 640, height: 480, dice: [] };
        return { width: 640, height: 480, dice: settled.dice.map((d) => ({ ...d, score: 1 })) };
      },
    };
    let clock = Date.now();
    built = await testApp({
      dbFile: join(dir.dir, 'db.sqlite'),
      games: tableGames,
      now: () => clock,
      tables: [{ camera: cameraConfig({ source: 'synthetic', fps: 10, movingFrames: 2 }), kiosk: { attractAfterMinutes: 1, resetAfterGameSeconds: 10, idleResetMinutes: 5 } }],
      kiosk: { autoStart: false, stepMs: 0, cameraWaitMs: 60_000 },
      hardware: async (service) => {
        const h = await startHardware(service, { reader: async () => groundTruth, log: { info() {}, warn() {}, error() {} } });
        synthetic = h.tables.get('default')!.synthetic;
        return h;
      },
    });
    const kiosk = built.service.kiosks.get('default')!;
    clock += 61_000;
    kiosk.tick();
    expect(built.service.first().attract).toBe(true);
    const fromCamera = () => built!.service.journal.load('default').filter((e) => e.origin === 'camera');
    for (let i = 0; i < 1800 && fromCamera().length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      clock += 50;
      kiosk.tick();
    }
    const readings = fromCamera();
    expect(readings.length).toBeGreaterThanOrEqual(2);
    expect(readings[0].command.type).toBe('dice');
    expect(built.service.journal.load('default').filter((e) => e.command.type === 'resetTable')).toEqual([]);
  }, 180_000);
});

describe('a demo station\'s button box', () => {
  it('starts a visitor\'s game from any button when no person is playing, and counts every press as someone there', async () => {
    let clock = Date.UTC(2026, 2, 3, 9, 0, 0);
    built = await testApp({
      dbFile: join(dir.dir, 'db.sqlite'),
      games: tableGames,
      now: () => clock,
      tables: [{ serial: { kind: 'virtual' }, kiosk: { attractAfterMinutes: 1, resetAfterGameSeconds: 10, idleResetMinutes: 5 } }],
      kiosk: { autoStart: false, stepMs: 1000, attractEndSeconds: 20, random: () => 0.25 },
      hardware: (service) => startHardware(service, { reader: () => Promise.reject(new Error('not used')), log: { info() {}, warn() {}, error() {} } }),
    });
    const b = built;
    const table = b.service.first();
    const kiosk = b.service.kiosks.get('default')!;
    const press = async (button: string, kind = 'short') => (await b.app.inject({ method: 'POST', url: '/api/tables/default/box/press', payload: { button, press: kind }, headers: auth() })).json();
    const last = () => b.service.journal.load('default').at(-1)!;
    const tick = (ms: number) => {
      clock += ms;
      kiosk.tick();
    };

    // the empty table: any button
    expect(await press('plane3')).toMatchObject({ ok: true, refused: false, note: expect.stringMatching(/a new game/) });
    expect(last()).toMatchObject({ origin: 'box', command: { type: 'newGame', players: 4 } });
    expect(table.adapter.running(table.state)).toBe(true);
    // a plane picked, then the visitors walk away: the selection does not wait for the next ones
    await press('confirm'); // the set-up cards
    await press('plane2');
    expect(table.snapshot({ canControl: false, showPin: false }).leds).toMatchObject({ planes: ['off', 'on', 'off', 'off'] });
    // the next game (here from the dashboard) starts with no plane picked
    await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', players: 4 }, headers: auth() });
    await press('confirm');
    expect(table.snapshot({ canControl: false, showPin: false }).leds).toMatchObject({ planes: ['off', 'off', 'off', 'off'] });
    // a press that sends no command still counts as someone playing
    tick(4 * 60_000);
    await press('plane2');
    tick(2 * 60_000);
    expect(table.adapter.running(table.state)).toBe(true);
    tick(4 * 60_000);
    expect(table.adapter.running(table.state)).toBe(false); // abandoned after 5 idle minutes: reset
    expect(table.snapshot({ canControl: false, showPin: false }).leds?.planes).toEqual(['off', 'off', 'off', 'off']);

    // the attract game: a press ends it and starts the visitor's own
    tick(61_000);
    expect(table.attract).toBe(true);
    for (let i = 0; i < 5; i++) tick(1000);
    expect(await press('confirm')).toMatchObject({ ok: true, refused: false });
    expect(b.service.journal.load('default').slice(-2).map((e) => [e.origin, e.command.type])).toEqual([['kiosk', 'resetTable'], ['box', 'newGame']]);
    expect(table.attract).toBe(false);
    tick(1000);
    expect(table.attract).toBe(false);

    // a person's command refused during the attract game: the table is theirs, the demo does not come back at once
    tick(5 * 60_000 + 1000); // abandoned
    tick(61_000);
    expect(table.attract).toBe(true);
    const refused = await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'endTurn' }, headers: auth() });
    expect(refused.statusCode).toBe(409);
    tick(1000);
    tick(1000);
    expect(table.attract).toBe(false);
    expect(last()).toMatchObject({ origin: 'kiosk', command: { type: 'resetTable' } });
  });
});
