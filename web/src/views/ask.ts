/**
 * A yes/no question before a step that cannot be taken back, in a dialog of the page's own: the
 * browser's would stop the page while open (the stopwatch, the other players' moves and the camera
 * frozen on the table screen and the phones), looks broken in a demo station's kiosk browser (or is
 * switched off there) and has small buttons on a phone. The question goes (as a "no") when what it
 * was about has moved on: another page, another game, turn or phase.
 */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { SENDS } from '../offline.ts';

interface Question {
  text: string;
  yes: string;
  /** the page and game it was asked on */
  about: string;
  /** the control focused when it was asked, to give the focus back to */
  from: string | null;
  node: HTMLElement | null;
  answer: (ok: boolean) => void;
}

let pending: Question | null = null;

function aboutNow(app: App): string {
  const st = app.state;
  return `${app.view}|${st?.startedAt ?? ''}|${st?.turn ?? ''}|${st?.phase ?? ''}|${app.snap?.attract === true}`;
}

export function ask(app: App, text: string, yes: string): Promise<boolean> {
  return new Promise((resolve) => {
    // a question asked again replaces the one still open, which counts as "no"
    pending?.answer(false);
    const question: Question = {
      text,
      yes,
      about: aboutNow(app),
      from: (document.activeElement as HTMLElement | null)?.dataset?.testid ?? null,
      node: null,
      answer: (ok) => {
        if (pending !== question) return;
        pending = null;
        resolve(ok);
        app.render(false);
        if (question.from) document.querySelector<HTMLElement>(`[data-testid="${question.from}"]`)?.focus();
      },
    };
    pending = question;
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

export function askOverlay(app: App): HTMLElement | null {
  const open = pending;
  if (!open) return null;
  if (open.about !== aboutNow(app)) {
    // the game moved on meanwhile (the idle reset, the box, another screen): the question is void
    queueMicrotask(() => open.answer(false));
    return null;
  }
  // the same element through state pushes: its focus and a press on it survive them
  open.node ??= h('div', { class: 'overlay ask', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'ask-text', 'data-testid': 'ask', onclick: (e: Event) => {
    // a tap beside the question is a "no"
    if (e.target === e.currentTarget) open.answer(false);
  } },
    h('div', { class: 'overlay-box' },
      h('p', { id: 'ask-text', class: 'ask-text' }, open.text),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'ask-yes', ...SENDS, onclick: () => open.answer(true) }, open.yes),
        h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'ask-no', onclick: () => open.answer(false) }, t('back')))));
  return open.node;
}
