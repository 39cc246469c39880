/**
 * Play statistics for demo stations: one row per game finished, or given up unfinished (result
 * `abandoned`: counted apart from the finished games' figures). Games the attract mode plays by
 * itself are stored flagged and kept out of the figures.
 */
import type { Db } from './database.ts';
import { daysFrom, localDay } from './local-days.ts';
import { daySummaries, figuresOf, type DaySummary, type StatsFigures, type StatsRow } from './stats-figures.ts';

export { ABANDONED, UNTOUCHED, type DaySummary, type Durations, type RecentGame, type StatsFigures } from './stats-figures.ts';
export { localDay } from './local-days.ts';

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

export interface DayStats extends StatsFigures {
  tableId: string;
  /** local calendar day of the server, YYYY-MM-DD */
  day: string;
}

/** Several days: each in short (every day, oldest first), and their figures together. */
export interface RangeStats {
  tableId: string;
  from: string;
  to: string;
  days: DaySummary[];
  totals: StatsFigures;
}

/** One stored game, for a list of games (the CSV export). */
export interface StatsGame {
  startedAt: number;
  endedAt: number;
  /** local calendar day of the server it ended on */
  day: string;
  result: string;
  cause: string | null;
  durationMs: number;
  attract: boolean;
}

/** The games of a table ended from one day to another (both included), in the order they ended: one query on the index game_stats_day (table_id, day). */
export const SELECT_DAYS = 'SELECT * FROM game_stats WHERE table_id = ? AND day BETWEEN ? AND ? ORDER BY ended_at';

export class StatsStore {
  private readonly insert;
  private readonly selectDays;
  private readonly remove;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO game_stats (table_id, game, started_seq, started_at, ended_at, day, result, cause, duration_ms, attract, details)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // the index serves a day and a range alike
    this.selectDays = db.prepare(SELECT_DAYS);
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
    return { tableId, day, ...figuresOf(this.rows(tableId, day, day)) };
  }

  /** `from` to `to` (YYYY-MM-DD, both included, `from` first). */
  range(tableId: string, from: string, to: string): RangeStats {
    const rows = this.rows(tableId, from, to);
    return { tableId, from, to, days: daySummaries(daysFrom(from, to), rows), totals: figuresOf(rows) };
  }

  /** Every game that ended from `from` to `to` (both included), attract games and those left unfinished too, in the order they ended. */
  games(tableId: string, from: string, to: string): StatsGame[] {
    return this.rows(tableId, from, to).map((r) => ({
      startedAt: r.started_at, endedAt: r.ended_at, day: r.day, result: r.result, cause: r.cause, durationMs: r.duration_ms, attract: r.attract !== 0,
    }));
  }

  private rows(tableId: string, from: string, to: string): StatsRow[] {
    return this.selectDays.all(tableId, from, to) as StatsRow[];
  }
}
