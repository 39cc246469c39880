/**
 * Play statistics for demo stations: one row per game finished, or given up unfinished (result
 * `abandoned`: counted apart from the finished games' figures). Games the attract mode plays by
 * itself are stored flagged and kept out of the figures.
 */
import type { Db } from './database.ts';

export interface FinishedGame {
  tableId: string;
  game: string;
  /** journal seq of the newGame command: identifies the game on its table */
  startedSeq: number;
  startedAt: number;
  endedAt: number;
  result: string;
  cause: string | null;
  attract: boolean;
  details: Record<string, unknown>;
}

/** The result of a game people left unfinished; its cause says how: `newGame` (one started in its place), `reset`, `leftAlone` (a demo station's idle reset). */
export const ABANDONED = 'abandoned';

export interface DayStats {
  tableId: string;
  /** local calendar day of the server, YYYY-MM-DD */
  day: string;
  games: number;
  results: Record<string, number>;
  causes: Record<string, number>;
  durationMs: Durations;
  /** games people left unfinished (not counted above), by how, how long they were played, and the last 20 (their figures where they were left) */
  abandoned: { games: number; causes: Record<string, number>; durationMs: Durations; recent: RecentGame[] };
  /** games played by the attract mode (not counted above) */
  attractGames: number;
  recent: RecentGame[];
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

/** The server's local calendar day of a wall-clock time, YYYY-MM-DD. */
export function localDay(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export class StatsStore {
  private readonly insert;
  private readonly selectDay;
  private readonly remove;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO game_stats (table_id, game, started_seq, started_at, ended_at, day, result, cause, duration_ms, attract, details)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectDay = db.prepare('SELECT * FROM game_stats WHERE table_id = ? AND day = ? ORDER BY ended_at');
    this.remove = db.prepare('DELETE FROM game_stats WHERE table_id = ? AND started_seq = ?');
  }

  /** The game's end was undone: it is being played again. Throws when the database refuses the write. */
  forget(tableId: string, startedSeq: number): void {
    this.remove.run(tableId, startedSeq);
  }

  /** Throws when the database refuses the write. Recording the same game twice keeps one row. */
  record(game: FinishedGame): void {
    this.insert.run(
      game.tableId,
      game.game,
      game.startedSeq,
      game.startedAt,
      game.endedAt,
      localDay(game.endedAt),
      game.result,
      game.cause,
      Math.max(0, game.endedAt - game.startedAt),
      game.attract ? 1 : 0,
      JSON.stringify(game.details),
    );
  }

  day(tableId: string, day: string): DayStats {
    const rows = this.selectDay.all(tableId, day) as {
      started_at: number; ended_at: number; result: string; cause: string | null; duration_ms: number; attract: number; details: string;
    }[];
    const people = rows.filter((r) => r.attract === 0);
    const played = people.filter((r) => r.result !== ABANDONED);
    const left: Record<string, number> = {};
    for (const r of people) if (r.result === ABANDONED) left[r.cause ?? 'reset'] = (left[r.cause ?? 'reset'] ?? 0) + 1;
    const results: Record<string, number> = {};
    const causes: Record<string, number> = {};
    for (const r of played) {
      results[r.result] = (results[r.result] ?? 0) + 1;
      if (r.cause !== null) causes[r.cause] = (causes[r.cause] ?? 0) + 1;
    }
    const unfinished = people.filter((r) => r.result === ABANDONED);
    const recent = (list: typeof rows): RecentGame[] => list.slice(-20).map((r) => ({
      startedAt: r.started_at, endedAt: r.ended_at, result: r.result, cause: r.cause, durationMs: r.duration_ms, details: JSON.parse(r.details) as Record<string, unknown>,
    }));
    return {
      tableId,
      day,
      games: played.length,
      results,
      causes,
      durationMs: durationsOf(played.map((r) => r.duration_ms)),
      abandoned: { games: unfinished.length, causes: left, durationMs: durationsOf(unfinished.map((r) => r.duration_ms)), recent: recent(unfinished) },
      attractGames: rows.length - people.length,
      recent: recent(played),
    };
  }
}
