/**
 * A yes/no question before a step that cannot be taken back. The browser's own dialog, except on a
 * demo station: its screen runs a kiosk browser, where a native dialog looks broken (or is switched
 * off), so the page asks in a dialog of its own.
 */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';

let pending: { text: string; yes: string; answer: (ok: boolean) => void } | null = null;

export function ask(app: App, text: string, yes: string): Promise<boolean> {
  if (!app.kiosk) return Promise.resolve(window.confirm(text));
  return new Promise((resolve) => {
    // a question asked again replaces the one still open, which counts as "no"
    pending?.answer(false);
    pending = {
      text,
      yes,
      answer: (ok) => {
        pending = null;
        resolve(ok);
        app.render(false);
      },
    };
    app.render(false);
    document.querySelector<HTMLElement>('[data-testid="ask-no"]')?.focus();
  });
}

/** The question open, if any (Escape: main.ts). */
export function askOpen(): boolean {
  return pending !== null;
}

export function answerNo(): void {
  pending?.answer(false);
}

export function askOverlay(): HTMLElement | null {
  const open = pending;
  if (!open) return null;
  return h('div', { class: 'overlay ask', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'ask-text', 'data-testid': 'ask' },
    h('div', { class: 'overlay-box' },
      h('p', { id: 'ask-text', class: 'ask-text' }, open.text),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'ask-yes', onclick: () => open.answer(true) }, open.yes),
        h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'ask-no', onclick: () => open.answer(false) }, t('back')))));
}
