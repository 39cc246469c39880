/** The table's view of the 1942 USS Yorktown module (server/games/yorktown1942). */
import { publicView, yorktown1942, type YorktownState } from '../games/yorktown1942/index.ts';
import type { GameAdapter } from './game-adapter.ts';

export const yorktownAdapter: GameAdapter<YorktownState> = {
  module: yorktown1942,
  publicView,
  rollKey: (s) => (s.roll ? `${s.turn}:${s.roll.purpose}:${s.roll.plane ?? '-'}` : null),
  rollFaces: (s) => (s.roll?.tracker.faces ? [...s.roll.tracker.faces] : null),
  rollDice: (s) => (s.roll ? s.roll.tracker.spec.dice : null),
  rollLockedOnes: (s) => s.roll?.tracker.lockedOnes ?? 0,
  running: (s) => s.setup !== null && s.outcome === null,
  startedAt: (s) => s.startedAt,
  outcome: (s) => (s.outcome ? { result: s.outcome.result, cause: s.outcome.cause, at: s.outcome.at } : null),
  summary: (s) => ({
    players: s.setup?.players ?? null,
    difficulty: s.setup?.difficulty ?? null,
    deck: s.setup?.deck ?? null,
    turn: s.turn,
    yorktownHits: s.yorktownHits,
    shohoHits: s.shohoHits,
    planesLost: s.planes.filter((p) => p.destroyed).length,
  }),
  attractNewGame: (seed) => ({ type: 'newGame', seed, players: 2, deck: 'digital' }),
};
