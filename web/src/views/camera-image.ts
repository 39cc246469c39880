/**
 * The camera set-up page's image: the live camera frame, the tray and kept zone over it, the dice it
 * reads at rest boxed with their sizes, and the gestures that draw an area (drag a rectangle, tap four
 * corners) or adjust one (drag a corner). What the gestures mean for the page is the caller's
 * (`ImageGestures`, views/camera.ts).
 */
import type { App } from '../app.ts';
import { h, s } from '../dom.ts';
import { t } from '../i18n.ts';
import { areaCorners, dragRect, moveCorner, nearestCorner, type Point } from './area-geometry.ts';
import { areaShape } from './areas.ts';
import type { AreaConfig, CalibrationConfig } from '../types.ts';

export type Zone = 'tray' | 'keptZone';

/** The dice sizes the camera should see (hardware.md, "Calibration"), in pixels of its frame. */
export const DIE_PX = { min: 20, max: 70 } as const;
const REFRESH_MS = 1000;

/** A tap moves the pointer less than this share of the image between press and release; more is a drag. */
const TAP = 0.01;

/** How far an arrow key moves a focused corner, in shares of the image (Shift: four times as far). */
const KEY_STEPS: Record<string, [number, number]> = { ArrowLeft: [-0.005, 0], ArrowRight: [0.005, 0], ArrowUp: [0, -0.005], ArrowDown: [0, 0.005] };

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

/** The line under the image: how many dice at rest, how large, against what the reader reads best; dice over the tray's line. */
export function sizeText(app: App): { text: string; kind: 'ok' | 'waiting' } {
  const sizes = diceSizes(app);
  const outside = app.vision?.settled ? (app.vision.outside?.length ?? 0) : 0;
  if (outside === 0) return sizeVerdict(sizes);
  const over = t('cameraDiceOutside', { n: outside });
  return { text: sizes ? `${sizeVerdict(sizes).text} ${over}` : over, kind: 'waiting' };
}

function sizeVerdict(sizes: { n: number; min: number; max: number } | null): { text: string; kind: 'ok' | 'waiting' } {
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
  // just over the line of the saved tray: seen, never counted
  for (const d of v.outside ?? []) {
    group.append(
      s('rect', { class: 'outside', x: (d.x - d.w / 2) * sx, y: (d.y - d.h / 2) * sy, width: d.w * sx, height: d.h * sy }),
      s('text', { class: 'outside', x: d.x * sx, y: (d.y + d.h / 2) * sy + 20, 'text-anchor': 'middle' }, '×'),
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

const ZONES: { zone: Zone; cls: string; testid: string }[] = [
  { zone: 'tray', cls: 'tray', testid: 'tray' },
  { zone: 'keptZone', cls: 'kept', testid: 'kept' },
];

/** The areas set, as the corner-moving geometry takes them. */
export function areasOf(cal: CalibrationConfig | null): { zone: Zone; area: AreaConfig }[] {
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
        group.append(s('circle', {
          class: `handle ${cls}`, 'data-testid': `handle-${testid}-${i}`, 'data-zone': zone, 'data-index': i, cx: c.x * W, cy: c.y * H, r: W / 90,
          tabindex: 0, role: 'button', 'aria-label': t('cameraCornerLabel', { area: t(zone === 'tray' ? 'cameraLegendTray' : 'cameraLegendKept'), n: i + 1 }),
        })));
    }
  }
  return group;
}

/** What the image shows and may do: the areas, the area being drawn and its corners tapped so far, the PIN. */
export interface ImageState {
  areas: CalibrationConfig | null;
  drawing: Zone | null;
  corners: Point[];
  control: boolean;
}

/** What the gestures on the image do; each ends with the page rendered again by the caller. */
export interface ImageGestures {
  /** a rectangle dragged while drawing (null: too small) */
  dragged(zone: Zone, rect: AreaConfig | null): void;
  /** a corner tapped while drawing */
  tapped(zone: Zone, corner: Point): void;
  /** a corner of an area moved */
  adjusted(zone: Zone, area: AreaConfig): void;
  /** a drag dropped by the browser (a second finger, the page scrolled away) */
  cancelled(): void;
}

/**
 * The live camera image with the areas over it, the dice it reads boxed with their sizes, and, with the
 * PIN, the gestures: while drawing, drag a rectangle or tap corners; otherwise drag an area's corner.
 * `sizes` is the line under the image saying how large the dice are, kept live with it.
 */
export function cameraImage(app: App, state: ImageState, on: ImageGestures, sizes: HTMLElement): HTMLElement {
  const img = liveImage(app);
  img.alt = t('camera');
  const cal = state.areas;
  const control = state.control;
  const { width: W, height: H } = frameSize(app, img);
  const adjustable = control && !state.drawing;
  const overlay = s('svg', { class: 'setup-overlay', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none' },
    areasDrawn(cal, W, H, adjustable),
    state.corners.length > 1 ? s('polyline', { class: 'area-drawing', points: state.corners.map((c) => `${c.x * W},${c.y * H}`).join(' ') }) : null,
    state.corners.map((c) => s('circle', { class: 'corner', 'data-testid': 'corner', cx: c.x * W, cy: c.y * H, r: W / 120 })),
  );
  const wrap = h('div', { class: `frame-wrap setup-wrap${state.drawing ? ' drawing' : ''}`, 'data-testid': 'setup-wrap' }, img, overlay);
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
    // a corner mark focused from the keyboard: the arrow keys move it (with Shift, further)
    wrap.addEventListener('keydown', (e: KeyboardEvent) => {
      const handle = e.target instanceof SVGElement && e.target.classList.contains('handle') ? e.target : null;
      const step = KEY_STEPS[e.key];
      if (!adjustable || !handle || !step) return;
      e.preventDefault();
      const zone = handle.dataset.zone as Zone;
      const index = Number(handle.dataset.index);
      const area = cal?.[zone];
      const corner = area ? areaCorners(area)[index] : undefined;
      if (!area || !corner) return;
      const far = e.shiftKey ? 4 : 1;
      const moved = moveCorner(area, index, { x: corner.x + step[0] * far, y: corner.y + step[1] * far });
      if (moved) on.adjusted(zone, moved);
    });
    wrap.addEventListener('pointerdown', (e: PointerEvent) => {
      if (!state.drawing) {
        const hit = cornerAt(e);
        const area = hit && cal?.[hit.zone];
        if (!hit || !area) return;
        e.preventDefault();
        wrap.setPointerCapture?.(e.pointerId);
        adjusting = { ...hit, from: area, now: area };
        wrap.classList.add('adjusting');
        return;
      }
      e.preventDefault();
      wrap.setPointerCapture?.(e.pointerId);
      start = at(e);
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
      adjusting = null;
      start = null;
      rubber = null;
      on.cancelled();
    });
    wrap.addEventListener('pointerup', (e: PointerEvent) => {
      if (adjusting) {
        const { zone, from, now } = adjusting;
        adjusting = null;
        if (now !== from) on.adjusted(zone, now);
        else on.cancelled();
        return;
      }
      if (!start || !state.drawing) return;
      const end = at(e);
      const tapped = Math.abs(end.x - start.x) < TAP && Math.abs(end.y - start.y) < TAP;
      const from = start;
      start = null;
      rubber = null;
      if (tapped) on.tapped(state.drawing, end);
      else on.dragged(state.drawing, dragRect(from, end));
    });
  }
  keepLive(app, img, sizes, overlay, { width: W, height: H });
  return wrap;
}
