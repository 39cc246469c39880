import { describe, expect, it } from 'vitest';
import { nextUndone, openJournal, rebuildJournal, replay, submit, undoableCount, type JournalState } from '../../server/games/journal.ts';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import { playGame } from '../../server/games/yorktown1942/simulation.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { T0 } from './yorktown-helpers.ts';

function send(journal: JournalState<YorktownState>, command: Record<string, unknown>, at = T0 + 1000): JournalState<YorktownState> {
  const result = submit(yorktown1942, journal, command as never, at);
  if (!result.ok) throw new Error(`${String(command.type)} rejected: ${result.error.message}`);
  return result.journal;
}

function started(): JournalState<YorktownState> {
  let j = openJournal(yorktown1942);
  j = send(j, { type: 'newGame', players: 4, seed: 9 }, T0);
  j = send(j, { type: 'drawCard' });
  // the seed-9 deck does not spot the Yorktown on the first card
  expect(j.state.phase).toBe('planes');
  return j;
}

describe('journal and undo', () => {
  it("says whose move Undo takes back (the plane of a command or of the roll it confirms) and which seat asked", () => {
    const game = playGame({ seed: 4, players: 2, difficulty: 30 });
    const entries = game.journal.effective.map((e) => e.entry);
    const at = entries.findIndex((e, i) => i > 0 && e.command.type === 'confirmRoll' && rebuildJournal(yorktown1942, entries.slice(0, i)).state.roll?.plane);
    expect(at).toBeGreaterThan(0);
    const before = rebuildJournal(yorktown1942, entries.slice(0, at)).state;
    const plane = before.roll!.plane!;
    const j = rebuildJournal(yorktown1942, entries.slice(0, at + 1));
    expect(nextUndone(j)).toEqual({ seq: entries[at]!.seq, type: 'confirmRoll', piece: plane });
    const undone = submit(yorktown1942, j, { type: 'undo', seat: 2 }, entries[at]!.at + 1);
    expect(undone.ok && undone.events).toEqual([{ type: 'undone', count: 1, commands: [{ seq: entries[at]!.seq, type: 'confirmRoll', piece: plane }], seat: 2 }]);
    // asked about that move: taken back; asked about an earlier one, since followed by another: nothing undone
    expect(submit(yorktown1942, j, { type: 'undo', seq: entries[at]!.seq }, entries[at]!.at + 1).ok).toBe(true);
    const moved = submit(yorktown1942, j, { type: 'undo', seq: entries[at - 1]!.seq }, entries[at]!.at + 1);
    expect(moved.ok ? null : moved.error.code).toBe('undoMoved');
    // a command naming its plane; one of no plane's; nothing to undo
    const move = entries.findIndex((e) => typeof e.command.plane === 'number');
    expect(nextUndone(rebuildJournal(yorktown1942, entries.slice(0, move + 1)))?.piece).toBe(entries[move]!.command.plane);
    expect(nextUndone(started())).toEqual({ seq: 2, type: 'drawCard', piece: null });
    expect(nextUndone(send(openJournal(yorktown1942), { type: 'newGame', players: 4, seed: 9 }, T0))).toBeNull();
  });
  it('journals each accepted command with a sequence number and its time', () => {
    const j = started();
    expect(j.entries.map((e) => [e.seq, e.command.type, e.at])).toEqual([
      [1, 'newGame', T0],
      [2, 'drawCard', T0 + 1000],
    ]);
  });

  it('a rejected command leaves the journal exactly as it was', () => {
    const j = started();
    const result = submit(yorktown1942, j, { type: 'search', plane: 1 }, T0 + 2000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('actionsNotChosen');
    expect(j.entries).toHaveLength(2);
  });

  it('undo removes the last N commands and the state is the replay of what remains', () => {
    let j = started();
    const before = j.state;
    j = send(j, { type: 'chooseAction', plane: 1, action: 'move' });
    j = send(j, { type: 'chooseAction', plane: 2, action: 'move' });
    const afterOne = j.state;
    j = send(j, { type: 'chooseAction', plane: 3, action: 'move' });
    const once = send(j, { type: 'undo' });
    expect(once.state).toEqual(afterOne);
    const thrice = send(j, { type: 'undo', count: 3 });
    expect(thrice.state).toEqual(before);
    expect(thrice.entries.at(-1)?.command).toEqual({ type: 'undo', count: 3 });
    expect(replay(yorktown1942, thrice.entries)).toEqual(before);
    const redone = send(thrice, { type: 'chooseAction', plane: 4, action: 'search' });
    expect(replay(yorktown1942, redone.entries)).toEqual(redone.state);
  });

  it('a new game cannot be undone', () => {
    const j = started();
    expect(undoableCount(j)).toBe(1);
    const result = submit(yorktown1942, j, { type: 'undo', count: 2 }, T0 + 2000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/Only 1 command can be undone/);
  });

  it('"The game is lost when ... The time has run out.": the stopwatch\'s timeUp ends the game and cannot be undone', () => {
    let j = started();
    const deadline = yorktown1942.deadline(j.state)!;
    j = send(j, { type: 'timeUp' }, deadline);
    expect(j.state.outcome).toMatchObject({ result: 'lost', cause: 'time', at: deadline });
    expect(undoableCount(j)).toBe(0);
    expect(submit(yorktown1942, j, { type: 'undo' }, deadline + 1000).ok).toBe(false);
  });

  it('timeUp before the deadline is refused (timeNotUp, saying the time left) and changes nothing', () => {
    const j = started();
    const deadline = yorktown1942.deadline(j.state)!;
    const state = JSON.stringify({ ...j.state, rules: null });
    for (const [at, left] of [[T0 + 2000, '29:58'], [deadline - 61_500, '1:02'], [deadline - 1, '0:01']] as const) {
      const early = submit(yorktown1942, j, { type: 'timeUp' }, at);
      expect(early.ok).toBe(false);
      if (!early.ok) {
        expect(early.error.code).toBe('timeNotUp');
        expect(early.error.message).toContain(`${left} left`);
        expect(early.error.message).toMatch(/only when the stopwatch runs out.*abandon the game or start a new one/);
      }
    }
    expect(j.entries).toHaveLength(2);
    expect(JSON.stringify({ ...j.state, rules: null })).toBe(state);
    expect(j.state.outcome).toBeNull();
    expect(undoableCount(j)).toBe(1);
  });

  it('timeUp before the stopwatch starts (a physical deck\'s set-up cards not placed yet) is refused too', () => {
    const j = send(openJournal(yorktown1942), { type: 'newGame', players: 4, deck: 'physical', seed: 9 }, T0);
    expect(j.state.deadline).toBeNull();
    const early = submit(yorktown1942, j, { type: 'timeUp' }, T0 + 3 * 60 * 60_000);
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.error).toMatchObject({ code: 'timeNotUp', message: expect.stringMatching(/stopwatch has not started yet/) });
    expect(j.state.outcome).toBeNull();
  });

  it('any command at or after the deadline ends the game lost on time (and cannot be undone)', () => {
    let j = started();
    const deadline = yorktown1942.deadline(j.state)!;
    expect(deadline).toBe(T0 + 30 * 60_000);
    j = send(j, { type: 'chooseAction', plane: 1, action: 'move' }, deadline);
    expect(j.state.outcome).toMatchObject({ result: 'lost', cause: 'time', at: deadline });
    expect(j.state.planes[0].action).toBeNull();
    expect(yorktown1942.deadline(j.state)).toBeNull();
    expect(submit(yorktown1942, j, { type: 'undo' }, deadline + 1).ok).toBe(false);
  });

  it('the command that ended a game in time can be undone (a roll confirmed by mistake), while its time lasts', () => {
    let seed = 1;
    let game = playGame({ seed, players: 4, difficulty: 35 });
    while (game.result !== 'won' && seed < 300) game = playGame({ seed: ++seed, players: 4, difficulty: 35 });
    expect(game.result).toBe('won');
    const j = game.journal;
    const endedAt = j.state.outcome!.at;
    const last = j.effective[j.effective.length - 1]!;
    expect(last.barrier).toBe(false);
    const undone = submit(yorktown1942, j, { type: 'undo' }, endedAt + 5000);
    expect(undone.ok).toBe(true);
    if (!undone.ok) return;
    expect(undone.journal.state.outcome).toBeNull();
    expect(undone.journal.state).toEqual(replay(yorktown1942, j.effective.slice(0, -1).map((e) => e.entry)));
    // the same command again ends the game as before
    expect(send(undone.journal, last.entry.command as never, endedAt + 6000).state.outcome).toMatchObject({ result: 'won', cause: 'shohoSunk' });
    // once the time it would give back is over, the end stays
    const late = submit(yorktown1942, j, { type: 'undo' }, yorktown1942.deadline(undone.journal.state)!);
    expect(late.ok).toBe(false);
    if (!late.ok) expect(late.error.code).toBe('timeUp');
  });

  it('undo is refused once the deadline has passed', () => {
    let j = started();
    j = send(j, { type: 'chooseAction', plane: 1, action: 'move' });
    const result = submit(yorktown1942, j, { type: 'undo' }, T0 + 31 * 60_000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('timeUp');
  });

  it('rebuildJournal replays entries exactly and names an entry that no longer applies', () => {
    const j = started();
    expect(rebuildJournal(yorktown1942, j.entries).state).toEqual(j.state);
    const bad = [...j.entries, { seq: 3, at: T0 + 5000, command: { type: 'land', plane: 9 } }];
    expect(() => rebuildJournal(yorktown1942, bad)).toThrow(/entry 3 was rejected/);
  });
});

describe('journal details', () => {
  it('undo takes back a move, and a misread dice reading during a roll', () => {
    let j = openJournal(yorktown1942);
    j = send(j, { type: 'newGame', players: 4, seed: 9, ruleOverrides: { 'landing.autoFuel': 20 } }, T0);
    j = send(j, { type: 'drawCard' });
    for (const p of [1, 2, 3, 4]) j = send(j, { type: 'chooseAction', plane: p, action: p === 1 ? 'takeoffLanding' : 'move' });
    j = send(j, { type: 'move', plane: 3, to: 4 });
    expect(j.state.planes[2].position).toEqual({ at: 'island', island: 4 });
    j = send(j, { type: 'undo' });
    expect(j.state.planes[2].position).toEqual({ at: 'island', island: 8 });
    j = send(j, { type: 'land', plane: 1 });
    const dice = j.state.roll!.tracker.spec.dice;
    expect(dice).toBe(3 + 14);
    const faces = Array.from({ length: dice }, (_, i) => (i % 5) + 2);
    j = send(j, { type: 'dice', faces });
    const good = j.state;
    j = send(j, { type: 'dice', faces: faces.map((f, i) => (i < 3 ? 1 : f)) });
    expect(j.state.roll!.tracker.lockedOnes).toBe(3);
    j = send(j, { type: 'undo' });
    expect(j.state).toEqual(good);
    expect(j.state.roll!.tracker.lockedOnes).toBe(0);
  });

  it('the registry finds a game module by id and names the known ones otherwise', async () => {
    const { getGameModule, listGames } = await import('../../server/games/registry.ts');
    expect(getGameModule('yorktown1942')).toBe(yorktown1942);
    expect(listGames()).toEqual([{ id: 'yorktown1942', title: '1942 USS Yorktown' }]);
    expect(() => getGameModule('chess')).toThrow(/known games are yorktown1942/);
  });

  it('the public view hides the digital draw pile order, the PRNG and face-down tiles and tokens', async () => {
    const { publicView } = await import('../../server/games/yorktown1942/index.ts');
    let j = openJournal(yorktown1942);
    j = send(j, { type: 'newGame', players: 2, seed: 3, expansions: { expertManoeuvres: true, weather: true } }, T0);
    const view = publicView(j.state);
    expect(view.deck.drawPile).toEqual([]);
    expect(view.deck.drawPileCount).toBe(j.state.deck.drawPile.length);
    expect(view.rng).toBe(0);
    expect(view.seed).toBeNull();
    expect(view.planes.every((p) => p.manoeuvre?.id === null)).toBe(true);
    expect(j.state.planes.every((p) => p.manoeuvre?.id !== null)).toBe(true);
  });
});

describe('journal snapshots', () => {
  it('undo far back (past several snapshots) gives exactly the state of that moment', () => {
    let j = openJournal(yorktown1942);
    j = send(j, { type: 'newGame', players: 4, seed: 9, ruleOverrides: { 'landing.autoFuel': 20 } }, T0);
    j = send(j, { type: 'drawCard' });
    for (const p of [1, 2, 3, 4]) j = send(j, { type: 'chooseAction', plane: p, action: p === 1 ? 'takeoffLanding' : 'move' });
    j = send(j, { type: 'land', plane: 1 });
    const dice = j.state.roll!.tracker.spec.dice;
    const states: YorktownState[] = [];
    for (let r = 0; r < 90; r++) {
      j = send(j, { type: 'dice', faces: Array.from({ length: dice }, (_, i) => ((i + r) % 5) + 2) }, T0 + 2000 + r);
      states.push(j.state);
    }
    expect(j.effective.filter((e) => e.state !== null).length).toBeLessThan(10);
    const back = send(j, { type: 'undo', count: 70 }, T0 + 5000);
    expect(back.state).toEqual(states[19]);
    expect(replay(yorktown1942, back.entries)).toEqual(back.state);
    const again = send(back, { type: 'undo', count: 3 }, T0 + 5001);
    expect(again.state).toEqual(states[16]);
  });
});
