/** The turn's controls: draw (or enter) the Japanese card, end the turn, undo, abandon. */
import { skipCost } from '../../../server/games/yorktown1942/skip-cost.ts';
import type { PlaneState } from '../../../server/games/yorktown1942/types.ts';
import type { App } from '../app.ts';
import { ask } from './ask.ts';
import { h, keepOpenState } from '../dom.ts';
import { planeList, t, tk } from '../i18n.ts';
import { cardWords } from './status.ts';
import { SENDS } from '../offline.ts';

/** A card whose id is not in the deck data: the players read its islands, plane and event off the card. */
const other = { a: '1', b: '', plane: 'jake', event: 'none', directHit: false };

function otherCardForm(app: App): HTMLElement {
  const islands = app.rules().board.islands;
  const pick = (name: string, value: string, options: [string, string][], set: (v: string) => void) =>
    h('select', { name, onchange: (e: Event) => set((e.target as HTMLSelectElement).value) }, options.map(([v, l]) => h('option', { value: v, selected: v === value }, l)));
  const islandOptions = islands.map((i): [string, string] => [String(i.id), String(i.id)]);
  const details = h('details', { class: 'other-card', open: app.ui.otherCardOpen },
    h('summary', null, t('otherCard')),
    h('div', { class: 'form-row' },
      h('label', { class: 'field' }, h('span', null, t('island', { n: '' }).trim()), pick('card-island-a', other.a, islandOptions, (v) => { other.a = v; })),
      h('label', { class: 'field' }, h('span', null, '+'), pick('card-island-b', other.b, [['', '—'], ...islandOptions], (v) => { other.b = v; })),
      h('label', { class: 'field' }, h('span', null, t('plane', { n: '' }).trim()), pick('card-plane', other.plane, (['jake', 'kate', 'zeke'] as const).map((p): [string, string] => [p, tk(`jap_${p}`)]), (v) => { other.plane = v; })),
      h('label', { class: 'field' }, h('span', null, t('cardEvent')), pick('card-event', other.event, (['none', 'cap', 'shohoMoves'] as const).map((e): [string, string] => [e, tk(`event_${e}`)]), (v) => { other.event = v; })),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'card-direct', checked: other.directHit, onchange: (e: Event) => { other.directHit = (e.target as HTMLInputElement).checked; } }), ` ${t('directHit')}`),
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'other-card', ...SENDS, onclick: async () => {
        const cardIslands = [Number(other.a), ...(other.b ? [Number(other.b)] : [])];
        // folded once the card is in; opened again if the engine refuses it, so it can be corrected
        app.ui.otherCardOpen = false;
        const reply = await app.send({ type: 'cardDrawn', card: { islands: cardIslands, plane: other.plane, event: other.event, directHit: other.directHit } });
        if (!reply.ok) {
          app.ui.otherCardOpen = true;
          app.render(false);
        }
      } }, t('cardDrawn')),
    ),
  );
  // a state push rebuilds the view: the players' opened form stays open
  keepOpenState(details, (open) => {
    app.ui.otherCardOpen = open;
  });
  return details;
}

function drawCardButton(app: App): HTMLElement {
  return h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'draw-card', ...SENDS, onclick: () => void app.act(() => app.client.command({ type: 'drawCard' }), (reply) => {
    // shown only when a card is to be drawn: refused as out of phase, another screen drew it first (its push may be on its way)
    if (!reply.ok && (reply.error.code === 'wrongPhase' || reply.error.code === 'rollInProgress')) {
      app.showToast(t('cardDrawnElsewhere'), 'ok');
      app.render(false);
    }
  }) }, t('drawCard'));
}

/** The planes that have not acted skip (in the air they spend fuel, and crash without it): asked first, as a click can come too early. */
function endTurnButton(app: App, waiting: PlaneState[]): HTMLElement {
  return h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'end-turn', ...SENDS, onclick: () => {
    if (waiting.length === 0) return void app.send({ type: 'endTurn' });
    const rules = app.rules();
    const crashing = waiting.filter((p) => skipCost(app.state!, rules, p, 'endTurn').crashes).map((p) => p.id);
    const question = t('endTurnConfirm', { planes: planeList(waiting.map((p) => p.id)), fuel: rules.idle.fuelLoss })
      + (crashing.length ? ` ${t('endTurnCrashes', { planes: planeList(crashing) })}` : '');
    void ask(app, question, t('endTurn')).then((ok) => (ok ? app.send({ type: 'endTurn' }) : undefined));
  } }, t('endTurn'));
}

/** The card the players drew from their own deck: picked from the deck's list, or entered by what it shows. */
function cardEntry(app: App): HTMLElement[] {
  const st = app.state!;
  const cards = app.rules().deck;
  // the cards drawn since the deck was last shuffled cannot come up again: listed, but not to be picked
  const drawn = new Set(st.deck.discard.length < cards.length ? st.deck.discard : []);
  // nothing picked until the players pick the card in their hand: a hasty "Card drawn" enters no other card
  if (!cards.some((c) => c.id === app.ui.cardPick && !drawn.has(c.id))) app.ui.cardPick = '';
  // listed as the card reads (its islands first, then its plane), its code last
  const listed = [...cards].sort((a, b) => a.islands[0]! - b.islands[0]! || (a.islands[1] ?? 0) - (b.islands[1] ?? 0) || a.id.localeCompare(b.id));
  const sel = h('select', { name: 'card', 'data-testid': 'card-pick', onchange: (e: Event) => { app.ui.cardPick = (e.target as HTMLSelectElement).value; app.render(false); } },
    h('option', { value: '', selected: app.ui.cardPick === '' }, t('cardPickNone')),
    listed.map((c) => h('option', { value: c.id, selected: c.id === app.ui.cardPick, disabled: drawn.has(c.id) },
      `${cardWords(c)} (${c.id})`,
      drawn.has(c.id) ? ` (${t('cardDrawnAlready')})` : '')));
  return [
    h('div', { class: 'card-pick' },
      h('label', { class: 'field' }, h('span', null, t('cardDrawnPick')), sel),
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'card-drawn', ...SENDS, disabled: app.ui.cardPick === '', onclick: async () => {
        const reply = await app.send({ type: 'cardDrawn', cardId: app.ui.cardPick });
        if (reply.ok) app.ui.cardPick = '';
      } }, t('cardDrawn'))),
    otherCardForm(app),
  ];
}

/** A Japanese card is due: the Japanese phase, or a set-up card still to draw. */
function cardDue(st: NonNullable<App['state']>): boolean {
  return st.phase === 'japanese' || (st.phase === 'setup' && st.setupDraws > 0);
}

/**
 * The turn's next step, for a phone (with the PIN): draw the Japanese card (digital deck) or enter the
 * one drawn (the players' own deck), or end the turn once every plane has acted. Null when the step is
 * something else.
 */
export function turnStepButton(app: App): HTMLElement | null {
  const st = app.state;
  if (!app.snap?.canControl || !st?.setup || st.phase === 'over' || st.roll || st.pendingCard) return null;
  if (cardDue(st)) return st.deck.mode === 'digital' ? drawCardButton(app) : h('div', { class: 'phone-card-entry', 'data-testid': 'phone-card-entry' }, cardEntry(app));
  if (st.phase === 'planes' && st.planes.every((p) => p.destroyed || p.done)) return endTurnButton(app, []);
  return null;
}

export function gameControls(app: App): HTMLElement | null {
  const st = app.state;
  if (!app.snap?.canControl) return null;
  const buttons: HTMLElement[] = [];
  const running = st && st.phase !== 'over' && st.setup;
  if (running && !st.roll && !st.pendingCard) {
    if (cardDue(st)) buttons.push(...(st.deck.mode === 'digital' ? [drawCardButton(app)] : cardEntry(app)));
    if (st.phase === 'planes') {
      buttons.push(endTurnButton(app, st.planes.filter((p) => !p.destroyed && !p.done)));
    }
  }
  // during a roll its panel has the Undo
  // held, saying why, when there is nothing to take back (a game just set up, an empty table)
  const nothing = app.snap.undoable === 0;
  if (!st?.roll) buttons.push(h('button', { type: 'button', class: 'btn', 'data-testid': 'undo', ...SENDS, disabled: nothing, title: nothing ? t('nothingToUndo') : null, onclick: () => void app.send({ type: 'undo' }) }, t('undo')));
  if (running) {
    buttons.push(h('button', { type: 'button', class: 'btn danger small', 'data-testid': 'reset', ...SENDS, onclick: () => {
      void ask(app, t('resetConfirm'), t('reset')).then((ok) => (ok ? app.send({ type: 'resetTable' }) : undefined));
    } }, t('reset')));
  }
  return h('section', { class: 'game-controls' }, buttons);
}

/** No game yet: the way to start one, the wizard, or the PIN it needs first (`where`: the page, for its test ids). */
export function startGameButton(app: App, where: 'table' | 'phone'): HTMLElement {
  return app.snap?.canControl
    ? h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': `${where}-new-game`, onclick: () => app.go('wizard') }, t('newGame'))
    : h('button', { type: 'button', class: 'btn big-btn', 'data-testid': `${where}-unlock`, onclick: () => app.askPin() }, t('unlockToStart'));
}
