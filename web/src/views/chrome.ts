/** The header (navigation, language, control status) and the PIN prompt. */
import type { App, View } from '../app.ts';
import { h, keepOpenState } from '../dom.ts';
import { tableName } from '../format.ts';
import { lang, setLang, t, type Key } from '../i18n.ts';
import { refusalWords } from '../refusals.ts';
import { setSound, soundEnabled, unlockAudio } from '../sound.ts';
import { SENDS } from '../offline.ts';

const NAV: Record<View, Key> = {
  table: 'navTable',
  roll: 'navRoll',
  phone: 'navPhone',
  wizard: 'navWizard',
  settings: 'navSettings',
  camera: 'navCamera',
  samples: 'navSamples',
  box: 'navBox',
  kiosk: 'navKiosk',
  stats: 'navStats',
};

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const PHONE_VIEWS: View[] = ['table', 'roll', 'phone'];
/** the pages of play, in the header */
const PLAY_VIEWS: View[] = ['table', 'roll', 'phone', 'wizard'];
/** the pages that set the table up, in the header's menu */
const SETUP_VIEWS: View[] = ['settings', 'camera', 'samples', 'box', 'kiosk', 'stats'];

function navButton(app: App, v: View): HTMLElement {
  return h('button', { type: 'button', class: `nav-btn${app.view === v ? ' current' : ''}`, 'aria-current': app.view === v ? 'page' : null, 'data-testid': `nav-${v}`, onclick: () => {
    app.ui.setupMenuOpen = false;
    app.go(v);
  } }, t(NAV[v]));
}

/** The set-up pages folded under one entry (the header fits one line from 1 280 px), naming the one shown. */
function setupMenu(app: App): HTMLElement {
  const here = SETUP_VIEWS.includes(app.view);
  const menu = h('details', { class: 'setup-menu', 'data-testid': 'setup-menu' },
    h('summary', { class: `nav-btn${here ? ' current' : ''}`, 'data-testid': 'setup-menu-open', title: here ? t('navSetupHere', { page: t(NAV[app.view]) }) : null }, here ? t('navSetupPage', { page: t(NAV[app.view]) }) : t('navSetup')),
    h('div', { class: 'setup-menu-list' }, SETUP_VIEWS.map((v) => navButton(app, v)))) as HTMLDetailsElement;
  menu.open = app.ui.setupMenuOpen;
  keepOpenState(menu, (open) => (app.ui.setupMenuOpen = open));
  return menu;
}

export function chromeView(app: App): HTMLElement {
  const snap = app.snap;
  // a phone gets the pages a player at the table uses (the others from the table page's menu)
  const phone = app.view === 'phone';
  const name = snap ? tableName(snap) : null;
  return h('header', { class: 'chrome' },
    h('div', { class: 'brand' },
      h('h1', { class: 'app-title' }, t('appTitle')),
      // a table named after the game ("1942 USS Yorktown: try it!") says it already: not "1942 USS Yorktown 1942 USS Yorktown: …"
      name?.toLowerCase().includes(t('gameTitle').toLowerCase()) ? null : h('span', { class: 'game-title' }, t('gameTitle')),
      name !== null ? h('span', { class: 'table-name', 'data-testid': 'table-name' }, name) : null,
    ),
    app.kiosk
      ? null
      : h('nav', { 'aria-label': 'views' }, (phone ? PHONE_VIEWS : PLAY_VIEWS).map((v) => navButton(app, v))),
    // beside the navigation, not in it: a narrow screen scrolls the navigation sideways, which would clip the menu
    app.kiosk || phone ? null : setupMenu(app),
    h('div', { class: 'tools' },
      h('span', { class: `conn ${app.connected ? 'on' : 'off'}`, title: app.connected ? '' : t('disconnected') }, app.connected ? '●' : '○'),
      // a demo station's screen uses the PIN without showing it to every visitor (main.ts)
      snap?.pin && !app.kiosk ? h('span', { class: 'pin-shown', title: t('pinShownWhy') }, t('pinShown', { pin: snap.pin })) : null,
      snap?.canControl
        // greyed while the connection is lost: nothing sent from here reaches the table meanwhile; a demo station's
        // own screen controls its table as a matter of course, which says nothing to a visitor
        ? app.kiosk ? null : h('span', { class: `control ${app.connected ? 'on' : 'off'}`, 'data-testid': 'control-state', title: app.connected ? t('controlling') : t('disconnected') },
            h('span', { class: 'wide-only' }, t('controlling')), h('span', { class: 'narrow-only' }, h('span', { 'aria-hidden': 'true' }, '✓'), h('span', { class: 'sr-only' }, t('controlling'))))
        // a phone's header keeps to two lines with the short names
        : h('button', { type: 'button', class: 'btn small', 'data-testid': 'unlock', onclick: () => app.askPin() },
            h('span', { class: 'wide-only' }, t('unlock')), h('span', { class: 'narrow-only' }, t('unlockShort'))),
      h('button', { type: 'button', class: 'btn small', 'data-testid': 'sound', 'aria-pressed': soundEnabled() ? 'true' : 'false', onclick: () => {
        unlockAudio();
        setSound(!soundEnabled());
        // a demo station's visitor's choice lasts their visit (main.ts), not for the next ones
        try {
          if (!app.kiosk) storage()?.setItem('flightdeck.sound', soundEnabled() ? 'on' : 'off');
        } catch {
          // not remembered
        }
        app.render(false);
      } }, soundEnabled() ? t('soundOn') : t('soundOff')),
      h('label', { class: 'lang' }, h('span', { class: 'sr-only' }, t('language')),
        h('select', { 'data-testid': 'lang', 'aria-label': t('language'), onchange: (e: Event) => {
          // a demo station's visitor's choice is for them only (main.ts gives the next ones the station's)
          setLang((e.target as HTMLSelectElement).value as 'en' | 'es', app.kiosk ? null : storage());
          document.documentElement.lang = lang();
          app.render(true);
        } },
          h('option', { value: 'en', selected: lang() === 'en' }, 'English'),
          h('option', { value: 'es', selected: lang() === 'es' }, 'Español'))),
      app.kiosk ? h('button', { type: 'button', class: 'btn small', onclick: () => void document.documentElement.requestFullscreen?.().catch(() => {}) }, t('fullscreen')) : null,
    ),
  );
}

/**
 * The PIN prompt shown, kept while it stays open and says the same (a state push arriving while the PIN
 * is typed leaves the field, its digits and the focus alone).
 */
let pinShown: { node: HTMLElement; error: string | null; lang: string } | null = null;

export function pinOverlay(app: App): HTMLElement | null {
  if (!app.ui.pinOpen || app.snap?.canControl) {
    pinShown = null;
    return null;
  }
  if (pinShown && pinShown.error === app.ui.pinError && pinShown.lang === lang()) return pinShown.node;
  const input = h('input', { type: 'password', inputmode: 'numeric', autocomplete: 'off', name: 'pin', id: 'pin-input', 'data-testid': 'pin-input', value: app.snap?.pin ?? '', minlength: 4, maxlength: 8, 'aria-label': t('pinLabel') });
  const form = h('form', {
    class: 'overlay-box pin-box',
    onsubmit: async (e: Event) => {
      e.preventDefault();
      unlockAudio();
      const reply = await app.client.authorise(input.value.trim());
      if (reply.ok) {
        try {
          sessionStorage.setItem(`flightdeck.pin.${app.client.tableId}`, input.value.trim());
        } catch {
          // not remembered: asked again after a reload
        }
        await app.pinAccepted();
        return;
      } else {
        app.ui.pinError = refusalWords(reply.error) || t('pinWrong');
        input.value = '';
      }
      app.render(false);
    },
  },
    h('h2', { id: 'pin-title' }, t('pinPrompt')),
    h('label', { class: 'field' }, h('span', null, t('pinLabel')), input),
    app.ui.pinError ? h('p', { class: 'form-error', role: 'alert' }, app.ui.pinError) : null,
    h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'btn primary big-btn', 'data-testid': 'pin-submit', ...SENDS }, t('pinSubmit')),
      h('button', { type: 'button', class: 'btn big-btn', onclick: () => { app.closePinPrompt(); app.render(false); } }, t('close'))),
  );
  setTimeout(() => input.focus(), 0);
  const node = h('div', { class: 'overlay', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'pin-title' }, form);
  pinShown = { node, error: app.ui.pinError, lang: lang() };
  return node;
}
