import { describe, expect, it } from 'vitest';
import { openJournal, replay, submit, type JournalState } from '../../server/games/journal.ts';
import { actionChances, yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import { playGame, policyCommand, type GameSummary } from '../../server/games/yorktown1942/simulation.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { T0, choose, ok, roll, scenario } from './yorktown-helpers.ts';

const games: GameSummary[] = [];
function findGame(predicate: (g: GameSummary) => boolean): GameSummary {
  for (let seed = 0; seed < 200; seed++) {
    const game = games[seed] ?? (games[seed] = playGame({ seed, players: 4, difficulty: 30 }));
    if (predicate(game)) return game;
  }
  throw new Error('no simulated game ended that way in 200 seeds');
}

describe('whole games', () => {
  it('"The game ends in victory immediately when the Shōhō takes its third hit"', () => {
    const game = findGame((g) => g.result === 'won');
    const final = game.journal.state;
    expect(final.outcome?.cause).toBe('shohoSunk');
    expect(final.shohoHits).toBe(3);
    const last = game.journal.entries.at(-1)!.command;
    expect(last.type).toBe('confirmRoll');
    expect(replay(yorktown1942, game.journal.entries)).toEqual(final);
  });

  it('"The game is lost when ... The time has run out."', () => {
    const game = findGame((g) => g.cause === 'time');
    const final = game.journal.state;
    expect(final.outcome!.at).toBeGreaterThanOrEqual(final.deadline!);
    expect(replay(yorktown1942, game.journal.entries)).toEqual(final);
  });

  it('"The game is lost when ... The USS Yorktown takes its third hit."', () => {
    const game = findGame((g) => g.cause === 'yorktownSunk');
    expect(game.journal.state.yorktownHits).toBe(3);
    expect(replay(yorktown1942, game.journal.entries)).toEqual(game.journal.state);
  });

  it('"The game is lost when ... All the allied planes are destroyed." (a whole game of idle planes with 1 fuel)', () => {
    let journal: JournalState<YorktownState> = openJournal(yorktown1942);
    let at = T0;
    const send = (command: Record<string, unknown>) => {
      at += 5000;
      const result = submit(yorktown1942, journal, command as never, at);
      if (!result.ok) throw new Error(`${String(command.type)}: ${result.error.message}`);
      journal = result.journal;
    };
    send({ type: 'newGame', players: 2, seed: 2, ruleOverrides: { 'fuel.max': 1, 'start.redIslandFuel': 1 } });
    for (let turn = 0; turn < 12 && !journal.state.outcome; turn++) {
      send({ type: 'drawCard' });
      while (journal.state.roll) {
        send({ type: 'dice', faces: journal.state.roll.tracker.spec.dice === 2 ? [2, 3] : [2, 3, 4, 5].slice(0, journal.state.roll.tracker.spec.dice) });
        send({ type: 'confirmRoll' });
      }
      if (journal.state.outcome) break;
      const alive = journal.state.planes.filter((p) => !p.destroyed);
      for (const p of alive) send({ type: 'chooseAction', plane: p.id, action: p.position.at === 'deck' ? 'takeoffLanding' : 'move' });
      for (const p of alive) {
        if (journal.state.outcome) break;
        const now = journal.state.planes.find((x) => x.id === p.id)!;
        if (now.position.at === 'deck' && journal.state.takeoffsLandingsThisTurn < 2) send({ type: 'takeOff', plane: p.id, to: 'approach' });
        else send({ type: 'skipAction', plane: p.id });
      }
      if (!journal.state.outcome) send({ type: 'endTurn' });
    }
    expect(journal.state.outcome).toMatchObject({ result: 'lost', cause: 'allPlanesDestroyed' });
    expect(replay(yorktown1942, journal.entries)).toEqual(journal.state);
  });

  it('the built-in policy makes no lightning attack that no roll can win (the demo station plays it for visitors)', () => {
    let lightning = 0;
    for (let seed = 0; seed < 40; seed++) {
      const game = playGame({ seed, players: 4, difficulty: 30 });
      let state = yorktown1942.emptyState();
      for (const entry of game.journal.entries) {
        if (entry.command.type === 'lightningAttack') {
          lightning++;
          const chance = actionChances(state).find((c) => c.kind === 'lightning' && c.plane === entry.command.plane);
          expect(chance?.chance, `seed ${seed}, seq ${entry.seq}`).not.toBe(0);
        }
        const next = yorktown1942.apply(state, entry.command as never, entry.at);
        if (!next.ok) throw new Error(`seed ${seed}: ${entry.command.type} refused on replay`);
        state = next.state;
      }
    }
    expect(lightning).toBeGreaterThan(0);
  });

  it('a simulated game is the same for the same seed', () => {
    const a = playGame({ seed: 42, players: 3, difficulty: 25, expansions: { expertManoeuvres: true, dropTank: true, weather: true } });
    const b = playGame({ seed: 42, players: 3, difficulty: 25, expansions: { expertManoeuvres: true, dropTank: true, weather: true } });
    expect(a.journal.entries).toEqual(b.journal.entries);
    expect(a.result).not.toBe('unfinished');
  });
});

describe('the built-in player (attract mode, simulations)', () => {
  const at = (island: number) => ({ at: 'island' as const, island });
  it('confirms a roll whose every die it would keep or is a locked 1, instead of throwing the same dice again and again', () => {
    const searching = ok(choose(scenario({ planes: { 3: { position: at(2), fuel: 13 } } }), { 3: 'search' }), { type: 'search', plane: 3 }).state;
    const s = roll(searching, [1, 1, 5, 5]);
    expect(s.roll?.tracker.lockedOnes).toBe(2);
    expect(policyCommand(s, () => 0.5)).toEqual({ type: 'confirmRoll' });
    // with a die left to throw it re-rolls that one
    const command = policyCommand(roll(searching, [1, 5, 5, 3]), () => 0.99);
    expect(command).toMatchObject({ type: 'dice' });
    expect((command as unknown as { faces: number[] }).faces.filter((f) => f === 5).length).toBeGreaterThanOrEqual(2);
  });
});
