/**
 * Camera set-up: where the camera reads the dice. The live camera image with the tray (yellow) and the
 * kept zone (blue) over it; with the PIN, drag across the image to draw either (or tap its four corners,
 * for a camera looking at the tray at an angle), let the service find
 * the tray in a frame of the empty tray, save (kept by the service and used at once), or go back to the
 * tables file's. Under the image: how large the camera sees the dice, against what the dice reader
 * reads best.
 */
import type { App } from '../app.ts';
import { h, s, type Child } from '../dom.ts';
import { t } from '../i18n.ts';
import { problemText } from '../refusals.ts';
import { cornersQuad, dragRect, moveCorner, nearestCorner, areaCorners } from './area-geometry.ts';
import { areaShape } from './areas.ts';
import type { AreaConfig, CalibrationConfig, CalibrationView } from '../types.ts';

type Zone = 'tray' | 'keptZone';

/** The dice sizes the camera should see (hardware.md, "Calibration"), in pixels of its frame. */
export const DIE_PX = { min: 20, max: 70 } as const;
const REFRESH_MS = 1000;

interface CameraUi {
  view: CalibrationView | null;
  asked: boolean;
  /** the areas being edited, not yet saved (null: none edited) */
  draft: CalibrationConfig | null;
  drawing: Zone | null;
  /** corners tapped so far for the area being drawn (0..1), four making a quad */
  corners: { x: number; y: number }[];
  /** the last outcome; a problem with the service's words under a translated sentence (`problemText`) */
  message: { text: string; kind: 'ok' | 'error'; detail?: string | null } | null;
  busy: boolean;
}

const ui: CameraUi = { view: null, asked: false, draft: null, drawing: null, corners: [], message: null, busy: false };

/** The connection came back (the service may have restarted): ask again. */
export function resetCameraSetup(): void {
  ui.asked = false;
}

/** A tap moves the pointer less than this share of the image between press and release; more is a drag. */
const TAP = 0.01;

/** How near (CSS pixels) a press must be to an area's corner to move it: about a fingertip. */
const CORNER_REACH = 28;

/** A die's size in pixels of the frame, as the page says it. */
const dieSize = (d: { w: number; h: number }) => Math.round((d.w + d.h) / 2);

/** The dice the camera sees now (settled), sized in pixels of its frame: how many and from what to what. */
export function diceSizes(app: App): { n: number; min: number; max: number } | null {
  const v = app.vision;
  if (!v?.settled || v.dice.length === 0) return null;
  const sizes = v.dice.map(dieSize);
  return { n: sizes.length, min: Math.min(...sizes), max: Math.max(...sizes) };
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

function sizeText(app: App): { text: string; kind: 'ok' | 'waiting' } {
  const sizes = diceSizes(app);
  if (!sizes) return { text: t('cameraDiceNone'), kind: 'waiting' };
  const seen = t('cameraDiceSize', { n: sizes.n, min: sizes.min, max: sizes.max });
  if (sizes.min < DIE_PX.min) return { text: `${seen} ${t('cameraDiceSmall', { min: DIE_PX.min, max: DIE_PX.max })}`, kind: 'waiting' };
  if (sizes.max > DIE_PX.max) return { text: `${seen} ${t('cameraDiceLarge', { min: DIE_PX.min, max: DIE_PX.max })}`, kind: 'waiting' };
  return { text: `${seen} ${t('cameraDiceGood', { min: DIE_PX.min, max: DIE_PX.max })}`, kind: 'ok' };
}

/** The live image: refreshed while this page shows it (vision updates carry no frame here). */
let refresher: ReturnType<typeof setInterval> | null = null;

/** The dice at rest the camera reads, boxed with their size in pixels (those beyond the tray are never read). */
function seenDice(app: App, size: FrameSize): SVGElement {
  const v = app.vision;
  const group = s('g', { class: 'seen-dice' });
  if (!v?.settled || v.width <= 0 || v.height <= 0) return group;
  const sx = size.width / v.width;
  const sy = size.height / v.height;
  for (const d of v.dice) {
    group.append(
      s('rect', { x: (d.x - d.w / 2) * sx, y: (d.y - d.h / 2) * sy, width: d.w * sx, height: d.h * sy }),
      s('text', { x: d.x * sx, y: (d.y + d.h / 2) * sy + 20, 'text-anchor': 'middle' }, `${dieSize(d)} px`),
    );
  }
  return group;
}

type FrameSize = { width: number; height: number };

/** The camera frame's size in pixels, as far as it is known yet (the overlay is drawn in them, undistorted). */
function frameSize(app: App, img: HTMLImageElement): FrameSize {
  if (app.vision && app.vision.width > 0 && app.vision.height > 0) return { width: app.vision.width, height: app.vision.height };
  if (img.naturalWidth > 0 && img.naturalHeight > 0) return { width: img.naturalWidth, height: img.naturalHeight };
  return { width: 640, height: 480 };
}

function keepLive(app: App, img: HTMLImageElement, sizes: HTMLElement, overlay: SVGElement, size: FrameSize): void {
  const update = () => {
    const next = sizeText(app);
    sizes.textContent = next.text;
    sizes.className = `hint camera-sizes ${next.kind}`;
    overlay.querySelector('.seen-dice')?.remove();
    overlay.append(seenDice(app, size));
  };
  update();
  if (refresher) clearInterval(refresher);
  refresher = setInterval(() => {
    if (!img.isConnected) {
      if (refresher) clearInterval(refresher);
      refresher = null;
      return;
    }
    if (app.connected) img.src = app.client.frameUrl();
    update();
  }, REFRESH_MS);
}

/** As wide as the page allows, never taller than most of the screen, in the camera's proportions. */
function fitWidth(wrap: HTMLElement, img: HTMLImageElement): void {
  if (img.naturalWidth > 0 && img.naturalHeight > 0) wrap.style.width = `min(100%, ${((75 * img.naturalWidth) / img.naturalHeight).toFixed(2)}vh)`;
}

/**
 * One <img> kept across re-renders: a new one would be empty until it loaded, the page shorter for a
 * moment, and the page would jump under a finger tapping the tray's corners.
 */
let frameImage: HTMLImageElement | null = null;

function liveImage(app: App): HTMLImageElement {
  if (frameImage) return frameImage;
  const img = h('img', { class: 'frame', alt: t('camera'), src: app.client.frameUrl(), draggable: 'false', 'data-testid': 'setup-frame' }) as HTMLImageElement;
  img.addEventListener('error', () => img.classList.add('missing'));
  img.addEventListener('load', () => {
    img.classList.remove('missing');
    if (img.parentElement) fitWidth(img.parentElement, img);
  });
  frameImage = img;
  return img;
}

/** A drag on the image is under way: the page is not rebuilt under it (App.register). */
let gesture = false;
export const cameraGestureActive = (): boolean => gesture;

const ZONES: { zone: Zone; cls: string; testid: string }[] = [
  { zone: 'tray', cls: 'tray', testid: 'tray' },
  { zone: 'keptZone', cls: 'kept', testid: 'kept' },
];

/** The areas set, as the corner-moving geometry takes them. */
function areasOf(cal: CalibrationConfig | null): { zone: Zone; area: AreaConfig }[] {
  return ZONES.flatMap(({ zone }) => (cal?.[zone] ? [{ zone, area: cal[zone]! }] : []));
}

/** The tray and kept zone over the image; with `handles`, a round mark on each corner, to drag. */
function areasDrawn(cal: CalibrationConfig | null, W: number, H: number, handles: boolean): SVGElement {
  const group = s('g', { class: 'areas' });
  for (const { zone, cls, testid } of ZONES) {
    const area = cal?.[zone];
    if (!area) continue;
    group.append(areaShape(area, W, H, { class: `area-${cls}`, 'data-testid': `area-${testid}` }));
    if (handles) {
      areaCorners(area).forEach((c, i) =>
        group.append(s('circle', { class: `handle ${cls}`, 'data-testid': `handle-${testid}-${i}`, cx: c.x * W, cy: c.y * H, r: W / 90 })));
    }
  }
  return group;
}

function imageView(app: App, control: boolean, sizes: HTMLElement): HTMLElement {
  const img = liveImage(app);
  img.alt = t('camera');
  const cal = shown();
  const { width: W, height: H } = frameSize(app, img);
  const adjustable = control && !ui.drawing;
  const overlay = s('svg', { class: 'setup-overlay', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none' },
    areasDrawn(cal, W, H, adjustable),
    ui.corners.length > 1 ? s('polyline', { class: 'area-drawing', points: ui.corners.map((c) => `${c.x * W},${c.y * H}`).join(' ') }) : null,
    ui.corners.map((c) => s('circle', { class: 'corner', 'data-testid': 'corner', cx: c.x * W, cy: c.y * H, r: W / 120 })),
  );
  const wrap = h('div', { class: `frame-wrap setup-wrap${ui.drawing ? ' drawing' : ''}`, 'data-testid': 'setup-wrap' }, img, overlay);
  fitWidth(wrap, img);
  if (control) {
    // drawing: drag across the image (the rectangle follows the pointer) or tap four corners;
    // otherwise: drag a corner of the tray or kept zone to move it
    let start: { x: number; y: number } | null = null;
    let rubber: SVGElement | null = null;
    let adjusting: { zone: Zone; index: number; from: AreaConfig; now: AreaConfig } | null = null;
    const shownSize = () => wrap.getBoundingClientRect();
    const at = (e: PointerEvent) => {
      const r = shownSize();
      return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
    };
    const cornerAt = (e: PointerEvent) => (adjustable ? nearestCorner(areasOf(cal), at(e), shownSize(), CORNER_REACH) : null);
    wrap.addEventListener('pointerdown', (e: PointerEvent) => {
      if (!ui.drawing) {
        const hit = cornerAt(e);
        const area = hit && cal?.[hit.zone];
        if (!hit || !area) return;
        e.preventDefault();
        wrap.setPointerCapture?.(e.pointerId);
        adjusting = { ...hit, from: area, now: area };
        gesture = true;
        wrap.classList.add('adjusting');
        return;
      }
      e.preventDefault();
      wrap.setPointerCapture?.(e.pointerId);
      start = at(e);
      gesture = true;
      rubber = s('rect', { class: 'area-drawing', x: start.x * W, y: start.y * H, width: 0, height: 0 });
      overlay.append(rubber);
    });
    wrap.addEventListener('pointermove', (e: PointerEvent) => {
      if (adjusting) {
        const moved = moveCorner(adjusting.from, adjusting.index, at(e));
        if (!moved) return; // too small or crossed: the area stays as it last was
        adjusting.now = moved;
        overlay.querySelector('.areas')?.replaceWith(areasDrawn({ ...(cal ?? { tray: null, keptZone: null }), [adjusting.zone]: moved }, W, H, true));
        return;
      }
      if (!start || !rubber) {
        wrap.classList.toggle('near-corner', cornerAt(e) !== null);
        return;
      }
      const p = at(e);
      rubber.setAttribute('x', String(Math.min(start.x, p.x) * W));
      rubber.setAttribute('y', String(Math.min(start.y, p.y) * H));
      rubber.setAttribute('width', String(Math.abs(p.x - start.x) * W));
      rubber.setAttribute('height', String(Math.abs(p.y - start.y) * H));
    });
    wrap.addEventListener('pointercancel', () => {
      if (!adjusting && !start) return;
      gesture = false;
      adjusting = null;
      start = null;
      rubber = null;
      app.render(true);
    });
    wrap.addEventListener('pointerup', (e: PointerEvent) => {
      gesture = false;
      if (adjusting) {
        const { zone, from, now } = adjusting;
        adjusting = null;
        if (now !== from) setArea(zone, now);
        app.render(true);
        return;
      }
      if (!start || !ui.drawing) return;
      const zone = ui.drawing;
      const end = at(e);
      const tapped = Math.abs(end.x - start.x) < TAP && Math.abs(end.y - start.y) < TAP;
      const from = start;
      start = null;
      rubber = null;
      if (tapped) {
        // a tap is a corner; the fourth makes the area (a camera looking at the tray at an angle)
        ui.corners.push(end);
        if (ui.corners.length < 4) {
          app.render(true);
          return;
        }
        const quad = cornersQuad(ui.corners);
        ui.corners = [];
        if (quad) setArea(zone, quad);
        else ui.message = { text: t('cameraTooSmall'), kind: 'error' };
      } else {
        const rect = dragRect(from, end);
        ui.corners = [];
        if (rect) setArea(zone, rect);
        else ui.message = { text: t('cameraTooSmall'), kind: 'error' };
      }
      app.render(true);
    });
  }
  keepLive(app, img, sizes, overlay, { width: W, height: H });
  return wrap;
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
  const draft = ui.draft;
  return h('div', { class: 'setup-controls' },
    h('div', { class: 'row' },
      draw('tray', 'cameraDrawTray'),
      draw('keptZone', 'cameraDrawKept'),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'find-tray', title: t('cameraFindHint'), disabled: ui.busy, onclick: () => void find() }, t('cameraFind')),
    ),
    ui.drawing
      ? h('p', { class: 'hint', role: 'status', 'data-testid': 'draw-hint' }, t('cameraDrawHint'), ui.corners.length ? ` ${t('cameraCornersLeft', { n: 4 - ui.corners.length })}` : '')
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
  const sizes = sizeText(app);
  const sizesEl = h('p', { class: `hint camera-sizes ${sizes.kind}`, role: 'status', 'data-testid': 'camera-sizes' }, sizes.text);
  const wrap = imageView(app, control, sizesEl);
  const body: Child[] = [
    h('p', { class: 'hint' }, t('cameraWhy')),
    ui.view ? h('p', { 'data-testid': 'calibration-source' }, sourceText(ui.view)) : null,
    ui.draft ? h('p', { class: 'hint waiting', 'data-testid': 'calibration-draft' }, t('cameraUnsaved')) : null,
    wrap,
    h('p', { class: 'legend' }, h('span', { class: 'swatch tray' }), ` ${t('cameraLegendTray')} `, h('span', { class: 'swatch kept' }), ` ${t('cameraLegendKept')}`),
    sizesEl,
    ui.message ? h('p', { class: ui.message.kind === 'ok' ? 'hint saved' : 'form-error', role: ui.message.kind === 'ok' ? 'status' : 'alert', 'data-testid': 'calibration-message' }, ui.message.text, ui.message.detail ? h('span', { class: 'toast-detail' }, ui.message.detail) : null) : null,
    control
      ? controls(app)
      : h('p', null, h('button', { type: 'button', class: 'btn', 'data-testid': 'camera-unlock', onclick: () => { app.ui.pinOpen = true; app.render(false); } }, t('cameraNeedsPin'))),
  ];
  return h('section', { class: 'camera-setup', 'data-testid': 'camera-setup' }, title, body);
}
