/**
 * Camera set-up: where the camera reads the dice. The live camera image with the tray (yellow) and the
 * kept zone (blue) over it (views/camera-image.ts); with the PIN, draw either on it (drag a rectangle,
 * or tap its four corners for a camera looking at the tray at an angle) or drag a corner to adjust it,
 * let the service find the tray in a frame of the empty tray, save (kept by the service and used at
 * once), or go back to the tables file's. This module holds the page's state and its calls to the
 * service.
 */
import type { App } from '../app.ts';
import { h, type Child } from '../dom.ts';
import { t } from '../i18n.ts';
import { problemText } from '../refusals.ts';
import { areaNarrowestPx, cornersQuad, startingArea, type Point } from './area-geometry.ts';
import { areasOf, cameraImage, DIE_PX, diceSizes, sizeText, type ImageGestures, type Zone } from './camera-image.ts';
import type { AreaConfig, CalibrationConfig, CalibrationView } from '../types.ts';

interface CameraUi {
  view: CalibrationView | null;
  asked: boolean;
  /** the areas being edited, not yet saved (null: none edited) */
  draft: CalibrationConfig | null;
  drawing: Zone | null;
  /** corners tapped so far for the area being drawn (0..1), four making a quad */
  corners: Point[];
  /** the last outcome; a problem with the service's words under a translated sentence (`problemText`) */
  message: { text: string; kind: 'ok' | 'error'; detail?: string | null } | null;
  busy: boolean;
  /** the app's page count when this page was last drawn */
  openedAs: number;
}

const ui: CameraUi = { view: null, asked: false, draft: null, drawing: null, corners: [], message: null, busy: false, openedAs: -1 };

/** Why the camera gives no image now (its status message), or null while it does. */
function cameraDown(app: App): string | null {
  const camera = app.snap?.hardware.camera;
  if (!camera || camera.kind === 'none' || camera.state === 'ok') return null;
  return camera.message ?? camera.state;
}

/** A tray narrower than this many dice (those at rest in view, else the smallest the reader reads) is said to be small. */
const TRAY_DICE_ACROSS = 3;

/** The tray being drawn, when it is so narrow that thrown dice would often land over its line. */
function smallTrayText(app: App): string | null {
  const tray = ui.draft?.tray;
  if (!tray) return null;
  const v = app.vision;
  const [width, height] = v && v.width > 0 && v.height > 0 ? [v.width, v.height] : [640, 480];
  const die = diceSizes(app)?.max ?? DIE_PX.min;
  const across = areaNarrowestPx(tray, width, height);
  return across < TRAY_DICE_ACROSS * die ? t('cameraTraySmall', { px: Math.round(across), n: TRAY_DICE_ACROSS, die }) : null;
}

/** Areas drawn or moved on this page and not saved yet. */
export function cameraDraftUnsaved(): boolean {
  return ui.draft !== null;
}

/** The connection came back (the service may have restarted): ask again. */
export function resetCameraSetup(): void {
  ui.asked = false;
}

function shown(): CalibrationConfig | null {
  return ui.draft ?? ui.view;
}

function took(app: App, reply: { ok: true; data: CalibrationView } | { ok: false; error: { code: string; message: string } }, done: string | null): void {
  ui.busy = false;
  if (reply.ok) {
    ui.view = reply.data;
    ui.draft = null;
    ui.drawing = null;
    ui.corners = [];
    ui.message = done ? { text: done, kind: 'ok' } : null;
  } else {
    failed(app, reply.error);
  }
  if (app.view === 'camera') app.render(true);
}

function failed(app: App, error: { code: string; message: string }): void {
  if (error.code === 'pinRequired') app.ui.pinOpen = true;
  ui.message = { ...problemText(error), kind: 'error' };
}

function ask(app: App): void {
  // opened anew: the tray may have been changed from another screen meanwhile (areas being drawn stay)
  if (ui.openedAs !== app.pagesOpened && !ui.draft && !ui.busy) ui.asked = false;
  ui.openedAs = app.pagesOpened;
  if (ui.asked) return;
  ui.asked = true;
  void app.client.calibration().then((reply) => took(app, reply, null));
}

async function run<T>(app: App, call: () => Promise<T>): Promise<T | null> {
  if (ui.busy) return null;
  ui.busy = true;
  ui.message = null;
  app.render(true);
  return call();
}

function sourceText(view: CalibrationView): string {
  if (view.source === 'saved') return t('cameraSourceSaved', { when: new Date(view.savedAt ?? 0).toLocaleString() });
  return view.source === 'config' ? t('cameraSourceConfig') : t('cameraSourceWhole');
}

/** The change goes into the draft (the areas in use, changed); drawing ends. */
function change(areas: Partial<CalibrationConfig>): void {
  ui.draft = { ...(ui.draft ?? { tray: ui.view?.tray ?? null, keptZone: ui.view?.keptZone ?? null }), ...areas };
  ui.drawing = null;
  ui.corners = [];
  ui.message = null;
}

function setArea(zone: Zone, area: AreaConfig): void {
  change({ [zone]: area });
}

/** The gestures on the image, as changes to the page. */
function gestures(app: App): ImageGestures {
  const tooSmall = () => {
    ui.message = { text: t('cameraTooSmall'), kind: 'error' };
  };
  return {
    dragged(zone, rect) {
      ui.corners = [];
      if (rect) setArea(zone, rect);
      else tooSmall();
      app.render(true);
    },
    tapped(zone, corner) {
      // the fourth corner tapped makes the area (a camera looking at the tray at an angle)
      ui.corners.push(corner);
      if (ui.corners.length === 4) {
        const quad = cornersQuad(ui.corners);
        ui.corners = [];
        if (quad) setArea(zone, quad);
        else tooSmall();
      }
      app.render(true);
    },
    adjusted(zone, area) {
      setArea(zone, area);
      app.render(true);
    },
    cancelled() {
      app.render(true);
    },
  };
}

function edit(app: App, areas: Partial<CalibrationConfig>): void {
  change(areas);
  app.render(true);
}

function controls(app: App): HTMLElement {
  const view = ui.view;
  const draw = (zone: Zone, key: 'cameraDrawTray' | 'cameraDrawKept') =>
    h('button', {
      type: 'button', class: `btn${ui.drawing === zone ? ' primary' : ''}`, 'data-testid': `draw-${zone}`, 'aria-pressed': ui.drawing === zone ? 'true' : 'false',
      onclick: () => {
        ui.drawing = ui.drawing === zone ? null : zone;
        ui.corners = [];
        ui.message = null;
        app.render(true);
      },
    }, t(key));
  const find = async () => {
    const reply = await run(app, () => app.client.estimateTray());
    if (!reply) return;
    ui.busy = false;
    if (reply.ok) {
      change({ tray: reply.data.tray });
      ui.message = { text: t('cameraFound', { coverage: Math.round(reply.data.coverage * 100) }), kind: 'ok' };
    } else {
      failed(app, reply.error);
    }
    app.render(true);
  };
  // without a pointer: a first rectangle, its first corner mark focused for the arrow keys
  const start = (zone: Zone | null) => {
    if (!zone) return;
    setArea(zone, startingArea(zone, shown()?.tray ?? null));
    app.render(true);
    document.querySelector<SVGElement>(`[data-testid="handle-${zone === 'tray' ? 'tray' : 'kept'}-0"]`)?.focus();
  };
  const draft = ui.draft;
  return h('div', { class: 'setup-controls' },
    h('div', { class: 'row' },
      draw('tray', 'cameraDrawTray'),
      draw('keptZone', 'cameraDrawKept'),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'find-tray', title: t('cameraFindHint'), disabled: ui.busy || cameraDown(app) !== null, onclick: () => void find() }, t('cameraFind')),
    ),
    ui.drawing
      ? [
        h('p', { class: 'hint', role: 'status', 'data-testid': 'draw-hint' }, t('cameraDrawHint'), ui.corners.length ? ` ${t('cameraCornersLeft', { n: 4 - ui.corners.length })}` : ''),
        h('p', null, h('button', { type: 'button', class: 'btn small', 'data-testid': 'draw-start', onclick: () => start(ui.drawing) }, t('cameraDrawStart'))),
      ]
      : areasOf(shown()).length ? h('p', { class: 'hint', 'data-testid': 'adjust-hint' }, t('cameraAdjustHint')) : null,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn small', 'data-testid': 'whole-image', disabled: !shown()?.tray, onclick: () => edit(app, { tray: null }) }, t('cameraWholeImage')),
      h('button', { type: 'button', class: 'btn small', 'data-testid': 'no-kept', disabled: !shown()?.keptZone, onclick: () => edit(app, { keptZone: null }) }, t('cameraNoKept')),
    ),
    h('div', { class: 'row' },
      h('button', {
        type: 'button', class: 'btn primary', 'data-testid': 'save-calibration', disabled: !draft || ui.busy,
        onclick: async () => {
          if (!ui.draft) return;
          const body = ui.draft;
          const reply = await run(app, () => app.client.saveCalibration(body));
          if (reply) took(app, reply, t('cameraSaved'));
        },
      }, t('cameraSave')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'cancel-calibration', disabled: !draft && !ui.drawing, onclick: () => { ui.draft = null; ui.drawing = null; ui.corners = []; ui.message = null; app.render(true); } }, t('cameraCancel')),
      h('button', {
        type: 'button', class: 'btn', 'data-testid': 'reset-calibration', disabled: view?.source !== 'saved' || ui.busy,
        onclick: async () => {
          const reply = await run(app, () => app.client.resetCalibration());
          if (reply) took(app, reply, t('cameraResetDone'));
        },
      }, t('cameraReset')),
    ),
  );
}

export function cameraSetupView(app: App): HTMLElement {
  const snap = app.snap;
  const title = h('h2', null, t('cameraTitle'));
  if (snap && snap.hardware.camera.kind === 'none') return h('section', { class: 'camera-setup', 'data-testid': 'camera-setup' }, title, h('p', { class: 'hint' }, t('cameraNone')));
  ask(app);
  const control = snap?.canControl === true;
  const down = cameraDown(app);
  const sizes = down ? { text: t('cameraDownSizes'), kind: 'waiting' as const } : sizeText(app);
  const sizesEl = h('p', { class: `hint camera-sizes ${sizes.kind}`, role: 'status', 'data-testid': 'camera-sizes' }, sizes.text);
  const small = smallTrayText(app);
  const wrap = cameraImage(app, { areas: shown(), drawing: ui.drawing, corners: ui.corners, control }, gestures(app), sizesEl);
  const body: Child[] = [
    h('p', { class: 'hint' }, t('cameraWhy')),
    ui.view ? h('p', { 'data-testid': 'calibration-source' }, sourceText(ui.view)) : null,
    down ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'camera-down' }, t('cameraDown', { why: down })) : null,
    ui.draft ? h('p', { class: 'hint waiting', 'data-testid': 'calibration-draft' }, t('cameraUnsaved')) : null,
    small ? h('p', { class: 'hint waiting', role: 'status', 'data-testid': 'tray-small' }, small) : null,
    wrap,
    h('p', { class: 'legend' }, h('span', { class: 'swatch tray' }), ` ${t('cameraLegendTray')} `, h('span', { class: 'swatch kept' }), ` ${t('cameraLegendKept')}`),
    sizesEl,
    ui.message ? h('p', { class: ui.message.kind === 'ok' ? 'hint saved' : 'form-error', role: ui.message.kind === 'ok' ? 'status' : 'alert', 'data-testid': 'calibration-message' }, ui.message.text, ui.message.detail ? h('span', { class: 'toast-detail' }, ui.message.detail) : null) : null,
    control
      ? controls(app)
      : h('p', null, h('button', { type: 'button', class: 'btn', 'data-testid': 'camera-unlock', onclick: () => app.askPin() }, t('cameraNeedsPin'))),
  ];
  return h('section', { class: 'camera-setup', 'data-testid': 'camera-setup' }, title, body);
}

