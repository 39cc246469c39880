/**
 * The games of a range as CSV (RFC 4180: CRLF line ends, a field with a comma, a quote or a line end
 * quoted, its quotes doubled), a header line first, times in the server's local time.
 */
import { localIsoTime } from '../store/local-days.ts';
import type { StatsGame } from '../store/stats-store.ts';

const HEADER = ['started', 'ended', 'day', 'result', 'cause', 'duration_s', 'attract'];

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export function gamesCsv(games: StatsGame[]): string {
  return csvLine(HEADER) + games.map((g) => csvLine([
    localIsoTime(g.startedAt),
    localIsoTime(g.endedAt),
    g.day,
    g.result,
    g.cause ?? '',
    String(Math.round(g.durationMs / 1000)),
    g.attract ? 'yes' : 'no',
  ])).join('');
}

/** The file's name: the table and the range, `games-demo-2026-03-01-to-2026-03-31.csv`. */
export function gamesCsvName(tableId: string, from: string, to: string): string {
  return `games-${tableId}-${from}-to-${to}.csv`;
}
