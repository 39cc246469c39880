/** The table display's big figures: stopwatch, hits, search track, CAP, the last Japanese card, alerts. */
import { spottedChain } from '../../../server/games/yorktown1942/board.ts';
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { clockLevel, clockText, searchBonus } from '../format.ts';
import { diceText, planeList, t, tk, type Key } from '../i18n.ts';
import { describeEvent } from '../events.ts';

/** The physical deck's set-up cards are being placed: the stopwatch waits, showing the whole time. */
function stopwatchWaits(app: App): boolean {
  const st = app.state;
  return !!st && st.deadline === null && st.setup !== null && st.phase === 'setup' && st.minutes > 0;
}

export function remainingMs(app: App): number | null {
  const st = app.state;
  if (st && stopwatchWaits(app)) return st.minutes * 60_000;
  if (!st || st.deadline === null) return null;
  if (st.phase === 'over' && st.outcome) return Math.max(0, st.deadline - st.outcome.at);
  return st.deadline - app.now();
}

export function stopwatchView(app: App): HTMLElement {
  const ms = remainingMs(app);
  const level = ms === null ? 'idle' : clockLevel(ms);
  return h('section', { class: `stopwatch level-${level}`, 'aria-label': t('timeLeft') },
    h('div', { class: 'label' }, ms !== null && ms <= 0 ? t('timeUp') : stopwatchWaits(app) ? t('clockAfterSetup') : t('timeLeft')),
    h('div', { class: 'stopwatch-time', id: 'stopwatch-time', 'aria-live': 'off' }, ms === null ? '--:--' : clockText(ms)),
  );
}

/** Updates the stopwatch in place (called every 250 ms); returns the remaining time. */
export function tickStopwatch(app: App): number | null {
  const ms = remainingMs(app);
  const el = document.getElementById('stopwatch-time');
  if (el && ms !== null) {
    const text = clockText(ms);
    if (el.textContent !== text) el.textContent = text;
    const box = el.parentElement;
    const level = `stopwatch level-${clockLevel(ms)}`;
    if (box && box.className !== level) box.className = level;
  }
  return ms;
}

function track(label: string, value: number, max: number, cls: string, marks: Map<number, string> = new Map()): HTMLElement {
  const cells: HTMLElement[] = [];
  for (let i = 0; i <= max; i++) {
    const mark = marks.get(i);
    cells.push(h('span', { class: `cell${i === value ? ' current' : ''}${i < value ? ' passed' : ''}${mark ? ' milestone' : ''}`, title: mark ?? null }, i));
  }
  return h('div', { class: `track ${cls}` },
    h('div', { class: 'track-head' }, h('span', { class: 'track-label' }, label), h('span', { class: 'track-value', 'data-testid': cls }, `${value} / ${max}`)),
    h('div', { class: 'cells' }, cells),
  );
}

export function countersView(app: App): HTMLElement {
  const st = app.state;
  const rules = app.rules();
  const search = st?.search ?? 0;
  const located = search >= rules.search.locatedAt;
  const bonus = searchBonus(rules, search);
  const marks = new Map<number, string>([[rules.search.locatedAt, t('searchLocated')]]);
  for (const b of rules.search.attackBonus) if (b.dice > 0) marks.set(b.from, (b.dice === 1 ? t('searchBonus', { n: 1 }) : t('searchBonusPlural', { n: b.dice })));
  const bonuses = rules.search.attackBonus.filter((b) => b.dice > 0);
  const cap = st?.cap ?? 0;
  const chain = st ? spottedChain(rules.board, st.islands) !== null : false;
  return h('section', { class: 'counters' },
    track(t('yorktownHits'), st?.yorktownHits ?? 0, rules.yorktown.hitsToSink, 'yorktown-hits'),
    track(t('shohoHits'), st?.shohoHits ?? 0, rules.shoho.hitsToSink, 'shoho-hits'),
    track(t('search'), search, rules.search.max, 'search', marks),
    h('div', { class: `search-status${located ? ' located' : ''}` },
      located ? t('searchLocated') : t('searchNotLocated', { n: rules.search.locatedAt }),
      bonus > 0 ? h('strong', null, ' · ', bonus === 1 ? t('searchBonus', { n: 1 }) : t('searchBonusPlural', { n: bonus })) : null,
    ),
    h('div', { class: 'search-unlocks' },
      t('searchUnlocks', { a: rules.search.locatedAt, b: bonuses[0]?.from ?? '-', c: bonuses[1]?.from ?? '-' }),
    ),
    h('div', { class: 'cap-row' },
      h('span', { class: 'track-label' }, t('cap')),
      h('span', { class: 'cap-boxes' }, Array.from({ length: rules.cap.spaces }, (_, i) => h('span', { class: `cap-box${i < cap ? ' filled' : ''}` }, i < cap ? 'Z' : ''))),
      h('span', { class: 'track-value', 'data-testid': 'cap' }, `${cap} / ${rules.cap.spaces}`),
      cap > 0 ? h('span', { class: 'hint' }, t('capHint', { dice: diceText(cap * rules.cap.dicePenaltyPerFighter) })) : null,
    ),
    h('div', { class: 'meta' },
      st && st.phase !== 'setup' ? h('span', { class: 'turn' }, t('turn', { n: st.turn })) : null,
      st ? h('span', { class: `phase phase-${st.phase}`, 'data-testid': 'phase' }, tk(`phase_${st.phase}`)) : null,
      h('span', { class: `spot${st?.spotted ? ' on' : chain ? ' warn' : ''}`, 'data-testid': 'spotted' }, st?.spotted ? t('spotted') : chain ? t('chainWarning') : t('notSpotted')),
    ),
  );
}

/** The Japanese card the table shows: the one being placed, else the last drawn. */
export function shownCard(app: App) {
  return app.state?.pendingCard?.card ?? app.state?.lastCard ?? null;
}

/** A Japanese card as it reads: its islands, its plane, then Direct Hit and its event when it has them. */
export function cardWords(card: { islands: readonly number[]; plane: string; directHit?: boolean; event: string }): string {
  return [card.islands.join(' + '), tk(`jap_${card.plane}`), ...(card.directHit ? [t('directHit')] : []), ...(card.event !== 'none' ? [tk(`event_${card.event}`)] : [])].join(' · ');
}

/**
 * A new card is due (the Japanese phase, no card drawn yet): the one shown is the last turn's (or the
 * set-up's), not this turn's. A card drawn whose Yorktown attack is being rolled is this turn's.
 */
export function cardIsPast(app: App): boolean {
  const st = app.state;
  return st?.phase === 'japanese' && !st.pendingCard && !st.roll;
}

/** A Direct Hit card drawn while the Yorktown was not spotted does nothing of the kind: said, so that nobody counts a hit. */
export function directHitMissed(app: App, card: { directHit?: boolean }): boolean {
  // a set-up card only places its planes: no Direct Hit was to be had
  return !!card.directHit && !cardIsPast(app) && app.state?.phase !== 'setup' && app.state?.spotted === false;
}

export function cardView(app: App): HTMLElement {
  const card = shownCard(app);
  if (!card) return h('section', { class: 'card empty' }, h('div', { class: 'label' }, t('lastCard')), h('p', null, t('noCard')));
  const past = cardIsPast(app);
  return h('section', { class: `card jap-card plane-${card.plane}${card.directHit ? ' direct-hit' : ''}${past ? ' past' : ''}`, 'data-testid': 'last-card' },
    h('div', { class: 'label' }, past ? t('previousCard') : t('lastCard'), h('span', { class: 'card-id' }, card.id)),
    card.directHit ? h('div', { class: 'direct' }, t('directHit')) : null,
    directHitMissed(app, card) ? h('div', { class: 'card-note', 'data-testid': 'direct-hit-missed' }, t('directHitNoEffect')) : null,
    h('div', { class: 'card-islands' }, card.islands.map((i) => h('span', { class: 'card-island' }, i))),
    h('div', { class: 'card-plane' }, tk(`jap_${card.plane}`)),
    h('div', { class: 'card-event' }, tk(`event_${card.event}`)),
  );
}

/** Headlines in the chosen language for the alert codes the service uses; its own words follow. */
const ALERT_HEADLINES: Record<string, Key> = {
  cameraProblem: 'alertCameraLost',
  boxProblem: 'alertBoxLost',
  dbUnavailable: 'alertStorage',
  dbReadOnly: 'alertStorage',
  diskFull: 'alertStorage',
  dbIoError: 'alertStorage',
  dbError: 'alertStorage',
  journalSkipped: 'alertRestored',
};

export function alertsView(app: App): HTMLElement | null {
  const snap = app.snap;
  if (!snap) return null;
  const items: HTMLElement[] = [];
  if (!app.connected) items.push(h('li', { class: 'alert', 'data-testid': 'offline' }, t('disconnected')));
  const cameraAlert = snap.alerts.some((a) => a.code === 'cameraProblem');
  if (!cameraAlert && snap.manualDice && snap.hardware.camera.kind !== 'none' && snap.hardware.camera.state !== 'off') {
    items.push(h('li', { class: 'alert', 'data-code': 'manualDice' }, t('alertCameraLost')));
  }
  for (const a of snap.alerts) {
    const headline = ALERT_HEADLINES[a.code] ?? null;
    items.push(h('li', { class: 'alert', 'data-code': a.code },
      headline ? [t(headline), h('span', { class: 'alert-detail' }, a.message)] : a.message));
  }
  if (!items.length) return null;
  return h('section', { class: 'alerts', role: 'alert', 'aria-label': t('alerts') }, h('ul', null, items));
}

/** the longer list a short one opens to (a phone's: the other phones' moves scroll by fast) */
const HISTORY_LONG = 20;

/** The last events in words, newest first; with `longer`, a button that shows the longer list (or the short one again). */
export function historyView(app: App, limit: number, longer?: { shown: boolean; toggle: () => void }): HTMLElement | null {
  const rules = app.rules();
  const wanted = longer?.shown ? HISTORY_LONG : limit;
  const lines: { seq: number; text: string }[] = [];
  // one line more than shown: whether there is more to show
  for (let i = app.history.length - 1; i >= 0 && lines.length <= wanted; i--) {
    const x = app.history[i]!;
    const text = describeEvent(x.event, rules);
    if (text) lines.push({ seq: x.seq, text });
  }
  if (!lines.length) return null;
  const more = lines.length > wanted;
  const shown = lines.slice(0, wanted);
  const newest = shown[0]!.seq;
  return h('section', { class: 'history', 'aria-label': t('happened'), 'data-testid': 'history' },
    h('h2', null, t('happened')),
    h('ol', null, shown.map((l) => h('li', { class: l.seq === newest ? 'new' : '' }, l.text))),
    longer && (longer.shown || more)
      ? h('button', { type: 'button', class: 'btn small', 'data-testid': 'history-longer', 'aria-expanded': longer.shown ? 'true' : 'false', onclick: longer.toggle }, longer.shown ? t('historyFewer') : t('historyMore'))
      : null,
  );
}

/** What the players do now, in one line: the turn's steps for a newcomer; with a button box plugged in, its buttons for it too. */
export function nextStep(app: App): string | null {
  const step = stepNow(app);
  if (!step) return null;
  return boxPlugged(app) && step.box ? `${step.text} ${t(step.box)}` : step.text;
}

/** A real button box is plugged in and answering: the screens say its buttons too. */
export function boxPlugged(app: App): boolean {
  const box = app.snap?.hardware.serial;
  return box?.kind === 'real' && box.state === 'ok';
}

function stepNow(app: App): { text: string; box: Key | null } | null {
  const st = app.state;
  if (!st || !st.setup || st.phase === 'over') return null;
  if (st.roll) {
    // on a phone, another seat's roll is theirs to throw
    const roller = st.planes.find((p) => p.id === st.roll!.plane);
    if (app.view === 'phone' && app.seat !== null && roller && roller.seat !== app.seat) {
      return { text: t('step_rollOther', { plane: roller.id, seat: roller.seat, purpose: tk(`purpose_${st.roll.purpose}`) }), box: null };
    }
    return { text: st.roll.tracker.spec.continuous ? t('step_roll', { n: st.roll.tracker.spec.dice }) : t('step_rollSingle', { n: st.roll.tracker.spec.dice }), box: 'boxStep_confirm' };
  }
  if (st.phase === 'setup') return { text: t('step_setup', { n: st.setupDraws }), box: st.deck.mode === 'digital' ? 'boxStep_draw' : null };
  if (st.phase === 'japanese') return st.deck.mode === 'digital' ? { text: t('step_japanese'), box: 'boxStep_draw' } : { text: t('step_japanesePhysical'), box: null };
  const flying = st.planes.filter((p) => !p.destroyed);
  const unchosen = flying.filter((p) => p.action === null);
  if (unchosen.length) return { text: t('step_choose', { planes: planeList(unchosen.map((p) => p.id)) }), box: 'boxStep_choose' };
  const waiting = flying.filter((p) => !p.done);
  if (waiting.length) return { text: t('step_act', { planes: planeList(waiting.map((p) => p.id)) }), box: 'boxStep_act' };
  return { text: t('step_endTurn'), box: 'boxStep_confirm' };
}

export function nextStepView(app: App): HTMLElement | null {
  const text = nextStep(app);
  return text ? h('p', { class: 'next-step', 'data-testid': 'next-step', role: 'status' }, text) : null;
}
