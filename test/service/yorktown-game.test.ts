/** A short 1942 USS Yorktown game played through the HTTP API and watched over socket.io. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import type { Socket } from 'socket.io-client';
import type { BuiltApp } from '../../server/http/app.ts';
import type { TableSnapshot } from '../../server/http/protocol.ts';
import type { YorktownState } from '../../server/games/yorktown1942/index.ts';
import { localDay } from '../../server/store/stats-store.ts';
import { tableGames } from '../../server/table/games.ts';
import { auth, listen, nextEvent, socketClient, tempDir, testApp } from './helpers.ts';

let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;
let watcher: Socket | null = null;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  watcher?.close();
  await built?.app.close();
  built = null;
  dir.cleanup();
});

describe('a short Yorktown game through the API', () => {
  it('plays, enters dice by hand, undoes, loses on time, and counts the game in the statistics', async () => {
    let clock = Date.UTC(2026, 5, 1, 10, 0, 0);
    const dbFile = join(dir.dir, 'db.sqlite');
    built = await testApp({ dbFile, games: tableGames, now: () => clock });
    const b = built;
    const url = await listen(b);
    watcher = socketClient(url, {});
    await nextEvent(watcher, 'state');

    const send = async (command: Record<string, unknown>, expected = 200) => {
      clock += 2000;
      const r = await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: command, headers: auth() });
      expect(r.statusCode, `${JSON.stringify(command)} -> ${r.body}`).toBe(expected);
      return r.json() as { state: YorktownState; events: { type: string }[]; seq: number; error?: { code: string } };
    };

    const started = await send({ type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    expect(started.state.phase).toBe('japanese');
    expect(started.state.deck.drawPile).toEqual([]); // hidden from clients
    expect(started.events.map((e) => e.type)).toContain('gameStarted');
    expect(started.events.find((e) => e.type === 'gameStarted')).not.toHaveProperty('seed');
    expect(started.state.seed).toBeNull();
    expect((await send({ type: 'drawCard' })).state.phase).toBe('planes');
    for (const plane of [1, 2, 3]) await send({ type: 'chooseAction', plane, action: 'move' });
    await send({ type: 'chooseAction', plane: 4, action: 'attack' });
    const rolling = await send({ type: 'attack', plane: 4, target: 'planes' });
    expect(rolling.state.roll?.tracker.spec.dice).toBe(4);

    // the watcher sees each reading pushed
    const pushed = nextEvent<TableSnapshot<YorktownState>>(watcher, 'state', (s) => s.state.roll?.tracker.faces?.length === 4);
    const first = await send({ type: 'dice', faces: [2, 4, 6, 3] });
    expect(first.state.roll?.tracker.faces).toEqual([2, 4, 6, 3]);
    expect((await pushed).canControl).toBe(false);

    const second = await send({ type: 'dice', faces: [1, 5, 5, 3] });
    expect(second.state.roll?.tracker.lockedOnes).toBe(1);
    const undone = await send({ type: 'undo' });
    expect(undone.state.roll?.tracker.faces).toEqual([2, 4, 6, 3]);
    expect(undone.state.roll?.tracker.lockedOnes).toBe(0);
    await send({ type: 'dice', faces: [1, 5, 5, 3] });
    await send({ type: 'confirmRoll' });
    const illegal = await send({ type: 'attack', plane: 4, target: 'planes' }, 409);
    expect(illegal.error?.code).toBeTypeOf('string');
    await send({ type: 'move', plane: 3, to: 'approach' });
    const ended = await send({ type: 'endTurn' });
    expect(ended.state.turn).toBe(2);
    expect(ended.state.phase).toBe('japanese');
    // newGame and timeUp cannot be undone
    const stateBefore = (await b.app.inject({ url: '/api/tables/default/state' })).json();

    // the stopwatch runs out: the next command finds the game lost on time
    clock = (stateBefore.state as YorktownState).deadline! + 1000;
    const over = await send({ type: 'drawCard' });
    expect(over.state.outcome).toMatchObject({ result: 'lost', cause: 'time' });
    expect((await send({ type: 'undo' }, 409)).error?.code).toBe('cannotUndo');

    const stats = (await b.app.inject({ url: `/api/tables/default/stats?day=${localDay(clock)}` })).json();
    expect(stats).toMatchObject({ games: 1, results: { lost: 1 }, causes: { time: 1 }, attractGames: 0 });
    expect(stats.durationMs.median).toBe(over.state.outcome!.at - started.state.startedAt!);
    expect(stats.recent[0].details).toMatchObject({ players: 2, turn: 2 });

    // and all of it comes back after a restart
    const finalState = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    // "What happened" for a page opened now: the game's events from its start, the undone ones gone
    const recent = (await b.app.inject({ url: '/api/tables/default/events' })).json();
    expect(recent.seq).toBe(finalState.seq);
    expect(recent.events[0].event.type).toBe('gameStarted');
    expect(recent.events.at(-1).event.type).toBe('gameOver');
    expect(recent.events.some((x: { event: { type: string } }) => x.event.type === 'undone')).toBe(false);
    watcher.close();
    watcher = null;
    await b.app.close();
    built = await testApp({ dbFile, games: tableGames, now: () => clock });
    const restored = (await built.app.inject({ url: '/api/tables/default/state' })).json();
    expect(restored.seq).toBe(finalState.seq);
    expect(restored.state).toEqual(finalState.state);
    expect((await built.app.inject({ url: '/api/tables/default/events' })).json()).toEqual(recent);
  });

  it('refuses a timeUp sent before the stopwatch runs out (timeNotUp): nothing journaled, the game goes on', async () => {
    let clock = Date.UTC(2026, 5, 1, 10, 0, 0);
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames, now: () => clock });
    const b = built;
    const post = (payload: Record<string, unknown>) => b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload, headers: auth() });
    const started = (await post({ type: 'newGame', seed: 5, players: 2, deck: 'digital' })).json() as { state: YorktownState };
    const deadline = started.state.deadline!;
    clock = deadline - 4 * 60_000 - 5_000;
    const before = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    const early = await post({ type: 'timeUp' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'timeNotUp', message: expect.stringContaining('4:05 left on the stopwatch') });
    expect(b.service.journal.load('default')).toHaveLength(1);
    expect((await b.app.inject({ url: '/api/tables/default/state' })).json()).toEqual(before);
    expect((await post({ type: 'drawCard' })).statusCode).toBe(200);
    // once it has run out, the game ends on time
    clock = deadline;
    const over = await post({ type: 'timeUp' });
    expect(over.statusCode).toBe(200);
    expect(over.json().state.outcome).toMatchObject({ result: 'lost', cause: 'time', at: deadline });
  });

  it('{"type": "newGame", "seed": 5} alone starts a standard game with the digital deck', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames });
    const r = await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', seed: 5 }, headers: auth() });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ seq: 1, state: { setup: { players: 4, deck: 'digital' }, phase: 'japanese' } });
  });

  it('/api/commands lists the Yorktown commands with their schemas', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames });
    const { commands } = (await built.app.inject({ url: '/api/commands' })).json();
    for (const type of ['newGame', 'drawCard', 'cardDrawn', 'chooseAction', 'takeOff', 'land', 'move', 'search', 'attack', 'dice', 'confirmRoll', 'skipAction', 'endTurn', 'timeUp', 'undo', 'resetTable']) {
      expect(commands[type], type).toMatchObject({ type: 'object' });
    }
    const bad = await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', players: 9 }, headers: auth() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('badCommand');
    const faces = await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'dice', faces: [7] }, headers: auth() });
    expect(faces.statusCode).toBe(400);
  });

  it('the published newGame schema is what is accepted: players optional, default 4', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames });
    const { commands } = (await built.app.inject({ url: '/api/commands' })).json();
    expect(commands.newGame.required).not.toContain('players');
    expect(commands.newGame.properties.players).toMatchObject({ type: 'integer', minimum: 1, maximum: 4, default: 4 });
    const ajv = new Ajv({ strict: false });
    const { $schema: _s, ...schema } = commands.newGame;
    const valid = ajv.compile(schema);
    for (const payload of [{ type: 'newGame', seed: 5 }, { type: 'newGame', seed: 5, players: 2 }, { type: 'newGame', players: 0 }, { type: 'newGame', players: '2' }]) {
      await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'resetTable' }, headers: auth() });
      const r = await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload, headers: auth() });
      expect(r.statusCode === 200, JSON.stringify(payload)).toBe(valid(payload));
    }
    const rows = built.service.journal.load('default').filter((r) => r.command.type === 'newGame');
    expect(rows.map((r) => r.command)).toEqual([
      { type: 'newGame', seed: 5, players: 4 },
      { type: 'newGame', seed: 5, players: 2 },
    ]);
  });
});

describe('the owner\'s rule corrections', () => {
  it('are checked when saved: one no game can be played with is refused, and what was saved stays', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames });
    const put = (ruleOverrides: Record<string, unknown>) => built!.app.inject({ method: 'PUT', url: '/api/tables/default/settings', payload: { ruleOverrides }, headers: auth() });
    expect((await put({ 'landing.safeEqual': 4 })).statusCode).toBe(200);
    for (const wrong of [{ 'nope.x': 1 }, { 'landing.safeEqual': 99 }, { 'skill.max': 0 }, { 'fuel.max': 'banana' }]) {
      const r = await put(wrong);
      expect(r.statusCode, JSON.stringify(wrong)).toBe(400);
      expect(r.json().error.code).toBe('badRuleOverride');
    }
    expect((await put({ 'landing.safeEqual': 99 })).json().error.message).toMatch(/landing.safeEqual asks for 99 equal dice: no roll has more than 12 dice/);
    expect((await built!.app.inject({ url: '/api/tables/default/settings' })).json().settings).toEqual({ ruleOverrides: { 'landing.safeEqual': 4 } });
    const game = await built!.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', players: 4 }, headers: auth() });
    expect(game.statusCode).toBe(200);
    expect((game.json().state as YorktownState).rules.landing.safeEqual).toBe(4);
  });
});
