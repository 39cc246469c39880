/** The table's devices: the virtual box's buttons and LEDs, and camera readings turned into dice commands. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { tableGames } from '../../server/table/games.ts';
import { cameraStatusLog, startHardware, type TableHardware } from '../../server/table/table-hardware.ts';
import { cameraConfig } from '../../server/config/service-config.ts';
import { auth, listen, nextEvent, socketClient, startAttackRoll, tempDir, testApp } from './helpers.ts';

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

async function start(): Promise<{ b: BuiltApp; hw: TableHardware }> {
  let tables: Map<string, TableHardware> | null = null;
  built = await testApp({
    dbFile: join(dir.dir, 'db.sqlite'),
    games: tableGames,
    tables: [{ serial: { kind: 'virtual' } }],
    hardware: async (service) => {
      const h = await startHardware(service, { reader: () => Promise.reject(new Error('not used')), log: quiet });
      tables = h.tables;
      return h;
    },
  });
  return { b: built, hw: tables!.get('default')! };
}

/** One table with the synthetic camera, its dice reader failing to load with `readerError`. */
async function startWithSyntheticCamera(readerError: string): Promise<{ b: BuiltApp; hw: TableHardware }> {
  let tables: Map<string, TableHardware> | null = null;
  built = await testApp({
    dbFile: join(dir.dir, 'db.sqlite'),
    games: tableGames,
    tables: [{ camera: cameraConfig('synthetic') }],
    hardware: async (service) => {
      const h = await startHardware(service, { reader: () => Promise.reject(new Error(readerError)), log: quiet });
      tables = h.tables;
      return h;
    },
  });
  return { b: built, hw: tables!.get('default')! };
}

const post = (b: BuiltApp, url: string, payload: unknown) => b.app.inject({ method: 'POST', url, payload: payload as object, headers: auth() });

describe('virtual button box', () => {
  it('its buttons send commands, and its LEDs follow the game', async () => {
    const { b } = await start();
    let snap = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    expect(snap.hardware.serial).toMatchObject({ kind: 'simulated', state: 'ok' });
    expect(snap.leds).toEqual({ planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'off' });

    const watcher = socketClient(await listen(b), {});
    try {
      await nextEvent(watcher, 'state');
      const cue = nextEvent<{ cue: string }>(watcher, 'cue');
      const early = await post(b, '/api/tables/default/box/press', { button: 'confirm' });
      expect(early.json()).toMatchObject({ ok: true, note: 'no game is running: hold Confirm to start one, or set one up on the dashboard', refused: true });
      expect((await cue).cue).toBe('fail'); // the virtual box's buzzer sounds on the dashboards
    } finally {
      watcher.close();
    }

    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    expect((await post(b, '/api/tables/default/box/press', { button: 'confirm' })).statusCode).toBe(200);
    snap = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    expect(snap.state.phase).toBe('planes'); // confirm drew the Japanese card
    const last = b.service.journal.load('default').at(-1)!;
    expect(last).toMatchObject({ origin: 'box', command: { type: 'drawCard' } });

    await post(b, '/api/tables/default/box/press', { button: 'plane4' });
    snap = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    expect(snap.leds.planes).toEqual(['off', 'off', 'off', 'on']); // the selected plane
    await post(b, '/api/tables/default/box/press', { button: 'attack' });
    snap = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    expect(snap.state.planes[3].action).toBe('attack');
  });
});

describe('the box on the table screen', () => {
  const state = async (b: BuiltApp) => (await b.app.inject({ url: '/api/tables/default/state' })).json();
  const press = (b: BuiltApp, button: string, kind: 'short' | 'long' = 'short') => post(b, '/api/tables/default/box/press', { button, press: kind });

  it('the snapshot carries the last note (what a press did, or why it was refused, once per seq) and the plane selected', async () => {
    const { b } = await start();
    expect((await state(b)).box).toEqual({ note: null, selected: null });
    await press(b, 'confirm');
    let snap = await state(b);
    expect(snap.box.note).toMatchObject({ seq: 1, refused: true, key: 'noGame', params: {}, text: expect.stringMatching(/^no game is running/) });
    expect(typeof snap.box.note.at).toBe('number');

    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await press(b, 'confirm'); // draws the card: the push of that command carries the note
    await press(b, 'plane2');
    snap = await state(b);
    expect(snap.box).toEqual({ note: expect.objectContaining({ seq: 3, refused: false, key: 'selected', params: { plane: 2 } }), selected: 2 });

    // the engine refuses the command a press sent: its code and words (the page words them as it does refusals)
    await press(b, 'plane4');
    await press(b, 'attack'); // plane 4 chooses its attack
    await press(b, 'attack'); // the box says the others choose first: nothing is sent
    expect((await state(b)).box.note).toMatchObject({ seq: 6, refused: true, key: 'othersChooseFirst', params: { plane: 4, planes: '1, 2, 3' } });
    await press(b, 'plane1', 'long'); // plane 1 skips: refused by the engine, the others have not chosen
    snap = await state(b);
    // the press's own note (7) is replaced by the refusal
    expect(snap.box.note).toMatchObject({ seq: 8, refused: true, key: null, rejection: { code: 'actionsNotChosen', message: expect.any(String) } });
    expect(snap.box.note.text).toBe(snap.box.note.rejection.message);
    // with the refusal's specifics as params, for the page's words in other languages
    expect(snap.box.note.rejection).toMatchObject({ code: 'actionsNotChosen', params: { planes: '1, 2, 3' } });
  });

  it('a press whose command is refused changes nothing on the box: a long press on a plane whose skip is refused does not select it', async () => {
    const { b } = await start();
    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await press(b, 'confirm'); // draws the card
    await press(b, 'plane1');
    await press(b, 'plane2', 'long'); // skipping before every plane has chosen: refused by the engine
    const snap = await state(b);
    expect(snap.box.note).toMatchObject({ refused: true, rejection: { code: 'actionsNotChosen' } });
    expect(snap.box.selected).toBe(1);
  });

  it('moves a plane with the box alone: Move steps through the places it can go, Confirm goes to the one shown', async () => {
    const { b } = await start();
    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await press(b, 'confirm'); // draws the card
    for (const plane of [2, 3, 4]) await post(b, '/api/tables/default/commands', { type: 'chooseAction', plane, action: 'attack' });
    await press(b, 'plane1');
    await press(b, 'move'); // chooses the move
    await press(b, 'move');
    const first = (await state(b)).box.note;
    expect(first).toMatchObject({ refused: false, key: 'moveCandidate', params: { plane: 1, to: expect.anything(), fuel: 1 } });
    await press(b, 'move');
    const second = (await state(b)).box.note;
    expect(second.key).toBe('moveCandidate');
    expect(second.params.to).not.toEqual(first.params.to);
    expect((await state(b)).box.shown).toEqual({ key: 'moveCandidate', params: second.params, text: second.text });
    const fuel = (await state(b)).state.planes[0].fuel;
    await press(b, 'confirm');
    const snap = await state(b);
    const to = second.params.to;
    expect(snap.state.planes[0]).toMatchObject({ done: true, fuel: fuel - second.params.fuel, position: to === 'approach' ? { at: 'approach' } : { at: 'island', island: to } });
    expect(snap.box.note).toMatchObject({ refused: false, key: expect.stringMatching(/^moves(Lightning|Emergency)?$/), params: second.params });
    expect(snap.box.shown).toBeUndefined();
    expect(b.service.journal.load('default').at(-1)).toMatchObject({ origin: 'box', command: { type: 'move', plane: 1, to } });
  });

  it('forgets a place shown once the plane moves from the dashboard; one another plane\'s action leaves open stays shown', async () => {
    const { b } = await start();
    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await press(b, 'confirm'); // draws the card
    for (const plane of [3, 4]) await post(b, '/api/tables/default/commands', { type: 'chooseAction', plane, action: 'attack' });
    await post(b, '/api/tables/default/commands', { type: 'chooseAction', plane: 2, action: 'search' });
    await press(b, 'plane1');
    await press(b, 'move');
    await press(b, 'move');
    const shown = (await state(b)).box.shown;
    expect(shown).toMatchObject({ key: 'moveCandidate', params: { plane: 1 } });
    // another plane's action: the place shown still holds
    await post(b, '/api/tables/default/commands', { type: 'search', plane: 2 });
    expect((await state(b)).box.shown).toEqual(shown);
    // plane 1 moved on the dashboard: nothing left to confirm on the box
    const to = shown.params.to;
    expect((await post(b, '/api/tables/default/commands', { type: 'move', plane: 1, to, ...(shown.params.via !== undefined ? { via: shown.params.via } : {}) })).statusCode).toBe(200);
    expect((await state(b)).box.shown).toBeUndefined();
    const entries = b.service.journal.load('default').length;
    await press(b, 'confirm');
    expect(b.service.journal.load('default')).toHaveLength(entries);
  });

  it('refuses from the box an action the plane cannot take from where it is, with the reason', async () => {
    const { b } = await start();
    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await press(b, 'confirm'); // draws the card
    expect((await state(b)).state.planes[2].position).toEqual({ at: 'island', island: 8 }); // a red island
    await press(b, 'plane3');
    await press(b, 'search');
    const snap = await state(b);
    expect(snap.box.note).toMatchObject({ refused: true, key: 'futileChoice', params: { plane: 3, action: 'search', reason: 'notOrange' } });
    expect(snap.state.planes[2].action).toBeNull();
  });

  it('a move made on the dashboard into a space with Japanese planes: the box\'s Attack makes the lightning attack', async () => {
    const { b } = await start();
    await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await press(b, 'confirm'); // draws the card
    const japanese = (await state(b)).state.islands.filter((i: { japanese: unknown[] }) => i.japanese.length > 0).map((i: { id: number }) => i.id);
    expect(japanese).toContain(9);
    // plane 3 on island 8, one white line from island 9
    for (const plane of [1, 2, 4]) await post(b, '/api/tables/default/commands', { type: 'chooseAction', plane, action: 'attack' });
    await post(b, '/api/tables/default/commands', { type: 'chooseAction', plane: 3, action: 'move' });
    expect((await post(b, '/api/tables/default/commands', { type: 'move', plane: 3, to: 9 })).statusCode).toBe(200);
    expect((await state(b)).state.afterMove).toMatchObject({ plane: 3, lightningAttack: true });
    await press(b, 'plane3');
    await press(b, 'attack');
    const snap = await state(b);
    expect(snap.box.note).toMatchObject({ refused: false, key: 'lightningAttack', params: { plane: 3 } });
    expect(snap.state.roll).toMatchObject({ purpose: 'lightningAttack', plane: 3 });
    expect(b.service.journal.load('default').at(-1)).toMatchObject({ origin: 'box', command: { type: 'lightningAttack', plane: 3 } });
  });

  it('a long Confirm with no game starts the table\'s last game played again, from the journal after a restart too', async () => {
    const { b } = await start();
    const setup = { players: 3, difficulty: 35, deck: 'physical', expansions: { expertManoeuvres: false, dropTank: true, weather: false } };
    expect((await post(b, '/api/tables/default/commands', { type: 'newGame', seed: 9, ...setup })).statusCode).toBe(200);
    await post(b, '/api/tables/default/commands', { type: 'resetTable' });
    // the service restarts between games
    await b.app.close();
    built = null;
    const again = (await start()).b;
    expect((await state(again)).state.setup).toBeNull();
    await press(again, 'confirm', 'long');
    const snap = await state(again);
    expect(snap.state.setup).toMatchObject({ ...setup });
    expect(snap.box.note).toMatchObject({ refused: false, key: 'newGameLast', params: { players: 3, deck: 'physical', difficulty: 35, expansions: 'dropTank' } });
    expect(again.service.journal.load('default').at(-1)).toMatchObject({ origin: 'box', command: { type: 'newGame', players: 3, difficulty: 35, deck: 'physical' } });
  });

  it('with no game ever played, a long Confirm starts the standard game', async () => {
    const { b } = await start();
    await press(b, 'confirm', 'long');
    expect((await state(b)).state.setup).toMatchObject({ players: 4, deck: 'digital' });
  });

  it('the roll LED does not say success while the camera sees a die it cannot read', async () => {
    const { b } = await start();
    const table = b.service.first();
    startAttackRoll(table);
    expect(table.submit({ type: 'dice', faces: [6, 6, 6, 6] }, 'player').ok).toBe(true);
    expect((await state(b)).leds.roll).toBe('greenBlink');
    table.setDiceUnread(1);
    await press(b, 'plane1'); // any press sets the lights again at once (else the next second does)
    expect((await state(b)).leds.roll).toBe('off');
  });
});

describe('camera readings', () => {
  it('become dice commands only during a roll, only when complete and only when they change', async () => {
    const { b, hw } = await start();
    const table = b.service.first();
    const input = hw.diceInput;
    expect(input.reading({ faces: [3, 4], kept: [], unreadable: 0 })).toBe('noRoll');
    startAttackRoll(table);
    const seq = table.seq;
    expect(input.reading({ faces: [2, 4, 6], kept: [], unreadable: 1 })).toBe('incomplete');
    expect(input.reading({ faces: [6, 4, 2, 3], kept: [], unreadable: 0 })).toBe('sent');
    expect(table.seq).toBe(seq + 1);
    expect(table.state.roll.tracker.faces).toEqual([2, 3, 4, 6]);
    expect(input.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0 })).toBe('unchanged');
    // the dice picked up to be thrown again: an empty tray is no reading of the roll
    expect(input.reading({ faces: [], kept: [], unreadable: 0 })).toBe('empty');
    expect(table.seq).toBe(seq + 1);
    expect(input.reading({ faces: [5, 5, 3], kept: [1], unreadable: 0 })).toBe('sent');
    expect(table.state.roll.tracker.lockedOnes).toBe(1);
    expect(b.service.journal.load('default').at(-1)).toMatchObject({ origin: 'camera', command: { type: 'dice', faces: [1, 3, 5, 5] } });
    expect(table.seq).toBe(seq + 2);
    // a frame that missed a die: the roll refuses that reading; the dice read whole again clear it, though their faces are the roll's already
    expect(input.reading({ faces: [5, 3], kept: [1], unreadable: 0 })).toBe('sent');
    expect(table.state.roll.tracker.flags).toEqual([{ type: 'wrongDiceCount', expected: 4, seen: 3 }]);
    expect(input.reading({ faces: [5, 5, 3], kept: [1], unreadable: 0 })).toBe('sent');
    expect(table.state.roll.tracker.flags).toEqual([]);
    expect(table.submit({ type: 'confirmRoll' }, 'box').ok).toBe(true);
  });

  it('are not taken from dice that have not moved since the roll began (the last roll\'s, still in the tray)', async () => {
    const { b, hw } = await start();
    const table = b.service.first();
    const input = hw.diceInput;
    const beforeRoll = Date.now() - 1;
    startAttackRoll(table);
    const seq = table.seq;
    expect(input.reading({ faces: [6, 6, 4, 3], kept: [], unreadable: 0, movedAt: beforeRoll })).toBe('fromBefore');
    expect(input.reading({ faces: [6, 6, 4, 3], kept: [], unreadable: 0, movedAt: null })).toBe('fromBefore');
    expect(table.seq).toBe(seq);
    // thrown since: this roll's dice
    expect(input.reading({ faces: [6, 6, 4, 3], kept: [], unreadable: 0, movedAt: Date.now() + 1 })).toBe('sent');
    expect(table.state.roll.tracker.faces).toEqual([3, 4, 6, 6]);
  });

  it('a re-throw still rolling holds the confirmation: the roll is not confirmed on the dice read before it', async () => {
    const { b, hw } = await start();
    const table = b.service.first();
    startAttackRoll(table);
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0 })).toBe('sent');
    let motion: { since: number; last: number } | null = { since: Date.now() - 500, last: Date.now() };
    table.setMotionProvider(() => motion);
    for (const origin of ['player', 'box'] as const) {
      expect(table.submit({ type: 'confirmRoll' }, origin)).toEqual({ ok: false, error: { code: 'diceMoving', message: expect.stringMatching(/^The dice are still moving/) } });
    }
    // motion that never settles (a flickering light, a hand in view) is not a throw: it holds the roll only so long
    motion = { since: Date.now() - 30_000, last: Date.now() };
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(true);
    // a camera whose last moving frame is long past (it stopped sending) does not hold the roll
    startAttackRoll(table);
    // the same dice again in a new game's roll (whose key is the last game's): sent, as nothing was sent for this roll
    expect(hw.diceInput.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0 })).toBe('sent');
    motion = { since: Date.now() - 12_000, last: Date.now() - 10_000 };
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(true);
    // nor do dice at rest
    startAttackRoll(table);
    motion = null;
    expect(table.submit({ type: 'dice', faces: [3, 3, 6, 2] }, 'player').ok).toBe(true);
    expect(table.submit({ type: 'confirmRoll' }, 'box').ok).toBe(true);
  });

  it('a die the camera cannot read holds the roll: confirming on the dice it read before is refused until it reads them all or they are typed in', async () => {
    const { b, hw } = await start();
    const table = b.service.first();
    const input = hw.diceInput;
    startAttackRoll(table);
    expect(input.reading({ faces: [2, 3, 4, 6], kept: [], unreadable: 0 })).toBe('sent');
    // re-rolled: one die lands leaning
    expect(input.reading({ faces: [5, 5, 2], kept: [], unreadable: 1 })).toBe('incomplete');
    const seq = table.seq;
    for (const origin of ['player', 'box'] as const) {
      const refused = table.submit({ type: 'confirmRoll' }, origin);
      expect(refused).toEqual({ ok: false, error: { code: 'diceUnread', message: expect.stringMatching(/^The camera cannot read a die in the tray/) } });
    }
    expect(table.seq).toBe(seq);
    expect(table.state.roll).not.toBeNull();
    // the screens are told, to say why Confirm is refused
    const unreadShown = () => table.snapshot({ canControl: false, showPin: false }).diceUnread;
    expect(unreadShown()).toBe(1);
    // the camera reads every die again: confirmed on what it read
    expect(input.reading({ faces: [5, 5, 2, 4], kept: [], unreadable: 0 })).toBe('sent');
    expect(table.submit({ type: 'confirmRoll' }, 'box').ok).toBe(true);
    // another roll: a leaning die, then the dice typed in by a player
    startAttackRoll(table);
    expect(input.reading({ faces: [3, 3, 6], kept: [], unreadable: 1 })).toBe('incomplete');
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(false);
    expect(unreadShown()).toBe(1);
    expect(table.submit({ type: 'dice', faces: [3, 3, 6, 2] }, 'player').ok).toBe(true);
    expect(unreadShown()).toBe(0);
    expect(table.submit({ type: 'confirmRoll' }, 'player').ok).toBe(true);
  });

  it('without a dice model the camera reports why and dice are typed in', async () => {
    const { b } = await startWithSyntheticCamera('no model here');
    const health = (await b.app.inject({ url: '/api/health' })).json();
    expect(health.vision).toMatchObject({ backend: null, ready: false, error: 'no model here' });
    const snap = (await b.app.inject({ url: '/api/tables/default/state' })).json();
    expect(snap.manualDice).toBe(true);
    expect(snap.hardware.camera.kind).toBe('simulated');
    // the dashboard is told what the simulated hardware offers: the synthetic camera's throws (no box on this table)
    expect(snap.hardware.serial.kind).toBe('none');
    expect(snap.simulator).toEqual({ throw: true, press: false, kept: [] });
    // once the feed has tried to read a settled frame, the camera says why dice must be typed in
    let codes: string[] = [];
    for (let i = 0; i < 300 && !codes.includes('cameraProblem'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      codes = (await b.app.inject({ url: '/api/tables/default/state' })).json().alerts.map((a: { code: string }) => a.code);
    }
    expect(codes).toContain('cameraProblem');
  });
});

describe('the simulated camera', () => {
  it('throws the roll\'s dice, the leaning ones among them, and refuses more leaning dice than are thrown', async () => {
    const { b, hw } = await startWithSyntheticCamera('not used');
    const synthetic = hw.synthetic!;
    startAttackRoll(b.service.first());
    const dice = b.service.first().state.roll.tracker.spec.dice as number;

    const leaning = await post(b, '/api/tables/default/simulator/throw', { leaning: 1 });
    expect(leaning.statusCode).toBe(200);
    expect(leaning.json().faces).toHaveLength(dice - 1);
    expect(synthetic.current()).toMatchObject({ faces: leaning.json().faces, leaning: 1 });
    // the dice thrown are moving until the camera has read them at rest: the screens hold Confirm
    expect((await b.app.inject({ url: '/api/tables/default/state' })).json().trayBusy).toBe('moving');

    const tooMany = await post(b, '/api/tables/default/simulator/throw', { dice: 1, leaning: 2 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toEqual({ code: 'badRequest', message: 'leaning: 2 of 1 die thrown; at most every die thrown can land leaning' });
    expect(synthetic.current()).toMatchObject({ faces: leaning.json().faces, leaning: 1 }); // nothing thrown

    // faces given land flat, and the leaning dice come on top of them
    expect((await post(b, '/api/tables/default/simulator/throw', { faces: [2, 3, 5, 6], leaning: 2 })).json()).toEqual({ ok: true, faces: [2, 3, 5, 6] });
    expect(synthetic.current()).toMatchObject({ faces: [2, 3, 5, 6], leaning: 2 });
  });

  it('re-rolls all but the dice a player keeps, and refuses to keep dice that are not there or locked', async () => {
    const { b, hw } = await startWithSyntheticCamera('not used');
    const synthetic = hw.synthetic!;
    const table = b.service.first();
    startAttackRoll(table);
    const dice = table.state.roll.tracker.spec.dice as number;
    expect(dice).toBeGreaterThanOrEqual(3);
    // what the table has read: a locked 1, a 6, and the rest 3s
    expect(table.submit({ type: 'dice', faces: [1, 6, ...new Array(dice - 2).fill(3)] }, 'player').ok).toBe(true);

    const kept = await post(b, '/api/tables/default/simulator/throw', { keep: [6] });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().faces).toHaveLength(dice - 2);
    expect(synthetic.current()).toMatchObject({ faces: kept.json().faces, kept: [1, 6], leaning: 0 });

    const refusals: Array<[object, string]> = [
      [{ keep: [6, 6] }, 'keep: 6, 6 cannot all be kept; the dice that can be kept are 6, ' + new Array(dice - 2).fill(3).join(', ') + ' (locked 1s stay where they are)'],
      [{ keep: [1] }, 'keep: 1 cannot all be kept; the dice that can be kept are 6, ' + new Array(dice - 2).fill(3).join(', ') + ' (locked 1s stay where they are)'],
      [{ keep: [6], dice: 2 }, 'keep: the dice kept decide how many are thrown; give keep alone (with leaning at most)'],
      [{ keep: [6, ...new Array(dice - 2).fill(3)] }, 'keep: every die is kept or locked; nothing is left to throw'],
    ];
    for (const [body, message] of refusals) {
      const refused = await post(b, '/api/tables/default/simulator/throw', body);
      expect([refused.statusCode, refused.json().error]).toEqual([400, { code: 'badRequest', message }]);
    }
    expect(synthetic.current()).toMatchObject({ faces: kept.json().faces, kept: [1, 6] }); // nothing thrown
    expect((await post(b, '/api/tables/default/simulator/throw', { keep: [0] })).statusCode).toBe(400);

    // a new roll: nothing read yet, nothing to keep
    table.submit({ type: 'confirmRoll' }, 'player');
    startAttackRoll(table);
    const early = await post(b, '/api/tables/default/simulator/throw', { keep: [3] });
    expect(early.json().error).toEqual({ code: 'badRequest', message: 'keep: no dice are read for this roll yet; throw them all first' });

    // every die a locked 1: nothing to throw, said so rather than a throw of no dice
    expect(table.submit({ type: 'dice', faces: new Array(dice).fill(1) }, 'player').ok).toBe(true);
    const allLocked = await post(b, '/api/tables/default/simulator/throw', {});
    expect([allLocked.statusCode, allLocked.json().error]).toEqual([400, { code: 'badRequest', message: 'every die of this roll is a locked 1: nothing is left to throw' }]);
  });

  it('keeps one pick of dice for every screen, in the snapshot, following each throw; refuses dice that are not there', async () => {
    const { b } = await startWithSyntheticCamera('not used');
    const table = b.service.first();
    const snapKept = async () => (await b.app.inject({ url: '/api/tables/default/state' })).json().simulator.kept;
    startAttackRoll(table);
    expect(await snapKept()).toEqual([]);
    const early = await post(b, '/api/tables/default/simulator/keep', { faces: [3] });
    expect([early.statusCode, early.json().error]).toEqual([400, { code: 'badRequest', message: 'keep: no dice are read for this roll yet; throw them all first' }]);

    expect(table.submit({ type: 'dice', faces: [1, 3, 6, 6] }, 'player').ok).toBe(true);
    const kept = await post(b, '/api/tables/default/simulator/keep', { faces: [6] });
    expect([kept.statusCode, kept.json()]).toEqual([200, { ok: true, kept: [6] }]);
    expect(await snapKept()).toEqual([6]);
    for (const faces of [[1], [6, 6, 6], [2]]) {
      const refused = await post(b, '/api/tables/default/simulator/keep', { faces });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toMatch(/cannot all be kept; the dice that can be kept are 3, 6, 6 \(locked 1s stay where they are\)$/);
    }
    expect((await post(b, '/api/tables/default/simulator/keep', { faces: [7] })).statusCode).toBe(400);
    expect((await post(b, '/api/tables/default/simulator/keep', {})).statusCode).toBe(400);
    expect(await snapKept()).toEqual([6]);

    // a new throw: a die showing a face kept joins them, the kept 6 still there
    expect(table.submit({ type: 'dice', faces: [1, 6, 6, 2] }, 'camera').ok).toBe(true);
    expect(await snapKept()).toEqual([6, 6]);
    // none kept
    expect((await post(b, '/api/tables/default/simulator/keep', { faces: [] })).json()).toEqual({ ok: true, kept: [] });
    expect(await snapKept()).toEqual([]);
    // a new roll starts with none
    expect((await post(b, '/api/tables/default/simulator/keep', { faces: [2] })).json()).toEqual({ ok: true, kept: [2] });
    table.submit({ type: 'confirmRoll' }, 'player');
    startAttackRoll(table);
    expect(await snapKept()).toEqual([]);
  });
});

describe('a configured USB box that is not there', () => {
  it('is reported as being retried and the table works without it', async () => {
    built = await testApp({
      dbFile: join(dir.dir, 'db.sqlite'),
      games: tableGames,
      tables: [{ serial: { kind: 'port', path: '/dev/flightdeck-no-such-port' } }],
      hardware: async (service) => startHardware(service, { reader: () => Promise.reject(new Error('not used')), log: quiet }),
    });
    const health = (await built.app.inject({ url: '/api/health' })).json();
    expect(health.tables[0].serial.kind).toBe('real');
    expect(health.tables[0].serial.state).not.toBe('ok');
    expect(health.tables[0].alerts).toEqual([expect.objectContaining({ code: 'boxProblem' })]);
    const r = await built.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame', players: 1 }, headers: auth() });
    expect(r.statusCode).toBe(200);
    expect((await built.app.inject({ method: 'POST', url: '/api/tables/default/box/press', payload: { button: 'confirm' }, headers: auth() })).statusCode).toBe(409);
    // so the dashboard's Button box page shows the real box's state, not virtual buttons
    expect((await built.app.inject({ url: '/api/tables/default/state' })).json().simulator).toEqual({ throw: false, press: false, kept: [] });
  });
});

describe('the camera status in the log', () => {
  it('writes each change once, a problem as a warning, and the same problem retried once a minute with its count', () => {
    const lines: [string, Record<string, unknown>, string][] = [];
    const log = { info: (o: unknown, m?: string) => lines.push(['info', o as Record<string, unknown>, m!]), warn: (o: unknown, m?: string) => lines.push(['warn', o as Record<string, unknown>, m!]), error: () => {} };
    let clock = 0;
    const status = cameraStatusLog(log, 't1', () => clock);
    status({ kind: 'real', state: 'ok', message: 'capturing' });
    for (let attempt = 1; attempt <= 6; attempt++) {
      clock += 10_000;
      status({ kind: 'real', state: 'retrying', message: `/dev/video0: no such camera device (attempt ${attempt})` });
    }
    expect(lines.map(([level, , m]) => `${level} ${m}`)).toEqual(['info camera status', 'warn camera problem']);
    clock += 10_000;
    status({ kind: 'real', state: 'retrying', message: '/dev/video0: no such camera device (attempt 7)' });
    expect(lines).toHaveLength(3);
    expect(lines[2]![1]).toMatchObject({ table: 't1', repeatedTimes: 5 });
    status({ kind: 'real', state: 'ok', message: 'capturing' });
    expect(lines.map(([level]) => level)).toEqual(['info', 'warn', 'warn', 'info']);
  });
});
