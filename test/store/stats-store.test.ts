/**
 * The statistics of a range of days: every day in short and the range's figures, from the stored
 * rows. The server's clock runs in Chicago here (UTC−6 in March) so that a local day is not the UTC
 * day: a game ending at 23:59 there ends the next day in UTC.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/store/database.ts';
import { dayAtOffset, daysFrom, isCalendarDay, localDay, localIsoTime, shiftDay } from '../../server/store/local-days.ts';
import { ABANDONED, SELECT_DAYS, StatsStore, type FinishedGame } from '../../server/store/stats-store.ts';

const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/Chicago';
});
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

let db: Db;
let stats: StatsStore;
let seq = 0;
beforeEach(() => {
  db = openDatabase(':memory:');
  stats = new StatsStore(db);
  seq = 0;
});
afterEach(() => db.close());

/** A wall-clock time of the server's local calendar (month 1–12). */
const local = (month: number, day: number, hours: number, minutes = 0, seconds = 0) => new Date(2026, month - 1, day, hours, minutes, seconds).getTime();

/** Records a game of `minutes` that ended at `endedAt`. */
function game(endedAt: number, minutes: number, result: string, cause: string | null, more: Partial<FinishedGame> = {}): void {
  stats.record({ tableId: 'demo', game: 'yorktown1942', startedSeq: ++seq, startedAt: endedAt - minutes * 60_000, endedAt, result, cause, attract: false, details: { turn: seq }, ...more });
}

describe('local days', () => {
  it('reads the calendar: real days, the days between two, across a month, a year and a clock change', () => {
    expect(['2026-02-28', '2024-02-29', '2026-12-31'].map(isCalendarDay)).toEqual([true, true, true]);
    expect(['2026-02-29', '2026-02-30', '2026-13-01', '2026-04-31', '2026-1-01', 'today'].map(isCalendarDay)).toEqual([false, false, false, false, false, false]);
    expect(daysFrom('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    // Chicago moves its clocks forward on 8 March 2026: that day is 23 hours long, and still one day
    expect(daysFrom('2026-03-07', '2026-03-09')).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(shiftDay('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysFrom('2026-03-02', '2026-03-01')).toEqual([]);
  });

  it("works out another clock's day from its offset to UTC (the service's day in a browser elsewhere)", () => {
    const lateUtc = Date.UTC(2026, 2, 14, 23, 30);
    expect(dayAtOffset(lateUtc, 0)).toBe('2026-03-14');
    expect(dayAtOffset(lateUtc, 60)).toBe('2026-03-15');
    expect(dayAtOffset(Date.UTC(2026, 2, 15, 5), -600)).toBe('2026-03-14');
    expect(dayAtOffset(Date.UTC(2026, 11, 31, 20), 14 * 60)).toBe('2027-01-01');
  });

  it('writes a time in the local time with its offset, before and after the clock change', () => {
    expect(localIsoTime(local(3, 7, 23, 59, 30))).toBe('2026-03-07T23:59:30-06:00');
    expect(localIsoTime(local(3, 14, 9, 5, 0))).toBe('2026-03-14T09:05:00-05:00');
  });
});

describe('StatsStore.range', () => {
  it('gives every day of the range, oldest first, and the range\'s figures from the rows', () => {
    game(local(3, 2, 10), 20, 'won', 'shohoSunk');
    game(local(3, 2, 11), 30, 'lost', 'time');
    game(local(3, 2, 12), 5, ABANDONED, 'leftAlone');
    game(local(3, 2, 13), 25, 'won', 'shohoSunk', { attract: true });
    game(local(3, 4, 16), 40, 'lost', 'yorktownSunk');
    game(local(3, 4, 17), 3, ABANDONED, 'newGame');
    // outside the range, before and after, and another table's
    game(local(3, 1, 23, 59), 10, 'won', 'shohoSunk');
    game(local(3, 5, 0, 1), 10, 'won', 'shohoSunk');
    game(local(3, 3, 12), 10, 'won', 'shohoSunk', { tableId: 'other' });

    const range = stats.range('demo', '2026-03-02', '2026-03-04');
    expect(range).toMatchObject({ tableId: 'demo', from: '2026-03-02', to: '2026-03-04' });
    expect(range.days).toEqual([
      { day: '2026-03-02', games: 2, wins: 1, abandoned: 1, attractGames: 1, meanDurationMs: 25 * 60_000 },
      { day: '2026-03-03', games: 0, wins: 0, abandoned: 0, attractGames: 0, meanDurationMs: null },
      { day: '2026-03-04', games: 1, wins: 0, abandoned: 1, attractGames: 0, meanDurationMs: 40 * 60_000 },
    ]);
    const { totals } = range;
    expect(totals).toMatchObject({
      games: 3,
      results: { won: 1, lost: 2 },
      causes: { shohoSunk: 1, time: 1, yorktownSunk: 1 },
      attractGames: 1,
      abandoned: { games: 2, causes: { leftAlone: 1, newGame: 1 }, durationMs: { median: 4 * 60_000, mean: 4 * 60_000, min: 3 * 60_000, max: 5 * 60_000 } },
    });
    // the mean of the three games (30 min), not the mean of the days' means (32.5 min)
    expect(totals.durationMs).toEqual({ median: 30 * 60_000, mean: 30 * 60_000, min: 20 * 60_000, max: 40 * 60_000 });
    expect(totals.recent.map((g) => g.result)).toEqual(['won', 'lost', 'lost']);
    expect(totals.abandoned.recent.map((g) => g.cause)).toEqual(['leftAlone', 'newGame']);
  });

  it('has the figures of a day the same as day() has them', () => {
    game(local(3, 2, 10), 20, 'won', 'shohoSunk');
    game(local(3, 2, 12), 5, ABANDONED, 'reset');
    game(local(3, 2, 13), 25, 'won', 'shohoSunk', { attract: true });
    const { tableId: _t, day: _d, ...day } = stats.day('demo', '2026-03-02');
    expect(stats.range('demo', '2026-03-02', '2026-03-02').totals).toEqual(day);
  });

  it('counts a game ending just before midnight on its local day, not on the UTC one', () => {
    const beforeMidnight = local(3, 14, 23, 59, 30);
    // in UTC that is already the 15th
    expect(new Date(beforeMidnight).toISOString().slice(0, 10)).toBe('2026-03-15');
    game(beforeMidnight, 30, 'won', 'shohoSunk');
    game(local(3, 15, 0, 0, 30), 10, 'lost', 'time');
    expect(localDay(beforeMidnight)).toBe('2026-03-14');
    const days = stats.range('demo', '2026-03-14', '2026-03-15').days;
    expect(days.map((d) => [d.day, d.games, d.wins])).toEqual([['2026-03-14', 1, 1], ['2026-03-15', 1, 0]]);
    expect(stats.games('demo', '2026-03-14', '2026-03-14').map((g) => g.result)).toEqual(['won']);
  });

  it('gives an empty range every day with nothing in it', () => {
    game(local(3, 2, 10), 20, 'won', 'shohoSunk');
    const range = stats.range('demo', '2026-02-26', '2026-03-01');
    expect(range.days.map((d) => d.day)).toEqual(['2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01']);
    expect(range.days.every((d) => d.games === 0 && d.wins === 0 && d.abandoned === 0 && d.attractGames === 0 && d.meanDurationMs === null)).toBe(true);
    expect(range.totals).toEqual({
      games: 0,
      results: {},
      causes: {},
      durationMs: { median: null, mean: null, min: null, max: null },
      abandoned: { games: 0, causes: {}, durationMs: { median: null, mean: null, min: null, max: null }, recent: [] },
      untouched: 0,
      attractGames: 0,
      recent: [],
    });
  });

  it('lists every game of the range for the export, attract games and those left unfinished too', () => {
    game(local(3, 2, 10), 20, 'won', 'shohoSunk');
    game(local(3, 2, 12), 5, ABANDONED, 'leftAlone');
    game(local(3, 3, 13), 25, 'won', 'shohoSunk', { attract: true });
    expect(stats.games('demo', '2026-03-02', '2026-03-03')).toEqual([
      { startedAt: local(3, 2, 9, 40), endedAt: local(3, 2, 10), day: '2026-03-02', result: 'won', cause: 'shohoSunk', durationMs: 20 * 60_000, attract: false },
      { startedAt: local(3, 2, 11, 55), endedAt: local(3, 2, 12), day: '2026-03-02', result: ABANDONED, cause: 'leftAlone', durationMs: 5 * 60_000, attract: false },
      { startedAt: local(3, 3, 12, 35), endedAt: local(3, 3, 13), day: '2026-03-03', result: 'won', cause: 'shohoSunk', durationMs: 25 * 60_000, attract: true },
    ]);
  });

  it('reads a range in one query on the day index', () => {
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${SELECT_DAYS}`).all('demo', '2026-03-01', '2026-03-31') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' | ')).toMatch(/USING INDEX game_stats_day \(table_id=\? AND day>\? AND day<\?\)/);
  });
});
