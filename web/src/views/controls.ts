/** The turn's controls: draw (or enter) the Japanese card, end the turn, undo, abandon. */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t, tk } from '../i18n.ts';

export function gameControls(app: App): HTMLElement | null {
  const st = app.state;
  if (!app.snap?.canControl) return null;
  const buttons: HTMLElement[] = [];
  const running = st && st.phase !== 'over' && st.setup;
  if (running && !st.roll && !st.pendingCard) {
    const needCard = st.phase === 'japanese' || (st.phase === 'setup' && st.setupDraws > 0);
    if (needCard && st.deck.mode === 'digital') {
      buttons.push(h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'draw-card', onclick: () => void app.send({ type: 'drawCard' }) }, t('drawCard')));
    } else if (needCard) {
      const cards = app.rules().deck;
      if (!cards.some((c) => c.id === app.ui.cardPick)) app.ui.cardPick = cards[0]?.id ?? '';
      const sel = h('select', { name: 'card', 'data-testid': 'card-pick', onchange: (e: Event) => { app.ui.cardPick = (e.target as HTMLSelectElement).value; } },
        cards.map((c) => h('option', { value: c.id, selected: c.id === app.ui.cardPick },
          `${c.id}: ${c.islands.join(' + ')} · ${tk(`jap_${c.plane}`)}${c.directHit ? ` · ${t('directHit')}` : ''}${c.event !== 'none' ? ` · ${tk(`event_${c.event}`)}` : ''}`)));
      buttons.push(h('div', { class: 'card-pick' },
        h('label', { class: 'field' }, h('span', null, t('cardDrawnPick')), sel),
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'card-drawn', onclick: () => void app.send({ type: 'cardDrawn', cardId: app.ui.cardPick }) }, t('cardDrawn'))));
    }
    if (st.phase === 'planes') {
      buttons.push(h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'end-turn', onclick: () => void app.send({ type: 'endTurn' }) }, t('endTurn')));
    }
  }
  buttons.push(h('button', { type: 'button', class: 'btn', 'data-testid': 'undo', onclick: () => void app.send({ type: 'undo' }) }, t('undo')));
  if (running) {
    buttons.push(h('button', { type: 'button', class: 'btn danger', 'data-testid': 'reset', onclick: () => {
      if (confirm(t('resetConfirm'))) void app.send({ type: 'resetTable' });
    } }, t('reset')));
  }
  return h('section', { class: 'game-controls' }, buttons);
}
