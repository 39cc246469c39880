/**
 * The days a statistics request asks for: one day (`day=`, default today) or a range (`from=` and
 * `to=`, both included, at most a year), read with the refusal in words when they are not days.
 */
import { daysCounted, isCalendarDay } from '../store/local-days.ts';

/** the longest range asked at once: a leap year */
export const MAX_RANGE_DAYS = 366;

export type DaysAsked = { kind: 'day'; day: string } | { kind: 'range'; from: string; to: string };

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

function dayRefusal(name: string, text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${name}: "${text}" is not a date: write it YYYY-MM-DD.`;
  return isCalendarDay(text) ? null : `${name}: ${text} is not a day of the calendar.`;
}

/** `from` to `to`: both real days, `from` first, at most MAX_RANGE_DAYS days. */
export function readRange(from: string, to: string): Read<{ from: string; to: string }> {
  const wrong = dayRefusal('from', from) ?? dayRefusal('to', to);
  if (wrong) return { ok: false, message: wrong };
  if (from > to) return { ok: false, message: `from (${from}) is after to (${to}).` };
  const days = daysCounted(from, to);
  if (days > MAX_RANGE_DAYS) return { ok: false, message: `From ${from} to ${to} is ${days} days: ask for ${MAX_RANGE_DAYS} days at most.` };
  return { ok: true, value: { from, to } };
}

/** The stats route's query: `day=` alone (as it always was: no check beyond its schema's), `from=` with `to=`, or nothing for `today`. */
export function readDaysAsked(query: { day?: string; from?: string; to?: string }, today: string): Read<DaysAsked> {
  const { day, from, to } = query;
  if (day !== undefined && (from !== undefined || to !== undefined)) {
    return { ok: false, message: 'Ask for one day (day=) or for a range (from= and to=), not both.' };
  }
  if (from === undefined && to === undefined) return { ok: true, value: { kind: 'day', day: day ?? today } };
  if (from === undefined || to === undefined) return { ok: false, message: 'A range needs both from= and to= (YYYY-MM-DD).' };
  const range = readRange(from, to);
  return range.ok ? { ok: true, value: { kind: 'range', ...range.value } } : range;
}
