/**
 * npm run simulate -- --games N --seed S [--players 1-4] [--difficulty 25|30|35] [--expansions all|none]
 * Plays N whole games of 1942 USS Yorktown through the engine's commands and journal with a
 * built-in policy, virtual dice and a virtual clock. Progress goes to stderr; the LAST line of
 * stdout is one JSON object of figures. Same flags → same figures (timing aside).
 */
import { playGame, type GameSummary } from '../games/yorktown1942/simulation.ts';

interface Flags {
  games: number;
  seed: number;
  players: 1 | 2 | 3 | 4;
  difficulty: 25 | 30 | 35;
  expansions: boolean;
}

const USAGE = 'usage: npm run simulate -- --games N --seed S [--players 1-4] [--difficulty 25|30|35] [--expansions none|all]';

export function parseFlags(argv: string[]): Flags {
  const flags: Flags = { games: 100, seed: 1, players: 4, difficulty: 30, expansions: false };
  const integer = (name: string, raw: string | undefined, min: number, max: number): number => {
    if (raw === undefined || !/^-?\d+$/.test(raw)) throw new Error(`--${name} needs a whole number, got ${raw === undefined ? 'nothing' : `"${raw}"`}`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`--${name} must be between ${min} and ${max}, got ${value}`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith('--') ? arg.slice(2).split('=', 2) : [null, undefined];
    if (name === null) throw new Error(`unexpected argument "${arg}"`);
    const value = inline ?? argv[++i];
    switch (name) {
      case 'games':
        flags.games = integer('games', value, 1, 1_000_000);
        break;
      case 'seed':
        flags.seed = integer('seed', value, 0, 4294967295);
        break;
      case 'players':
        flags.players = integer('players', value, 1, 4) as Flags['players'];
        break;
      case 'difficulty': {
        const d = integer('difficulty', value, 25, 35);
        if (![25, 30, 35].includes(d)) throw new Error(`--difficulty must be 25, 30 or 35, got ${d}`);
        flags.difficulty = d as Flags['difficulty'];
        break;
      }
      case 'expansions':
        if (value !== 'all' && value !== 'none') throw new Error(`--expansions must be "all" or "none", got ${value === undefined ? 'nothing' : `"${value}"`}`);
        flags.expansions = value === 'all';
        break;
      default:
        throw new Error(`unknown flag --${name}`);
    }
  }
  return flags;
}

export interface SimulationFigures {
  games: number;
  seed: number;
  players: number;
  difficulty: number;
  expansions: boolean;
  wins: number;
  losses: { time: number; yorktownSunk: number; allPlanesDestroyed: number };
  unfinished: number;
  winRate: number;
  averageTurns: number;
  averageCommands: number;
  averageGameMinutes: number;
  averageJapaneseDestroyed: number;
  rejectedCommands: number;
  commands: number;
  seconds: number;
  gamesPerSecond: number;
  msPerCommand: number;
}

export function simulate(flags: Flags, progress: (line: string) => void = () => {}): SimulationFigures {
  const started = performance.now();
  const results: GameSummary[] = [];
  const step = Math.max(1, Math.floor(flags.games / 10));
  for (let g = 0; g < flags.games; g++) {
    const summary = playGame({
      seed: (flags.seed * 100_003 + g) >>> 0,
      players: flags.players,
      difficulty: flags.difficulty,
      expansions: flags.expansions ? { expertManoeuvres: true, dropTank: true, weather: true } : {},
    });
    summary.journal = undefined as never; // keep memory flat over many games
    results.push(summary);
    if ((g + 1) % step === 0 || g + 1 === flags.games) {
      const wins = results.filter((r) => r.result === 'won').length;
      progress(`simulate: ${g + 1}/${flags.games} games, ${wins} won`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const n = results.length;
  const mean = (f: (r: GameSummary) => number) => Math.round((results.reduce((s, r) => s + f(r), 0) / n) * 100) / 100;
  const lost = (cause: string) => results.filter((r) => r.result === 'lost' && r.cause === cause).length;
  const commands = results.reduce((s, r) => s + r.commands, 0);
  const wins = results.filter((r) => r.result === 'won').length;
  return {
    games: n,
    seed: flags.seed,
    players: flags.players,
    difficulty: flags.difficulty,
    expansions: flags.expansions,
    wins,
    losses: { time: lost('time'), yorktownSunk: lost('yorktownSunk'), allPlanesDestroyed: lost('allPlanesDestroyed') },
    unfinished: results.filter((r) => r.result === 'unfinished').length,
    winRate: Math.round((wins / n) * 1000) / 1000,
    averageTurns: mean((r) => r.turns),
    averageCommands: mean((r) => r.commands),
    averageGameMinutes: mean((r) => r.gameSeconds / 60),
    averageJapaneseDestroyed: mean((r) => r.japaneseDestroyed),
    rejectedCommands: results.reduce((s, r) => s + r.rejected, 0),
    commands,
    seconds: Math.round(seconds * 1000) / 1000,
    gamesPerSecond: Math.round((n / seconds) * 100) / 100,
    msPerCommand: Math.round(((seconds * 1000) / commands) * 10000) / 10000,
  };
}

function main(): void {
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`simulate: ${(err as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const figures = simulate(flags, (line) => process.stderr.write(line + '\n'));
  console.log(JSON.stringify(figures));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) main();
