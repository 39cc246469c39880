/**
 * The Dice photos page's "Teach the camera these dice": which dice model the camera reads with, a
 * button that teaches it the saved photos on the service (server/http/model-routes.ts; minutes, in the
 * background), its progress and how it ended, and going back to the base model or to the taught one.
 * The status lives in `app.ui.samples.model`; while a teaching runs it is asked again every 2 s.
 */
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { modelText, shareText } from '../format.ts';
import { t, tk } from '../i18n.ts';
import { problemText } from '../refusals.ts';
import type { ModelStatus, Reply } from '../types.ts';

const POLL_MS = 2000;
const STAGES = ['check', 'table', 'other dice', 'real', 'detector', 'classifier'];
let poll: ReturnType<typeof setTimeout> | null = null;


function took(app: App, reply: Reply<ModelStatus>): void {
  const ui = app.ui.samples;
  if (reply.ok) {
    ui.model = reply.data;
    ui.modelError = null;
  } else {
    ui.modelError = reply.error;
    if (reply.error.code === 'pinRequired') app.ui.pinOpen = true;
  }
  if (poll) clearTimeout(poll);
  poll = null;
  if (ui.model?.teaching.state === 'teaching') {
    poll = setTimeout(() => {
      poll = null;
      void app.client.diceModel().then((r) => took(app, r));
    }, POLL_MS);
  }
  if (app.view === 'samples') app.render(false);
}

/** Asks once per connection which model is read (and follows a teaching already running). */
export function askModel(app: App): void {
  const ui = app.ui.samples;
  if (ui.modelAsked || !app.snap?.canControl) return;
  ui.modelAsked = true;
  void app.client.diceModel().then((r) => took(app, r));
}

async function act(app: App, ask: () => Promise<Reply<ModelStatus>>): Promise<void> {
  const ui = app.ui.samples;
  if (ui.modelBusy) return;
  ui.modelBusy = true;
  ui.modelError = null;
  app.render(false);
  const reply = await ask();
  ui.modelBusy = false;
  took(app, reply);
}

function stageText(stage: string): string {
  return tk(`teachStage_${STAGES.includes(stage) ? stage.split(' ')[0] : 'check'}`);
}

function endedView(m: ModelStatus): HTMLElement | null {
  const run = m.teaching;
  switch (run.state) {
    case 'taught': {
      const figures = run.before && run.after
        ? { before: shareText(run.before.faceAccuracy), after: shareText(run.after.faceAccuracy), recallBefore: shareText(run.before.recall), recallAfter: shareText(run.after.recall), checked: run.after.photos }
        : null;
      // what the camera reads with now: the taught model may have been set aside since
      const since = m.taught?.inUse === false ? t('teachNoLongerInUse', { model: modelText(m.reading?.model ?? m.base.model) }) : t('teachInUse');
      const text = !run.written
        ? t('teachNotBetter', { before: figures?.before ?? '–', after: figures?.after ?? '–' })
        : `${figures ? t('teachTaught', { photos: run.photos, taught: run.taught, ...figures }) : t('teachTaughtUnchecked', { photos: run.photos, taught: run.taught })} ${since}`;
      return h('div', null,
        h('p', { class: run.written ? 'hint saved' : 'hint waiting', 'data-testid': 'teach-result', 'data-written': String(run.written) }, text),
        run.leftOut.length ? h('p', { class: 'hint waiting' }, t('teachLeftOut', { list: run.leftOut.join(', ') })) : null);
    }
    case 'failed':
      return h('p', { class: 'form-error', role: 'alert', 'data-testid': 'teach-result' }, t('teachFailed', { message: run.message }));
    case 'cancelled':
      return h('p', { class: 'hint', 'data-testid': 'teach-result' }, t('teachCancelled'));
    default:
      return null;
  }
}

/** The check a taught model passed when it was taught (the teaching itself is no longer in the service's memory). */
function keptCheckView(check: NonNullable<NonNullable<ModelStatus['taught']>['check']>): HTMLElement {
  return h('p', { class: 'hint', 'data-testid': 'teach-kept-check' }, t('teachKeptCheck', {
    checked: check.after.photos, before: shareText(check.before.faceAccuracy), after: shareText(check.after.faceAccuracy), recallBefore: shareText(check.before.recall), recallAfter: shareText(check.after.recall),
  }));
}

/** The model section of the Dice photos page; `saved` is how many photos the folder holds. */
export function teachView(app: App, saved: number | null): HTMLElement {
  const ui = app.ui.samples;
  const m = ui.model;
  const running = m?.teaching.state === 'teaching' ? m.teaching : null;
  const enough = saved !== null && m !== null && saved >= m.minPhotos;
  const problem = ui.modelError ? { code: ui.modelError.code, ...problemText(ui.modelError) } : null;
  return h('section', { class: 'teach', 'data-testid': 'teach' },
    h('h3', null, t('teachTitle')),
    m?.reading ? h('p', { 'data-testid': 'teach-reading', 'data-kind': m.reading.kind }, t(m.reading.kind === 'taught' ? 'teachReadingTaught' : 'teachReading', { model: modelText(m.reading.model) })) : null,
    h('p', { class: 'hint' }, t('teachWhy')),
    running
      ? h('div', { class: 'teach-running', role: 'status', 'data-testid': 'teach-running' },
          h('span', null, t('teachRunning', { stage: stageText(running.stage), minutes: Math.max(0, Math.floor((app.now() - Date.parse(running.startedAt)) / 60_000)) })),
          ' ',
          running.total > 0 ? h('progress', { max: running.total, value: running.done, 'aria-label': stageText(running.stage) }) : null,
          ' ',
          h('button', { type: 'button', class: 'btn small', 'data-testid': 'teach-stop', disabled: ui.modelBusy, onclick: () => void act(app, () => app.client.stopTeaching()) }, t('teachStop')))
      : h('div', { class: 'row' },
          h('button', { type: 'button', class: 'btn primary', 'data-testid': 'teach-start', disabled: ui.modelBusy || !enough, onclick: () => void act(app, () => app.client.teachDiceModel()) }, t('teachButton')),
          m && !enough ? h('span', { class: 'hint', 'data-testid': 'teach-need' }, t('teachNeedPhotos', { n: m.minPhotos })) : null),
    m ? endedView(m) : null,
    m?.taught?.check && m.teaching.state === 'idle' ? keptCheckView(m.taught.check) : null,
    m?.taught && !running
      ? h('p', { class: 'row' },
          m.taught.inUse
            ? h('button', { type: 'button', class: 'btn', 'data-testid': 'teach-use-base', disabled: ui.modelBusy, onclick: () => void act(app, () => app.client.useDiceModel('base')) }, t('teachUseBase', { model: modelText(m.base.model) }))
            : [h('span', { class: 'hint' }, t('teachSetAside', { model: modelText(m.taught.model) }), ' '),
               h('button', { type: 'button', class: 'btn', 'data-testid': 'teach-use-taught', disabled: ui.modelBusy, onclick: () => void act(app, () => app.client.useDiceModel('taught')) }, t('teachUseTaught'))])
      : null,
    m?.pinned ? h('p', { class: 'hint' }, t('teachPinned', { folder: m.base.folder })) : null,
    m?.problem ? h('p', { class: 'hint waiting' }, m.problem) : null,
    problem ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'teach-error', 'data-code': problem.code }, problem.text, problem.detail ? h('span', { class: 'toast-detail' }, problem.detail) : null) : null,
  );
}
