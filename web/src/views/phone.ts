/** A player's phone: the stopwatch, their planes and action choice, the roll when it is theirs. */
import type { App } from '../app.ts';
import { h, keepOpenState } from '../dom.ts';
import { spottedChain } from '../../../server/games/yorktown1942/board.ts';
import { t } from '../i18n.ts';
import { undoneWords } from '../news.ts';
import { ask } from './ask.ts';
import { boardView } from './board.ts';
import { startGameButton, turnStepButton } from './controls.ts';
import { planesView } from './planes.ts';
import { rollPanel } from './roll.ts';
import { alertsView, cardIsPast, cardWords, directHitMissed, countersView, historyView, nextStepView, shownCard, stopwatchView } from './status.ts';
import { SENDS } from '../offline.ts';

export function phoneView(app: App): HTMLElement {
  const st = app.state;
  const seats = Array.from({ length: st?.setup?.players ?? 4 }, (_, i) => i + 1);
  const picker = h('div', { class: 'seat-picker', role: 'group', 'aria-label': t('phonePickSeat') },
    seats.map((n) => h('button', { type: 'button', class: `choice${app.seat === n ? ' selected' : ''}`, 'data-testid': `seat-${n}`, onclick: () => {
      app.seat = n;
      app.go('phone');
    } }, t('seat', { n }))));
  if (app.seat === null) return h('section', { class: 'phone' }, h('h2', null, t('phonePickSeat')), picker);
  const mine = st?.planes.filter((p) => p.seat === app.seat) ?? [];
  // the Japanese attack on the Yorktown is no plane's: any phone may throw it
  const rollIsMine = !!st?.roll && (st.roll.plane === null || mine.some((p) => p.id === st.roll!.plane));
  return h('section', { class: 'phone' },
    alertsView(app),
    h('div', { class: 'phone-top' }, h('h2', null, t('phoneTitle', { n: app.seat })), stopwatchView(app)),
    st?.setup ? glanceView(app) : null,
    nextStepView(app),
    cardLine(app),
    h('div', { class: 'phone-steps' }, turnStepButton(app), undoButton(app)),
    // their roll above their planes (whose cards have no controls during it): its figures, and on a narrow
    // screen its bar of buttons kept at the screen's foot (styles.css), in reach without scrolling
    rollIsMine ? rollPanel(app, false) : null,
    mine.length ? planesView(app, app.seat, true) : st?.setup ? h('p', null, t('phoneNoPlanes')) : noGame(app),
    st?.setup ? boardAndCounters(app) : null,
    historyView(app, 4, { shown: app.ui.phoneHistoryLong, toggle: () => { app.ui.phoneHistoryLong = !app.ui.phoneHistoryLong; app.render(false); } }),
    picker,
  );
}

/**
 * The game at a glance, always in view (the board and its counters are folded below): the hits on each
 * carrier, the search, the CAP, and the danger of the turn: the Yorktown spotted or about to be, or
 * under attack now.
 */
function glanceView(app: App): HTMLElement {
  const st = app.state!;
  const rules = app.rules();
  const chain = spottedChain(rules.board, st.islands) !== null;
  const attacked = st.roll?.purpose === 'yorktownAttack';
  const danger = attacked ? t('glanceAttacked') : st.spotted ? t('spotted') : chain ? t('chainWarning') : null;
  const chip = (text: string, testid: string, warn = false) => h('span', { class: `glance-chip${warn ? ' warn' : ''}`, 'data-testid': testid }, text);
  return h('div', { class: 'phone-glance', 'data-testid': 'phone-glance' },
    h('div', { class: 'glance-chips' },
      chip(t('glanceYorktown', { n: st.yorktownHits, max: rules.yorktown.hitsToSink }), 'glance-yorktown', st.yorktownHits >= rules.yorktown.hitsToSink - 1),
      chip(t('glanceShoho', { n: st.shohoHits, max: rules.shoho.hitsToSink }), 'glance-shoho'),
      chip(t('glanceSearch', { n: st.search }), 'glance-search'),
      chip(t('glanceCap', { n: st.cap }), 'glance-cap')),
    danger ? h('p', { class: `glance-danger${attacked || st.spotted ? ' on' : ''}`, role: 'status', 'data-testid': 'glance-danger' }, danger) : null,
  );
}

/** No game yet: said, and (with the PIN) a game set up from here; the wizard comes back to this phone. */
function noGame(app: App): HTMLElement {
  return h('div', { class: 'phone-no-game' },
    h('p', null, app.snap ? t('noGame') : t('connecting')),
    !app.snap || app.kiosk ? null : startGameButton(app, 'phone'));
}

/**
 * Undo on the phone too (a roll's panel has its own): a tap in the wrong place is taken back where it was made.
 * The last move being another seat's plane's, the phone asks first, naming it; the other pages are told
 * which seat undid it (the command's `seat`).
 */
function undoButton(app: App): HTMLElement | null {
  const st = app.state;
  if (!app.snap?.canControl || !st?.setup || st.roll || app.snap.undoable === 0 || app.snap.attract) return null;
  const undo = async () => {
    const next = app.snap?.undoNext;
    const owner = typeof next?.piece === 'number' ? app.seatOf(next.piece) : null;
    if (next && owner !== null && owner !== app.seat) {
      if (!(await ask(app, t('undoOtherAsk', { what: undoneWords(next, app.seatOf) }), t('undoOtherYes')))) return;
      // play may have gone on while the question was open: the service takes back that move or none (`undoMoved`)
      await app.send({ type: 'undo', seat: app.seat!, seq: next.seq });
      return;
    }
    await app.send(app.seat === null ? { type: 'undo' } : { type: 'undo', seat: app.seat });
  };
  return h('button', { type: 'button', class: 'btn', 'data-testid': 'phone-undo', ...SENDS, onclick: () => void undo() }, t('undo'));
}

/** The board and the counters, folded: the players have the real board in front of them, a phone a glance at it. */
function boardAndCounters(app: App): HTMLElement {
  const details = h('details', { class: 'phone-board', 'data-testid': 'phone-board', open: app.ui.phoneBoardOpen },
    h('summary', null, t('phoneBoard')),
    countersView(app),
    boardView(app),
  ) as HTMLDetailsElement;
  // a state push rebuilds the view: the board opened stays open
  keepOpenState(details, (open) => {
    app.ui.phoneBoardOpen = open;
  });
  return details;
}

/** The Japanese card of this turn in one line: the players at the far end of the table may not read it. */
function cardLine(app: App): HTMLElement | null {
  const card = shownCard(app);
  if (!card || !app.state?.setup) return null;
  const past = cardIsPast(app);
  return h('p', { class: `phone-card${past ? ' past' : ''}`, 'data-testid': 'phone-card' }, h('span', { class: 'label' }, `${past ? t('previousCard') : t('lastCard')}: `), cardWords(card),
    directHitMissed(app, card) ? h('span', { class: 'card-note', 'data-testid': 'direct-hit-missed' }, ` (${t('directHitNoEffect')})`) : null);
}
