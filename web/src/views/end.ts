/** The end screen: victory or defeat, its cause, the game's time and figures. */
import type { App, View } from '../app.ts';
import { h } from '../dom.ts';
import { durationText } from '../format.ts';
import { t, tk } from '../i18n.ts';
import { playNow } from './kiosk.ts';
import { resetCountdown } from './reset-warning.ts';
import { boxPlugged } from './status.ts';
import { SENDS } from '../offline.ts';

const PLAY_PAGES: View[] = ['table', 'roll', 'phone', 'kiosk'];

export function endOverlay(app: App): HTMLElement | null {
  const st = app.state;
  const outcome = st?.outcome;
  if (!st || st.phase !== 'over' || !outcome) return null;
  // shown over the pages of play, not over the set-up of the next game or the owner's pages
  if (!PLAY_PAGES.includes(app.view)) return null;
  // a demo station's own game ends on its board, the banner inviting to play: no verdict over the counter
  if (app.ui.endDismissedFor === outcome.at || app.snap?.attract) return null;
  const resetAt = app.snap?.resetAt;
  const duration = st.startedAt !== null ? outcome.at - st.startedAt : null;
  const lost = st.planes.filter((p) => p.destroyed).length;
  const skill = st.planes.reduce((sum, p) => sum + p.skill, 0);
  return h('div', { class: `overlay end-screen ${outcome.result}`, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'end-title', 'data-testid': 'end-screen' },
    h('div', { class: 'overlay-box' },
      h('h1', { id: 'end-title', class: 'end-title' }, outcome.result === 'won' ? t('won') : t('lost')),
      h('p', { class: 'end-cause' }, tk(`cause_${outcome.cause}`)),
      h('dl', { class: 'end-stats' },
        duration !== null ? h('div', null, h('dt', null, t('duration')), h('dd', null, durationText(duration))) : null,
        h('div', null, h('dt', null, t('turns')), h('dd', null, st.turn)),
        h('div', null, h('dt', null, t('shohoHits')), h('dd', null, `${st.shohoHits} / ${app.rules().shoho.hitsToSink}`)),
        h('div', null, h('dt', null, t('yorktownHits')), h('dd', null, `${st.yorktownHits} / ${app.rules().yorktown.hitsToSink}`)),
        h('div', null, h('dt', null, t('search')), h('dd', null, st.search)),
        h('div', null, h('dt', null, t('japaneseDown')), h('dd', { 'data-testid': 'end-japanese-down' }, st.japaneseDestroyed)),
        h('div', null, h('dt', null, t('planesLost')), h('dd', { 'data-testid': 'end-planes-lost' }, lost)),
        h('div', null, h('dt', null, t('totalSkill')), h('dd', null, skill)),
      ),
      typeof resetAt === 'number' ? resetCountdown(app, 'endClearsIn', resetAt) : null,
      // players at a button box play on from it
      boxPlugged(app) ? h('p', { class: 'hint', 'data-testid': 'end-box' }, t(outcome.cause === 'time' ? 'boxStep_overTime' : 'boxStep_over')) : null,
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'end-new-game', onclick: () => {
          app.dismissEnd(outcome.at);
          // a demo station's visitors play again at once; at home the players set the next game up
          if (app.kiosk) playNow(app);
          else app.go('wizard');
        } }, t('newGame')),
        // a roll confirmed by mistake can have ended the game: it is taken back while the game's time lasts
        app.snap?.canControl && app.snap.undoable > 0 && !app.snap.attract && st.deadline !== null && app.now() < st.deadline
          ? h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'end-undo', ...SENDS, onclick: () => void app.send({ type: 'undo' }) }, t('endUndo'))
          : null,
        h('button', { type: 'button', class: 'btn big-btn', onclick: () => {
          app.dismissEnd(outcome.at);
          app.render(false);
        } }, t('close')),
      ),
    ),
  );
}
