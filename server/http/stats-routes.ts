/**
 * A table's play statistics (server/store/stats-store.ts), read without the PIN:
 *
 *   GET /api/tables/:id/stats?day=YYYY-MM-DD           one day (default today): DayStatsReply
 *   GET /api/tables/:id/stats?from=YYYY-MM-DD&to=…     every day of the range and their totals: RangeStatsReply
 *   GET /api/tables/:id/stats/games.csv?from=…&to=…    one line per game of the range (text/csv, a file to save)
 *
 * Days are the server's local days; a range is both days included, at most 366 days (400 `badRange`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { localDay } from '../store/local-days.ts';
import type { StatsStore } from '../store/stats-store.ts';
import type { Table } from '../table/table.ts';
import { gamesCsv, gamesCsvName } from './games-csv.ts';
import * as S from './schemas.ts';
import { readDaysAsked, readRange } from './stats-range.ts';

type IdParams = { Params: { id: string } };

export interface StatsRouteDeps {
  stats: StatsStore;
  table(request: FastifyRequest<IdParams>, reply: FastifyReply): Table<any> | null;
  sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
}

export function registerStatsRoutes(app: FastifyInstance, deps: StatsRouteDeps): void {
  const { stats, table, sendError } = deps;

  app.get<IdParams & { Querystring: { day?: string; from?: string; to?: string } }>(
    '/api/tables/:id/stats',
    { schema: { params: S.tableParams, querystring: S.statsQuery } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t) return reply;
      const asked = readDaysAsked(request.query, localDay(Date.now()));
      if (!asked.ok) return sendError(reply, 400, 'badRange', asked.message);
      const days = asked.value;
      return days.kind === 'day' ? stats.day(t.id, days.day) : stats.range(t.id, days.from, days.to);
    },
  );

  app.get<IdParams & { Querystring: { from: string; to: string } }>(
    '/api/tables/:id/stats/games.csv',
    { schema: { params: S.tableParams, querystring: S.gamesCsvQuery } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t) return reply;
      const range = readRange(request.query.from, request.query.to);
      if (!range.ok) return sendError(reply, 400, 'badRange', range.message);
      const { from, to } = range.value;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${gamesCsvName(t.id, from, to)}"`)
        .send(gamesCsv(stats.games(t.id, from, to)));
    },
  );
}
