/**
 * A demo station about to clear a game nobody has touched (the service's `resetAt`): "Still playing?"
 * with the seconds left, over the whole screen; a tap keeps the game (`POST …/still-here`). The end
 * screen's "clears itself in N s" and this countdown are kept live by `tickResetCountdowns`.
 */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { SENDS } from '../offline.ts';

function secondsLeft(app: App, at: number): number {
  return Math.max(0, Math.ceil((at - app.now()) / 1000));
}

/** Whether a visitor's game is about to be cleared for want of play. */
function warningDue(app: App): boolean {
  const from = app.snap?.resetWarnAt;
  const st = app.state;
  // the station's own screen: an owner's page elsewhere is not covered, nor a game kept alive from it
  return app.kiosk && typeof from === 'number' && typeof app.snap?.resetAt === 'number' && !!st && st.phase !== 'over' && app.snap?.attract !== true && app.now() >= from;
}

/** A countdown to the reset, kept live (its text says the seconds left). */
export function resetCountdown(app: App, key: 'resetWarningIn' | 'endClearsIn', at: number): HTMLElement {
  return h('p', { class: 'reset-countdown', 'data-testid': key === 'resetWarningIn' ? 'reset-countdown' : 'end-reset', 'data-reset-at': at, 'data-key': key }, t(key, { s: secondsLeft(app, at) }));
}

export function resetWarning(app: App): HTMLElement | null {
  if (!warningDue(app)) return null;
  const keep = () => void app.act(() => app.client.stillHere());
  return h('div', { class: 'overlay reset-warning', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'reset-title', 'data-testid': 'reset-warning', onclick: keep },
    h('div', { class: 'overlay-box' },
      h('h1', { id: 'reset-title' }, t('stillPlaying')),
      resetCountdown(app, 'resetWarningIn', app.snap!.resetAt!),
      h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'still-here', ...SENDS }, t('keepPlaying'))));
}

let shown = false;

/** Called a few times a second: the countdowns' seconds, and the warning shown or taken away when due. */
export function tickResetCountdowns(app: App): void {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-reset-at]'))) {
    const text = t(el.dataset.key as 'resetWarningIn' | 'endClearsIn', { s: secondsLeft(app, Number(el.dataset.resetAt)) });
    if (el.textContent !== text) el.textContent = text;
  }
  const due = warningDue(app);
  if (due !== shown) {
    shown = due;
    app.render(false);
    if (due) document.querySelector<HTMLElement>('[data-testid="still-here"]')?.focus();
  }
}
