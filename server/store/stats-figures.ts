/**
 * The play statistics' figures, from the stored rows of any stretch of time (a day, a range of days):
 * the finished games' results, causes and durations, the games people left unfinished, the attract
 * games. Pure.
 */

/**
 * The result of a game people left unfinished; its cause says how: `newGame` (one started in its place), `reset`,
 * `leftAlone` (a demo station's idle reset), or `untouched` (cleared with no move made since it was started: a
 * passer-by's tap, counted apart from the games people played).
 */
export const ABANDONED = 'abandoned';
export const UNTOUCHED = 'untouched';

/** The result a game module writes for a game the players won. */
export const WON = 'won';

/** One stored game, as the `game_stats` table holds it. */
export interface StatsRow {
  started_at: number;
  ended_at: number;
  day: string;
  result: string;
  cause: string | null;
  duration_ms: number;
  attract: number;
  details: string;
}

export interface Durations {
  median: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
}

export interface RecentGame {
  startedAt: number;
  endedAt: number;
  result: string;
  cause: string | null;
  durationMs: number;
  details: Record<string, unknown>;
}

export interface StatsFigures {
  games: number;
  results: Record<string, number>;
  causes: Record<string, number>;
  durationMs: Durations;
  /** games people left unfinished (not counted above), by how, how long they were played, and the last 20 (their figures where they were left) */
  abandoned: { games: number; causes: Record<string, number>; durationMs: Durations; recent: RecentGame[] };
  /** games started and cleared with no move made (not counted above) */
  untouched: number;
  /** games played by the attract mode (not counted above) */
  attractGames: number;
  recent: RecentGame[];
}

/** One day of a range, in short. */
export interface DaySummary {
  /** local calendar day of the server, YYYY-MM-DD */
  day: string;
  /** finished games, of which `wins` won */
  games: number;
  wins: number;
  /** games people left unfinished */
  abandoned: number;
  attractGames: number;
  /** the finished games' mean duration (null: none finished) */
  meanDurationMs: number | null;
}

const RECENT = 20;

function durationsOf(ms: number[]): Durations {
  const sorted = [...ms].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return { median: null, mean: null, min: null, max: null };
  return {
    median: sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
  };
}

function tally(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

function recentOf(rows: StatsRow[]): RecentGame[] {
  return rows.slice(-RECENT).map((r) => ({
    startedAt: r.started_at, endedAt: r.ended_at, result: r.result, cause: r.cause, durationMs: r.duration_ms, details: JSON.parse(r.details) as Record<string, unknown>,
  }));
}

/** The figures of these rows (in the order they ended). */
export function figuresOf(rows: StatsRow[]): StatsFigures {
  const people = rows.filter((r) => r.attract === 0);
  const played = people.filter((r) => r.result !== ABANDONED);
  const unfinished = people.filter((r) => r.result === ABANDONED && r.cause !== UNTOUCHED);
  return {
    games: played.length,
    results: tally(played.map((r) => r.result)),
    causes: tally(played.flatMap((r) => (r.cause === null ? [] : [r.cause]))),
    durationMs: durationsOf(played.map((r) => r.duration_ms)),
    abandoned: {
      games: unfinished.length,
      causes: tally(unfinished.map((r) => r.cause ?? 'reset')),
      durationMs: durationsOf(unfinished.map((r) => r.duration_ms)),
      recent: recentOf(unfinished),
    },
    untouched: people.filter((r) => r.result === ABANDONED && r.cause === UNTOUCHED).length,
    attractGames: rows.length - people.length,
    recent: recentOf(played),
  };
}

/** Each day's figures in short, for every one of `days` (oldest first), with no game or not. */
export function daySummaries(days: string[], rows: StatsRow[]): DaySummary[] {
  const byDay = new Map<string, StatsRow[]>(days.map((day) => [day, []]));
  for (const r of rows) byDay.get(r.day)?.push(r);
  return days.map((day) => {
    const figures = figuresOf(byDay.get(day)!);
    return {
      day,
      games: figures.games,
      wins: figures.results[WON] ?? 0,
      abandoned: figures.abandoned.games,
      attractGames: figures.attractGames,
      meanDurationMs: figures.durationMs.mean,
    };
  });
}
