/** The plane the button box has selected (the snapshot's `box.selected`), marked on its plane card. */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';

/** Marks a plane card when the box has that plane selected: class `box-selected` and a "selected on the box" tag in its header. */
export function markBoxSelected(app: App, card: HTMLElement, plane: number): void {
  // the box's lights are all off in set-up and once the game is over: its selection means nothing then either
  const phase = app.state?.phase;
  if (app.snap?.box?.selected !== plane || phase === undefined || phase === 'setup' || phase === 'over') return;
  card.classList.add('box-selected');
  card.dataset.boxSelected = 'true';
  const tag = h('span', { class: 'box-selected-tag', 'data-testid': `box-selected-${plane}` }, t('boxSelectedTag'));
  (card.querySelector('header') ?? card).append(tag);
}
