/**
 * Calendar days as the statistics count them: the server's local day of a wall-clock time, written
 * YYYY-MM-DD, and the days between two of them. Pure (the dashboard uses it too).
 */

const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The server's local calendar day of a wall-clock time, YYYY-MM-DD. */
export function localDay(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A wall-clock time as ISO 8601 in the server's local time, with its offset: 2026-03-14T23:59:30+01:00. */
export function localIsoTime(at: number): string {
  const d = new Date(at);
  const offset = -d.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${localDay(at)}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${zone}`;
}

/** Days since 1970-01-01 of a YYYY-MM-DD day (counted in UTC, where no clock change makes a day 23 or 25 hours long). */
function dayNumber(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

function dayOfNumber(n: number): string {
  const d = new Date(n * DAY_MS);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The calendar day, YYYY-MM-DD, of a wall-clock time where the clock is `offsetMinutes` ahead of UTC (the server's day seen from a browser in another zone). */
export function dayAtOffset(at: number, offsetMinutes: number): string {
  return dayOfNumber(Math.floor((at + offsetMinutes * 60_000) / DAY_MS));
}

/** Written YYYY-MM-DD and a day of the calendar (not 2026-02-30). */
export function isCalendarDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && dayOfNumber(dayNumber(text)) === text;
}

/** The day `days` after (before, when negative) a YYYY-MM-DD day. */
export function shiftDay(day: string, days: number): string {
  return dayOfNumber(dayNumber(day) + days);
}

/** How many days from `from` to `to`, both counted (0 when `to` is before `from`). */
export function daysCounted(from: string, to: string): number {
  return Math.max(0, dayNumber(to) - dayNumber(from) + 1);
}

/** Every day from `from` to `to`, both included, oldest first. */
export function daysFrom(from: string, to: string): string[] {
  const first = dayNumber(from);
  return Array.from({ length: daysCounted(from, to) }, (_, i) => dayOfNumber(first + i));
}
