/** Simulated games per second and milliseconds per engine command (through the journal), for `npm run bench`. */
import { simulate } from '../server/cli/simulate.ts';
import { yorktown1942 } from '../server/games/yorktown1942/index.ts';
import { playGame } from '../server/games/yorktown1942/simulation.ts';
import { replay } from '../server/games/journal.ts';

export async function run(): Promise<Record<string, unknown>> {
  const figures = simulate({ games: 60, seed: 1, players: 4, difficulty: 30, expansions: false });
  const withExpansions = simulate({ games: 30, seed: 1, players: 2, difficulty: 30, expansions: true });
  const game = playGame({ seed: 7, players: 4, difficulty: 30 });
  const entries = game.journal.entries;
  const started = performance.now();
  const rounds = 20;
  for (let i = 0; i < rounds; i++) replay(yorktown1942, entries);
  const replayMs = (performance.now() - started) / rounds;
  return {
    games: figures.games,
    gamesPerSecond: figures.gamesPerSecond,
    msPerCommand: figures.msPerCommand,
    averageCommandsPerGame: figures.averageCommands,
    winRate: figures.winRate,
    expansionsGamesPerSecond: withExpansions.gamesPerSecond,
    replayCommands: entries.length,
    replayMsPerGame: Math.round(replayMs * 100) / 100,
    replayMsPerCommand: Math.round((replayMs / entries.length) * 10000) / 10000,
  };
}
