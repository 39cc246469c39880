/**
 * The statistics routes: one day as always, a range of days, each refusal of a range in words, and the
 * games of a range as a CSV file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { ABANDONED, localDay, type FinishedGame } from '../../server/store/stats-store.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { tempDir, testApp } from './helpers.ts';

let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;
let seq = 0;

beforeEach(() => {
  dir = tempDir();
  seq = 0;
});
afterEach(async () => {
  await built?.app.close();
  built = null;
  dir.cleanup();
});

async function start(): Promise<BuiltApp> {
  built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: { tally: tallyAdapter }, tables: [{ id: 'demo', name: 'Demo', game: 'tally' }] });
  return built;
}

/** A wall-clock time of the server's local calendar in March 2026. */
const march = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes).getTime();

function game(b: BuiltApp, endedAt: number, minutes: number, result: string, cause: string | null, more: Partial<FinishedGame> = {}): void {
  b.service.stats.record({ tableId: 'demo', game: 'tally', startedSeq: ++seq, startedAt: endedAt - minutes * 60_000, endedAt, result, cause, attract: false, details: {}, ...more });
}

const get = (b: BuiltApp, url: string) => b.app.inject({ url });

describe('GET /api/tables/:id/stats', () => {
  it('answers one day as before, today without a day', async () => {
    const b = await start();
    game(b, march(2, 10), 20, 'won', 'shohoSunk');
    game(b, Date.now(), 12, 'lost', 'time');
    expect((await get(b, '/api/tables/demo/stats?day=2026-03-02')).json()).toMatchObject({ tableId: 'demo', day: '2026-03-02', games: 1, results: { won: 1 } });
    expect((await get(b, '/api/tables/demo/stats')).json()).toMatchObject({ day: localDay(Date.now()), games: 1, results: { lost: 1 } });
  });

  it('answers a range: every day, oldest first, and the totals', async () => {
    const b = await start();
    game(b, march(2, 10), 20, 'won', 'shohoSunk');
    game(b, march(2, 11), 5, ABANDONED, 'leftAlone');
    game(b, march(4, 16), 40, 'lost', 'yorktownSunk');
    game(b, march(4, 17), 30, 'won', 'shohoSunk', { attract: true });
    game(b, march(5, 9), 10, 'won', 'shohoSunk');
    const r = await get(b, '/api/tables/demo/stats?from=2026-03-02&to=2026-03-04');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ tableId: 'demo', from: '2026-03-02', to: '2026-03-04' });
    expect(body.days).toEqual([
      { day: '2026-03-02', games: 1, wins: 1, abandoned: 1, attractGames: 0, meanDurationMs: 20 * 60_000 },
      { day: '2026-03-03', games: 0, wins: 0, abandoned: 0, attractGames: 0, meanDurationMs: null },
      { day: '2026-03-04', games: 1, wins: 0, abandoned: 0, attractGames: 1, meanDurationMs: 40 * 60_000 },
    ]);
    expect(body.totals).toMatchObject({ games: 2, results: { won: 1, lost: 1 }, causes: { shohoSunk: 1, yorktownSunk: 1 }, durationMs: { mean: 30 * 60_000 }, abandoned: { games: 1, causes: { leftAlone: 1 } }, attractGames: 1 });
    // a whole leap year at once
    const year = (await get(b, '/api/tables/demo/stats?from=2024-01-01&to=2024-12-31')).json();
    expect(year.days).toHaveLength(366);
  });

  it('refuses a range that is not one, in words', async () => {
    const b = await start();
    const cases: [string, RegExp][] = [
      ['day=2026-03-02&from=2026-03-01&to=2026-03-03', /not both/],
      ['day=2026-03-02&to=2026-03-03', /not both/],
      ['from=2026-03-01', /both from= and to=/],
      ['to=2026-03-01', /both from= and to=/],
      ['from=2026-3-1&to=2026-03-04', /^from: "2026-3-1" is not a date: write it YYYY-MM-DD\.$/],
      ['from=2026-03-01&to=yesterday', /^to: "yesterday" is not a date/],
      ['from=2026-02-30&to=2026-03-04', /^from: 2026-02-30 is not a day of the calendar\.$/],
      ['from=2026-03-01&to=2026-04-31', /^to: 2026-04-31 is not a day of the calendar\.$/],
      ['from=2026-03-05&to=2026-03-04', /^from \(2026-03-05\) is after to \(2026-03-04\)\.$/],
      ['from=2025-01-01&to=2026-01-02', /^From 2025-01-01 to 2026-01-02 is 367 days: ask for 366 days at most\.$/],
    ];
    for (const [query, message] of cases) {
      const r = await get(b, `/api/tables/demo/stats?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().error.code, query).toBe('badRange');
      expect(r.json().error.message, query).toMatch(message);
    }
    // the schema's own refusals keep the service's error format
    for (const query of ['from=2026-03-01&to=2026-03-02&x=1', 'from=2026-03-01&from=2026-03-02&to=2026-03-04']) {
      const r = await get(b, `/api/tables/demo/stats?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().error.code, query).toBe('badRequest');
    }
    expect((await get(b, '/api/tables/nope/stats?from=2026-03-01&to=2026-03-02')).json().error.code).toBe('unknownTable');
  });
});

describe('GET /api/tables/:id/stats/games.csv', () => {
  it('sends one line per game of the range, quoted where it must be, as a file to save', async () => {
    const b = await start();
    game(b, march(2, 10), 20, 'won', 'shohoSunk');
    game(b, march(2, 11, 30), 5.5, ABANDONED, 'leftAlone');
    game(b, march(3, 9), 25, 'won', 'shohoSunk', { attract: true });
    // causes no game writes, to see the quoting
    game(b, march(4, 12), 1, 'lost', 'a "quoted", comma\ncause');
    game(b, march(4, 13), 1, 'lost', 'said "no"');
    game(b, march(4, 14), 1, 'lost', 'two\nlines');
    game(b, march(5, 12), 10, 'lost', null);
    const r = await get(b, '/api/tables/demo/stats/games.csv?from=2026-03-02&to=2026-03-04');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe('attachment; filename="games-demo-2026-03-02-to-2026-03-04.csv"');
    const time = (at: number) => {
      const d = new Date(at);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${localDay(at)}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    };
    const lines = r.body.split('\r\n');
    expect(lines[0]).toBe('started,ended,day,result,cause,duration_s,attract');
    expect(lines[1]).toMatch(new RegExp(`^${time(march(2, 9, 40))}[+-]\\d\\d:\\d\\d,${time(march(2, 10))}[+-]\\d\\d:\\d\\d,2026-03-02,won,shohoSunk,1200,no$`));
    expect(lines[2]).toMatch(/,2026-03-02,abandoned,leftAlone,330,no$/);
    expect(lines[3]).toMatch(/,2026-03-03,won,shohoSunk,1500,yes$/);
    expect(r.body).toContain(',2026-03-04,lost,"a ""quoted"", comma\ncause",60,no\r\n');
    expect(r.body).toContain(',2026-03-04,lost,"said ""no""",60,no\r\n');
    expect(r.body).toMatch(/,2026-03-04,lost,"two\nlines",60,no\r\n$/);
    // the header, 6 games and the empty rest after the last line end (two causes hold a line end of their own)
    expect(lines).toHaveLength(8);
  });

  it('sends the header alone for a range without games', async () => {
    const b = await start();
    const r = await get(b, '/api/tables/demo/stats/games.csv?from=2026-03-02&to=2026-03-02');
    expect(r.body).toBe('started,ended,day,result,cause,duration_s,attract\r\n');
  });

  it('refuses a range that is not one, as the stats route does', async () => {
    const b = await start();
    const cases: [string, string][] = [
      ['from=2026-02-30&to=2026-03-04', 'badRange'],
      ['from=2026-03-05&to=2026-03-04', 'badRange'],
      ['from=2025-01-01&to=2026-01-02', 'badRange'],
      ['from=03/01/2026&to=2026-03-04', 'badRange'],
      ['from=2026-03-01', 'badRequest'],
      ['day=2026-03-01', 'badRequest'],
      ['day=2026-03-01&from=2026-03-01&to=2026-03-02', 'badRequest'],
    ];
    for (const [query, code] of cases) {
      const r = await get(b, `/api/tables/demo/stats/games.csv?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().error.code, query).toBe(code);
      expect(r.json().error.message, query).toBeTypeOf('string');
    }
  });
});
