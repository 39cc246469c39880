/** The plane the button box has selected (the snapshot's `box.selected`), marked on its plane card with what Confirm would do (`box.shown`). */
import type { App } from '../app.ts';
import { noteKeyWords } from '../box-news.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';

/** Marks a plane card when the box has that plane selected: class `box-selected`, a "selected on the box" tag in its header, and the move the box shows. */
export function markBoxSelected(app: App, card: HTMLElement, plane: number): void {
  // the box's lights are all off in set-up and once the game is over: its selection means nothing then either
  const phase = app.state?.phase;
  if (app.snap?.box?.selected !== plane || phase === undefined || phase === 'setup' || phase === 'over') return;
  card.classList.add('box-selected');
  card.dataset.boxSelected = 'true';
  const tag = h('span', { class: 'box-selected-tag', 'data-testid': `box-selected-${plane}` }, t('boxSelectedTag'));
  (card.querySelector('header') ?? card).append(tag);
  const shown = app.snap.box.shown;
  if (shown) card.append(h('p', { class: 'box-shown', 'data-testid': `box-shown-${plane}` }, `${t('boxShownLead')} ${noteKeyWords(shown.key, shown.params, shown.text)}`));
}
