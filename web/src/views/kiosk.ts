/**
 * Demo station: the table display full screen, the attract game the service plays by itself
 * when idle, and today's statistics. Resets after a game or inactivity are the service's (kiosk
 * config); this view follows the state it pushes.
 */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { durationText } from '../format.ts';
import { t } from '../i18n.ts';
import type { DayStats } from '../types.ts';
import { defeatsView } from './defeats.ts';
import { tableView } from './table.ts';
import { SENDS } from '../offline.ts';

let stats: DayStats | null = null;
let statsAt = 0;

function refreshStats(app: App): void {
  if (Date.now() - statsAt < 30_000) return;
  statsAt = Date.now();
  void app.client.stats().then((s) => {
    stats = s;
    if (app.view === 'kiosk') app.render(false);
  });
}

/** A game ending changes the figures: fetch them again on the next render. */
export function invalidateStats(): void {
  statsAt = 0;
}

export function statsView(): HTMLElement {
  const left = stats?.abandoned?.games ?? 0;
  if (!stats || stats.games + left === 0) return h('section', { class: 'day-stats', 'data-testid': 'day-stats' }, h('h2', null, t('todayStats')), h('p', null, t('statsUnavailable')));
  return h('section', { class: 'day-stats', 'data-testid': 'day-stats' },
    h('h2', null, t('todayStats')),
    h('dl', null,
      h('div', null, h('dt', null, t('gamesPlayed')), h('dd', { 'data-testid': 'stats-games' }, stats.games)),
      left ? h('div', null, h('dt', null, t('gamesLeft')), h('dd', { 'data-testid': 'stats-left' }, left)) : null,
      left && stats.abandoned.durationMs?.mean != null ? h('div', null, h('dt', null, t('avgLeftAfter')), h('dd', { 'data-testid': 'stats-left-after' }, durationText(stats.abandoned.durationMs.mean))) : null,
      h('div', null, h('dt', null, t('wins')), h('dd', null, stats.results.won ?? 0)),
      h('div', null, h('dt', null, t('avgDuration')), h('dd', null, stats.durationMs.mean !== null ? durationText(stats.durationMs.mean) : '—')),
    ),
    defeatsView(stats.causes),
  );
}

/** A visitor's game at once: the standard one (four planes, digital deck, the table's rule settings), as the box's buttons start it. */
let starting = false;

export function playNow(app: App): void {
  // a second tap before the first one's game arrives would start another in its place
  if (starting) return;
  starting = true;
  void app.act(() => app.client.command({ type: 'newGame' })).finally(() => {
    starting = false;
  });
}

/** The empty table (or a finished game's): what a visitor presses to play. */
function playPanel(app: App): HTMLElement {
  return h('section', { class: 'kiosk-play', 'data-testid': 'kiosk-play' },
    h('p', { class: 'invite' }, t('kioskInvite')),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'play-now', ...SENDS, onclick: () => playNow(app) }, t('playNow')),
      h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'play-choose', onclick: () => app.go('wizard') }, t('playChoose'))),
  );
}

export function kioskView(app: App): HTMLElement {
  refreshStats(app);
  const attract = app.snap?.attract === true;
  const st = app.state;
  const noGame = !!app.snap && (!st || (st.phase === 'setup' && !st.setup) || st.phase === 'over');
  // "tap to play", as the invitation says: while the station plays by itself, or with no game on it, a tap
  // anywhere on it (but on a control of its own) starts a visitor's game
  const tapToPlay = (e: Event) => {
    if (!(e.target instanceof Element) || !e.target.closest('button, a, input, select, textarea, label, summary')) playNow(app);
  };
  return h('div', { class: `kiosk-view${attract ? ' attract' : ''}`, 'data-testid': 'kiosk-view', onclick: attract || noGame ? tapToPlay : null },
    // the invitation and the day's figures share one strip, so that the game under them fits the screen
    attract || noGame
      ? h('div', { class: 'kiosk-top' },
          attract
            ? h('button', { type: 'button', class: 'attract-banner', 'data-testid': 'attract', ...SENDS, onclick: () => playNow(app) },
                h('span', { class: 'badge' }, t('attractBadge')), ' ', t('kioskAttract'), h('span', { class: 'invite' }, t('kioskInvite')))
            : playPanel(app),
          statsView())
      : null,
    h('div', { class: 'kiosk-body' }, tableView(app)),
  );
}
