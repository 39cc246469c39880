/** Entry point: reads the URL (?view=, ?seat=, ?table=, ?kiosk=1, ?lang=), connects, renders. */
import { App, KIOSK_VIEWS, VIEWS, type View } from './app.ts';
import { TableClient } from './client.ts';
import { initialLang, lang, setLang } from './i18n.ts';
import { refusalWords } from './refusals.ts';
import { cueBetween, playCue, setSound, unlockAudio } from './sound.ts';
import { boxView } from './views/box.ts';
import { chromeView, pinOverlay } from './views/chrome.ts';
import { endOverlay } from './views/end.ts';
import { answerNo, askOpen, askOverlay } from './views/ask.ts';
import { resetWarning, tickResetCountdowns } from './views/reset-warning.ts';
import { invalidateStats, kioskView } from './views/kiosk.ts';
import { phoneView } from './views/phone.ts';
import { cameraView } from './views/roll.ts';
import { cameraDraftUnsaved, cameraSetupView, resetCameraSetup } from './views/camera.ts';
import { keepingFocus } from './user-hold.ts';
import { redrawInPlace } from './dom.ts';
import { samplesUnsaved, samplesView } from './views/samples.ts';
import { resetSettingsCache, settingsUnsaved, settingsView } from './views/settings.ts';
import { statsOutdated, statsPageView } from './views/stats.ts';
import { tickStopwatch } from './views/status.ts';
import { rollView, tableView } from './views/table.ts';
import { wizardView } from './views/wizard.ts';

const KIOSK_IDLE_MS = 90_000;
/** a demo station's screen refused with its PIN (too many wrong tries from this address) tries again after this */
const KIOSK_AUTH_RETRY_MS = 10_000;

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

/** The page and phone seat a URL asks for. */
function pageOf(where: Location, kiosk: boolean): { view: View; seat: number | null } {
  const params = new URLSearchParams(where.search);
  const pathView = where.pathname.replace(/^\/+|\/+$/g, '');
  const asked = (params.get('view') ?? pathView) as View;
  const view: View = (kiosk ? KIOSK_VIEWS : VIEWS).includes(asked) ? asked : kiosk ? 'kiosk' : 'table';
  const seatParam = Number(params.get('seat'));
  const seat = Number.isInteger(seatParam) && seatParam >= 1 && seatParam <= 4 ? seatParam : null;
  return { view, seat };
}

function start(): void {
  const params = new URLSearchParams(location.search);
  const kiosk = params.get('kiosk') === '1';
  const { view, seat } = pageOf(location, kiosk);
  const tableId = params.get('table') ?? 'default';

  // a demo station's screen starts in its own language whatever a visitor chose before
  setLang(initialLang(params, kiosk ? null : storage('localStorage'), navigator.language), null);
  // and with its sound on: a visitor who turned it off does not turn it off for the next ones
  setSound(kiosk || storage('localStorage')?.getItem('flightdeck.sound') !== 'off');
  document.documentElement.lang = lang();

  const pin = params.get('pin') ?? storage('sessionStorage')?.getItem(`flightdeck.pin.${tableId}`) ?? null;
  const client = new TableClient(tableId, pin);
  const root = document.getElementById('app');
  if (!root) throw new Error('index.html has no #app element');
  const app = new App(root, client, view, kiosk, seat);
  // an end screen closed stays closed through a reload of this tab
  const endKey = `flightdeck.endClosed.${tableId}`;
  const closedEnd = Number(storage('sessionStorage')?.getItem(endKey));
  if (Number.isFinite(closedEnd) && closedEnd > 0) app.ui.endDismissedFor = closedEnd;
  app.onEndDismissed = (at) => {
    try {
      storage('sessionStorage')?.setItem(endKey, String(at));
    } catch {
      // private mode: it is closed for this page only
    }
  };
  app.register('table', tableView);
  app.register('roll', rollView);
  app.register('phone', phoneView);
  app.register('wizard', wizardView);
  app.register('settings', settingsView);
  app.register('camera', cameraSetupView);
  app.register('samples', samplesView);
  app.register('box', boxView);
  app.register('kiosk', kioskView);
  app.register('stats', statsPageView);
  app.setChrome(chromeView);
  app.addOverlay(endOverlay);
  app.addOverlay(askOverlay);
  // above an open question: a game about to be cleared matters more
  app.addOverlay(resetWarning);
  app.addOverlay(pinOverlay);

  let lastPhase: string | null = null;
  let lastStart: number | null = null;
  let lastAttract = false;
  // a demo station's next visitors get the station's language, not the one the last ones chose
  const stationLang = kiosk ? initialLang(params, null, navigator.language) : null;
  // a demo station's own screen is given the PIN (showPinOnLocalDisplay): it controls the table with it,
  // without showing it; a visitor's tap refused meanwhile is done once it has
  let kioskAuthAt = 0;
  const kioskAuthorise = () => {
    const pin = app.snap?.pin;
    if (!kiosk || !pin || app.snap?.canControl || !app.connected || Date.now() - kioskAuthAt < KIOSK_AUTH_RETRY_MS) return;
    kioskAuthAt = Date.now();
    void client.authorise(pin).then((reply) => (reply.ok ? app.pinAccepted() : undefined));
  };
  if (kiosk) setInterval(kioskAuthorise, KIOSK_AUTH_RETRY_MS);
  client.on('state', (snap) => {
    // a demo station's own screen (sent the PIN as the station's display, not given it) shows only the
    // station's page, whatever address is typed into it: the owner's pages are opened with the PIN
    if (!kiosk && snap.kiosk === true && snap.pin && !pin) {
      location.replace(`/?kiosk=1&table=${encodeURIComponent(tableId)}`);
      return;
    }
    const phase = (snap.state as { phase?: string } | null)?.phase ?? null;
    const startedAt = (snap.state as { startedAt?: number | null } | null)?.startedAt ?? null;
    // a game ended, or began, or was abandoned: today's figures change
    if ((phase !== lastPhase && (phase === 'over' || lastPhase === 'over')) || startedAt !== lastStart) {
      invalidateStats();
      statsOutdated();
    }
    // a visitor's game cleared (not the station's own, which a visitor's tap clears before theirs starts),
    // or the station playing by itself again (nobody there: a passer-by's choice goes too)
    const cleared = lastStart !== null && startedAt === null && !lastAttract;
    if (stationLang && (cleared || (snap.attract === true && !lastAttract))) {
      if (lang() !== stationLang) {
        setLang(stationLang, null);
        document.documentElement.lang = lang();
      }
      setSound(true);
    }
    lastPhase = phase;
    lastStart = startedAt;
    lastAttract = snap.attract === true;
    app.setSnapshot(snap);
    kioskAuthorise();
  });
  let lastVisionAt = 0;
  client.on('vision', (update) => {
    app.vision = update;
    if (!update.settled) app.visionMovedAt = Math.max(app.visionMovedAt, update.at);
    lastVisionAt = Date.now();
    // the time of the reading shown, for scripts and tests that wait for the camera's next one
    root.dataset.visionAt = String(update.at);
    // only the camera block changes: no full re-render for every frame (nor under a finger on its buttons)
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.camera'))) {
      if (app.underUser(el)) continue;
      const next = cameraView(app);
      if (next) keepingFocus(el, () => redrawInPlace(el, next) as HTMLElement);
    }
  });
  client.on('error', (err) => {
    const words = refusalWords(err);
    if (err.code === 'badPin' || err.code === 'pinRequired' || err.code === 'tooManyAttempts') app.ui.pinError = words;
    app.showToast(words, 'error');
  });
  client.on('connection', (connected) => {
    app.connected = connected;
    if (connected) {
      resetSettingsCache();
      // the dice photos page asks again for its folder (the service may have restarted)
      app.ui.samples.asked = false;
      app.ui.samples.modelAsked = false;
      resetCameraSetup();
      statsOutdated();
      void app.catchUpHistory();
    }
    app.render(false);
  });

  // stopwatch and its last-minute cues
  let before: number | null = null;
  setInterval(() => {
    tickResetCountdowns(app);
    const ms = tickStopwatch(app);
    if (ms !== null && before !== null && app.state?.phase !== 'over') {
      const cue = cueBetween(before, ms);
      if (cue) playCue(cue);
    }
    before = ms;
  }, 250);

  // the camera image stays live even when no dice are being read (vision updates bring their own frame)
  setInterval(() => {
    const img = document.getElementById('camera-frame') as HTMLImageElement | null;
    if (!img || !app.connected) return;
    if (app.vision && Date.now() - lastVisionAt < 2000) return;
    img.classList.remove('missing');
    img.src = client.frameUrl();
  }, 1000);

  // Escape closes what covers the table: the PIN prompt (its action forgotten), else the end screen
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const outcome = app.state?.phase === 'over' ? app.state.outcome : null;
    if (askOpen()) {
      answerNo();
    } else if (app.ui.pinOpen) {
      app.closePinPrompt();
    } else if (app.ui.setupMenuOpen) {
      app.ui.setupMenuOpen = false;
      app.render(false);
      // the focus was in the menu, now closed: back on its button
      document.querySelector<HTMLElement>('[data-testid="setup-menu-open"]')?.focus();
      return;
    } else if (outcome && app.ui.endDismissedFor !== outcome.at) {
      app.dismissEnd(outcome.at);
    } else {
      return;
    }
    app.render(false);
  });

  // the header's set-up menu closes at a press anywhere else
  window.addEventListener('pointerdown', (e) => {
    if (!app.ui.setupMenuOpen || (e.target instanceof Element && e.target.closest('.setup-menu'))) return;
    app.ui.setupMenuOpen = false;
    document.querySelector<HTMLDetailsElement>('.setup-menu')?.removeAttribute('open');
  });

  // browsers allow sound only after a gesture
  let lastInput = Date.now();
  for (const type of ['pointerdown', 'keydown']) {
    window.addEventListener(type, () => {
      unlockAudio();
      lastInput = Date.now();
    }, { passive: true });
  }
  if (kiosk) {
    setInterval(() => {
      if (app.view !== 'kiosk' && Date.now() - lastInput > KIOSK_IDLE_MS) app.go('kiosk', 'replace');
    }, 5000);
  }

  // the browser's Back and Forward move between the pages of the app (each page opened is one step);
  // each page opens at its top (App.go), the browser restoring no scroll of its own
  history.scrollRestoration = 'manual';
  window.addEventListener('popstate', () => {
    const page = pageOf(location, kiosk);
    if (page.seat !== null) app.seat = page.seat;
    app.arrived(page.view);
  });
  // closing or reloading the tab would lose areas, labels or settings not saved (moving between the app's pages keeps them)
  window.addEventListener('beforeunload', (e) => {
    if (!cameraDraftUnsaved() && !samplesUnsaved(app.ui.samples) && !settingsUnsaved()) return;
    e.preventDefault();
    e.returnValue = '';
  });

  app.render(true);
  client.connect();
}

start();
