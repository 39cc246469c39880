/**
 * Statistics: the games played at the table over a range of days (the last 7 or 30, or two days
 * picked; the service's days, `GET /api/tables/:id/stats?from=&to=`): the range's totals, a row per
 * day, newest first, and the range's games as a CSV file. Watching only: no PIN. This module holds the
 * page's state and its call to the service.
 */
import { MAX_RANGE_DAYS } from '../../../server/http/stats-range.ts';
import { dayAtOffset, daysCounted, isCalendarDay, localDay, shiftDay } from '../../../server/store/local-days.ts';
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { dayParts, dayText, durationText, shareText } from '../format.ts';
import { t, tk, type Key } from '../i18n.ts';
import { problemText } from '../refusals.ts';
import type { RangeStats, Reply } from '../types.ts';
import { defeatsView } from './defeats.ts';

type Preset = 7 | 30;
type Range = { from: string; to: string };

interface StatsUi {
  /** the last days up to today, or (null) the days picked */
  preset: Preset | null;
  picked: Range;
  /** the range last asked for (`from|to`), and the service's answer for the range it was asked (null: none yet) */
  asked: string | null;
  answer: { key: string; reply: Reply<RangeStats> } | null;
  /** the app's page count when this page was last drawn */
  openedAs: number;
}

const ui: StatsUi = { preset: 7, picked: { from: '', to: '' }, asked: null, answer: null, openedAs: -1 };

/** A game ended, began or was left, or the connection came back: the figures are asked for again. */
export function statsOutdated(): void {
  ui.asked = null;
}

const keyOf = (range: Range) => `${range.from}|${range.to}`;

function shownRange(app: App): Range {
  if (ui.preset === null) return ui.picked;
  // the service's day, wherever this browser is
  const offset = app.snap?.serverUtcOffsetMinutes;
  const to = offset === undefined ? localDay(app.now()) : dayAtOffset(app.now(), offset);
  return { from: shiftDay(to, 1 - ui.preset), to };
}

/** Why the days picked cannot be asked for, or null. */
function rangeProblem(range: Range): string | null {
  if (range.from > range.to) return t('statsBackwards');
  return daysCounted(range.from, range.to) > MAX_RANGE_DAYS ? t('statsTooLong', { n: MAX_RANGE_DAYS }) : null;
}

function ask(app: App, range: Range): void {
  // opened anew: games may have been played since
  if (ui.openedAs !== app.pagesOpened) ui.asked = null;
  ui.openedAs = app.pagesOpened;
  const key = keyOf(range);
  if (ui.asked === key) return;
  ui.asked = key;
  void app.client.statsRange(range.from, range.to).then((reply) => {
    // the answer to a range asked before another (a late one) is not this page's any more
    if (ui.asked !== key) return;
    ui.answer = { key, reply };
    if (app.view === 'stats') app.render(false);
  });
}

function pickDay(app: App, end: keyof Range, value: string): void {
  // a date field cleared, or half typed, changes nothing
  if (!isCalendarDay(value)) return;
  ui.picked = { ...shownRange(app), [end]: value };
  ui.preset = null;
  app.render(true);
}

function rangePicker(app: App, range: Range): HTMLElement {
  const preset = (days: Preset, label: Key) => h('button', {
    type: 'button', class: 'btn', 'aria-pressed': ui.preset === days ? 'true' : 'false', 'data-testid': `stats-last-${days}`,
    onclick: () => {
      ui.preset = days;
      app.render(true);
    },
  }, t(label));
  const day = (end: keyof Range, label: Key) => h('label', { class: 'field' }, h('span', null, t(label)),
    h('input', { type: 'date', name: `stats-${end}`, 'data-testid': `stats-${end}`, value: range[end], onchange: (e: Event) => pickDay(app, end, (e.target as HTMLInputElement).value) }));
  return h('div', { class: 'stats-range' }, preset(7, 'statsLast7'), preset(30, 'statsLast30'), day('from', 'statsFrom'), day('to', 'statsTo'));
}

/** How the games left unfinished were left: "left alone 2 · a new game in its place 1". */
function leftCausesText(causes: Record<string, number>): string {
  return Object.entries(causes).map(([cause, n]) => `${tk(`leftCause_${cause}`)} ${n}`).join(' · ');
}

function figure(label: Key, testId: string, value: string | number): HTMLElement {
  return h('div', null, h('dt', null, t(label)), h('dd', { 'data-testid': testId }, value));
}

function totalsView(stats: RangeStats, withYear: boolean): HTMLElement {
  const { games, results, abandoned, durationMs, attractGames, causes, untouched } = stats.totals;
  const wins = results.won ?? 0;
  return h('section', { class: 'day-stats stats-totals', 'data-testid': 'stats-totals' },
    h('h3', null, t('statsRange', { from: dayText(stats.from, withYear), to: dayText(stats.to, withYear) })),
    games + abandoned.games + attractGames === 0 ? h('p', { 'data-testid': 'stats-no-games' }, t('statsNoGames')) : null,
    h('dl', null,
      figure('gamesPlayed', 'stats-total-games', games),
      figure('wins', 'stats-total-wins', games ? `${wins} (${shareText(wins / games)})` : wins),
      figure('gamesLeft', 'stats-total-left', abandoned.games ? `${abandoned.games} (${leftCausesText(abandoned.causes)})` : 0),
      untouched ? figure('statsUntouched', 'stats-total-untouched', untouched) : null,
      figure('avgDuration', 'stats-total-duration', durationMs.mean === null ? '—' : durationText(durationMs.mean)),
      attractGames ? figure('statsAttract', 'stats-total-attract', attractGames) : null,
    ),
    defeatsView(causes),
  );
}

function dayCell(day: string, withYear: boolean): HTMLElement {
  const { weekday, date } = dayParts(day, withYear);
  return h('time', { datetime: day }, h('span', null, weekday), ' ', h('span', null, date));
}

/** Every day of the range, newest first; a day without a game shows 0 and —. */
function daysTable(stats: RangeStats, withYear: boolean): HTMLElement {
  const heads: Key[] = ['statsDay', 'gamesPlayed', 'wins', 'gamesLeft', 'avgDuration'];
  return h('section', { class: 'stats-days' },
    h('h3', null, t('statsByDay')),
    h('div', { class: 'stats-days-scroll' }, h('table', { 'data-testid': 'stats-days' },
      h('thead', null, h('tr', null, heads.map((key) => h('th', { scope: 'col' }, t(key))))),
      h('tbody', null, [...stats.days].reverse().map((d) => h('tr', { class: d.games + d.abandoned === 0 ? 'none' : null, 'data-testid': `stats-day-${d.day}` },
        h('th', { scope: 'row' }, dayCell(d.day, withYear)),
        h('td', null, d.games),
        h('td', null, d.wins),
        h('td', null, d.abandoned),
        h('td', null, d.meanDurationMs === null ? '—' : durationText(d.meanDurationMs))))))),
  );
}

function csvLink(app: App, range: Range): HTMLElement {
  return h('p', { class: 'stats-csv' },
    h('a', { class: 'btn', href: app.client.gamesCsvUrl(range.from, range.to), download: true, 'data-testid': 'stats-csv' }, t('statsCsv')),
    h('span', { class: 'hint' }, t('statsCsvWhy')));
}

function figuresView(app: App, range: Range): HTMLElement | HTMLElement[] {
  const problem = rangeProblem(range);
  if (problem) return h('p', { class: 'form-error', role: 'alert', 'data-testid': 'stats-problem' }, problem);
  ask(app, range);
  const reply = ui.answer?.key === keyOf(range) ? ui.answer.reply : null;
  if (!reply) return h('p', { class: 'hint waiting', role: 'status', 'data-testid': 'stats-loading' }, t('statsLoading'));
  if (!reply.ok) {
    const { text, detail } = problemText(reply.error);
    return h('p', { class: 'form-error', role: 'alert', 'data-testid': 'stats-problem' }, text, detail ? h('span', { class: 'toast-detail' }, detail) : null);
  }
  const withYear = range.from.slice(0, 4) !== range.to.slice(0, 4);
  return [totalsView(reply.data, withYear), csvLink(app, range), daysTable(reply.data, withYear)];
}

export function statsPageView(app: App): HTMLElement {
  const range = shownRange(app);
  return h('section', { class: 'stats-page', 'data-testid': 'stats-page' },
    h('h2', null, t('statsTitle')),
    h('p', { class: 'hint' }, t('statsWhy')),
    rangePicker(app, range),
    figuresView(app, range),
  );
}
