/** The table-side display: stopwatch, counters, card, board, planes, roll, controls. */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { boardView } from './board.ts';
import { gameControls, startGameButton } from './controls.ts';
import { planesView } from './planes.ts';
import { rollPanel } from './roll.ts';
import { alertsView, boxPlugged, cardView, countersView, historyView, nextStepView, stopwatchView } from './status.ts';

export function tableView(app: App): HTMLElement {
  const st = app.state;
  const noGame = !st || (st.phase === 'setup' && !st.setup);
  // the demo station's own game is shown, not played: a visitor starts from the banner
  const attract = app.snap?.attract === true;
  return h('div', { class: 'table-view' },
    alertsView(app),
    // a demo station offers its own Play buttons above
    noGame && !(app.kiosk && app.snap) ? noGameBanner(app) : null,
    attract ? null : nextStepView(app),
    h('div', { class: `table-layout${st?.roll ? ' rolling' : ''}` },
      h('div', { class: 'col-left' }, stopwatchView(app), countersView(app), cardView(app), attract ? null : gameControls(app)),
      // during a roll its panel takes the middle of the screen and the board goes under the planes, whose cards hold no controls then
      h('div', { class: 'col-board' }, st?.roll ? rollPanel(app, false) : boardView(app), historyView(app, st?.roll ? 4 : 10)),
      h('div', { class: 'col-right' }, planesView(app, null, !attract), st?.roll ? boardView(app) : null),
    ),
  );
}

/** No game yet: said, with the way to start one (the wizard, or the PIN it needs first). */
function noGameBanner(app: App): HTMLElement {
  if (!app.snap) return h('p', { class: 'no-game' }, t('connecting'));
  return h('div', { class: 'no-game' }, h('p', null, t('noGame')), startGameButton(app, 'table'),
    boxPlugged(app) ? h('p', { class: 'hint', 'data-testid': 'no-game-box' }, t('noGameBox')) : null);
}

export function rollView(app: App): HTMLElement {
  return h('div', { class: 'roll-view' },
    alertsView(app),
    h('div', { class: 'roll-top' }, stopwatchView(app), app.state ? h('div', { class: 'roll-planes' }, planesView(app, null, false)) : null),
    rollPanel(app, true),
    gameControls(app),
  );
}
