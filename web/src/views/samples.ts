/**
 * Dice photos: players and game stores photograph their own dice with the table's camera, correct
 * what the camera read and save the photo with those labels in the service's dice-samples folder, so
 * that `npm run dice:eval -- --data FOLDER` measures the dice reader on dice it never saw.
 *
 * "Take photo" holds the camera's last frame read with the dice at rest (server/http/sample-routes.ts);
 * every die is a box over the photo (positions in % of the photo, so it scales). Tapping a die cycles
 * its label 1 → … → 6 → cocked → 1; × removes a false die; tapping an empty spot adds a die there,
 * undecided ("?") until its face is picked. The photo and its labels live in `app.ui.samples`, so the
 * app's re-renders (one per state push) keep them.
 */
import type { App, SampleBox, SamplesUi } from '../app.ts';
import { h, type Child } from '../dom.ts';
import { modelText, shareText } from '../format.ts';
import { t, tk } from '../i18n.ts';
import { problemText } from '../refusals.ts';
import { ask } from './ask.ts';
import { askModel, teachView } from './teach.ts';
import type { HeldPhoto, LabelledSampleDie, PhotosMeasure, Reply, SeenDie } from '../types.ts';

/** The most dice one photo may label (the service's limit, server/vision/dice-sample.ts). */
export const MAX_PHOTO_DICE = 40;
/** A die added by hand where no die on the photo gives a size: this share of the photo's width. */
const ADDED_DIE_SHARE = 0.06;
/** Shown for a cocked die (no face up). */
export const COCKED_MARK = '∠';

type Face = SampleBox['face'];

/** The label a tap gives a die: ? → 1 → 2 → … → 6 → cocked → 1. */
export function nextFace(face: Face): Face {
  if (face === null || face === 'cocked') return 1;
  return face === 6 ? 'cocked' : ((face + 1) as Face);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The size of a die added by hand: the median of the dice on the photo, else 6 % of its width. */
export function addedDieSize(dice: readonly { w: number; h: number }[], width: number, height: number): { w: number; h: number } {
  const size = dice.length ? { w: median(dice.map((d) => d.w)), h: median(dice.map((d) => d.h)) } : { w: width * ADDED_DIE_SHARE, h: width * ADDED_DIE_SHARE };
  const fit = (v: number, max: number) => Math.round(Math.min(Math.max(v, 2), max) * 10) / 10;
  return { w: fit(size.w, width), h: fit(size.h, height) };
}

/** The camera's dice as boxes to label: a die it could not read starts undecided. */
export function boxesFromRead(dice: readonly SeenDie[]): SampleBox[] {
  return dice.map((d) => {
    const face = Number.isInteger(d.face) && d.face! >= 1 && d.face! <= 6 ? (d.face as Face) : null;
    return { x: d.x, y: d.y, w: d.w, h: d.h, face, ...(face === null && d.unreadable ? { unreadable: d.unreadable } : {}) };
  });
}

/** The labels to save, or null while a die is undecided. */
export function labelledDice(dice: readonly SampleBox[]): LabelledSampleDie[] | null {
  if (dice.some((d) => d.face === null)) return null;
  return dice.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face as LabelledSampleDie['face'] }));
}

function faceMark(face: Face): string {
  return face === null ? '?' : face === 'cocked' ? COCKED_MARK : String(face);
}

function faceWords(face: Face): string {
  return face === null ? t('sampleFaceUndecided') : face === 'cocked' ? t('sampleFaceCocked') : String(face);
}

function photos(n: number): string {
  return n === 1 ? t('photoCountOne') : t('photoCount', { n });
}

/** The labels as saved, to tell whether they changed since. */
function labelsKey(dice: readonly SampleBox[]): string {
  return JSON.stringify(dice.map((d) => [d.x, d.y, d.w, d.h, d.face]));
}
let savedLabels: { hold: string; key: string } | null = null;

/** Labels on the held photo that are not in the folder: changed from the reader's and never saved, or changed since saved. */
export function samplesUnsaved(ui: SamplesUi): boolean {
  const held = ui.held;
  if (!held || ui.imageGone) return false;
  const key = labelsKey(ui.dice);
  return ui.savedAs && savedLabels?.hold === held.hold ? savedLabels.key !== key : key !== labelsKey(ui.read);
}

function fail(app: App, error: { code: string; message: string }): void {
  const ui = app.ui.samples;
  ui.error = error;
  if (error.code === 'pinRequired') app.ui.pinOpen = true;
  if (error.code === 'holdGone') ui.imageGone = true;
}

function takeHeld(ui: SamplesUi, held: HeldPhoto): void {
  ui.held = { hold: held.hold, width: held.width, height: held.height, imageUrl: held.imageUrl, within: held.within ?? null, movedAt: held.movedAt };
  ui.dice = boxesFromRead(held.dice);
  ui.read = ui.dice.map((d) => ({ ...d }));
  ui.folder = held.folder;
  ui.saved = held.saved;
  ui.savedAs = null;
  ui.imageGone = false;
  ui.focus = null;
  savedLabels = null;
}

/**
 * One request of the page: refused while `flag` says one is running; the page shows it running, then
 * `done` takes the answer, or the problem is shown.
 */
async function request<T>(app: App, flag: 'busy' | 'measuring', ask: () => Promise<Reply<T>>, done: (data: T) => void): Promise<void> {
  const ui = app.ui.samples;
  if (ui[flag]) return;
  ui[flag] = true;
  ui.error = null;
  app.render(false);
  const reply = await ask();
  ui[flag] = false;
  if (reply.ok) done(reply.data);
  else fail(app, reply.error);
  app.render(false);
}

/**
 * Holds the camera's last reading of resting dice as the photo to label. Labels not saved are given up
 * only when the player says so; the same resting dice again (nothing moved since) keep their labels.
 */
export async function takePhoto(app: App): Promise<void> {
  const ui = app.ui.samples;
  if (samplesUnsaved(ui) && !(await ask(app, t('samplesDropLabels'), t('newPhoto')))) return;
  const before = ui.held && !ui.imageGone ? ui.held : null;
  await request(app, 'busy', () => app.client.holdDicePhoto(), (held) => {
    if (before && (held.hold === before.hold || (held.movedAt !== null && held.movedAt === before.movedAt))) {
      app.showToast(t('samplesSamePhoto'), 'ok');
      return;
    }
    takeHeld(ui, held);
  });
}

async function savePhoto(app: App): Promise<void> {
  const ui = app.ui.samples;
  const held = ui.held;
  const dice = labelledDice(ui.dice);
  if (!held || !dice || dice.length > MAX_PHOTO_DICE) return;
  const key = labelsKey(ui.dice);
  await request(app, 'busy', () => app.client.saveDicePhoto(held.hold, dice), (saved) => {
    ui.saved = saved.saved;
    ui.folder = saved.folder;
    ui.savedAs = saved.image;
    savedLabels = { hold: held.hold, key };
    app.showToast(t(saved.replaced ? 'samplesReplacedToast' : 'samplesSavedToast', { photos: photos(saved.saved) }), 'ok');
  });
}

async function removePhoto(app: App): Promise<void> {
  const ui = app.ui.samples;
  const held = ui.held;
  if (!held || !ui.savedAs) return;
  await request(app, 'busy', () => app.client.removeDicePhoto(held.hold), (removed) => {
    ui.saved = removed.saved;
    ui.savedAs = null;
    savedLabels = null;
    app.showToast(t('samplesRemovedToast', { photos: photos(removed.saved) }), 'ok');
  });
}

/** Downloads the saved photos as one ZIP file (made by the service, handed to the browser as a file). */
async function downloadPhotos(app: App): Promise<void> {
  await request(app, 'busy', () => app.client.diceSamplesArchive(), ({ blob, filename }) => {
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: filename, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    // a minute is long enough for the browser to have read the file from it
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    app.showToast(t('archiveToast', { file: filename }), 'ok');
  });
}

async function measurePhotos(app: App): Promise<void> {
  await request(app, 'measuring', () => app.client.measureDicePhotos(), (measure) => (app.ui.samples.measure = measure));
}


/** The reader's figures on the saved photos, as `npm run dice:eval` prints them: rates, the dice marked cocked, the confusion matrix. */
function measureView(m: PhotosMeasure): HTMLElement {
  const model = taughtModelFolder(m.folder);
  const cocked = m.setAside.find((a) => a.kind === 'cocked')?.reads;
  const heads = ['1', '2', '3', '4', '5', '6', t('measureNotSure'), t('measureMissed')];
  const table = h('table', { class: 'measure-confusion', 'data-testid': 'measure-confusion' },
    h('thead', null, h('tr', null, h('th', null, t('measureTrueFace')), heads.map((x) => h('th', null, x)))),
    h('tbody', null, m.confusion.map((row, f) => h('tr', null, h('th', null, String(f + 1)),
      row.map((n, c) => h('td', { class: n === 0 ? 'zero' : c === f ? 'right' : 'wrong' }, String(n)))))));
  return h('div', { class: 'samples-measure', 'data-testid': 'samples-measure' },
    h('p', { 'data-testid': 'measure-figures' }, t('measureResult', {
      photos: photos(m.images), dice: m.dice, face: shareText(m.faceAccuracy), recall: shareText(m.recall), precision: shareText(m.precision), whole: shareText(m.wholeRollAccuracy),
    })),
    m.labelledImages > m.images ? h('p', { class: 'hint' }, t('measureLimit', { n: m.images, total: m.labelledImages })) : null,
    m.model ? h('p', { class: 'hint', 'data-testid': 'measure-model' }, t('measureModel', { model: modelText(m.model) })) : null,
    m.taughtLeftOut > 0 ? h('p', { class: 'hint', 'data-testid': 'measure-taught' }, t('measureTaught', { photos: photos(m.taughtLeftOut) })) : null,
    cocked && cocked.dice > 0 ? h('p', null, t('measureCocked', { ...cocked })) : null,
    m.unreadable.length ? h('p', { class: 'hint waiting' }, t('measureUnreadable', { list: m.unreadable.map((u) => `${u.image} (${u.reason})`).join(', ') })) : null,
    m.dice > 0 ? table : null,
    h('p', { class: 'hint' }, t('measureSame'), ' ', h('code', null, `npm run dice:eval -- --data ${m.folder}`)),
    h('p', { class: 'hint', 'data-testid': 'measure-teach' }, t('measureTeach', { model }), ' ', h('code', null, `npm run model:adapt -- --photos ${m.folder} --out ${model}`)),
  );
}

/** Where the model taught the photos of `folder` is suggested to go: beside the photos folder. */
function taughtModelFolder(folder: string): string {
  return folder.replace(/[^\\/]+[\\/]?$/, 'dice-model');
}

/** Asks once per connection for the folder and how many photos it holds. */
function askFolder(app: App): void {
  const ui = app.ui.samples;
  if (ui.asked || !app.snap?.canControl) return;
  ui.asked = true;
  void app.client.diceSamples().then((reply) => {
    if (reply.ok) {
      ui.folder = reply.data.folder;
      ui.saved = reply.data.saved;
    } else if (!ui.error) {
      fail(app, reply.error);
    }
    if (app.view === 'samples') app.render(false);
  });
}

/** One <img> per held photo, kept across re-renders (no reload, no flicker, the page does not jump). */
let image: { url: string; el: HTMLImageElement } | null = null;

function photoImage(app: App, url: string, width: number, height: number): HTMLImageElement {
  if (image?.url === url) return image.el;
  const el = h('img', { class: 'sample-img', src: url, alt: t('samplesPhotoAlt'), width, height, draggable: 'false', 'data-testid': 'sample-photo' });
  el.addEventListener('error', () => {
    if (app.ui.samples.held?.imageUrl !== url) return;
    app.ui.samples.imageGone = true;
    app.render(false);
  });
  // a tap where there is no die adds one there, undecided
  el.addEventListener('click', (e: MouseEvent) => {
    const ui = app.ui.samples;
    const held = ui.held;
    if (!held || held.imageUrl !== url || ui.dice.length >= MAX_PHOTO_DICE) return;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return;
    const fx = Math.min(Math.max((e.clientX - rect.left) / rect.width, 0), 1);
    const fy = Math.min(Math.max((e.clientY - rect.top) / rect.height, 0), 1);
    const within = readRegion(ui);
    if (within && (fx < within.x || fx > within.x + within.w || fy < within.y || fy > within.y + within.h)) {
      // the camera never looks there: a die beyond its tray is never counted (the service refuses it too)
      ui.error = { code: 'outsideTray', message: t('samplesOutsideTray') };
      app.render(false);
      return;
    }
    if (ui.error?.code === 'outsideTray') ui.error = null;
    const size = addedDieSize(ui.dice, held.width, held.height);
    ui.dice.push({ x: Math.round(fx * held.width * 10) / 10, y: Math.round(fy * held.height * 10) / 10, ...size, face: null });
    ui.focus = null;
    app.render(false);
  });
  image = { url, el };
  return el;
}

const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(3)}%`;

function dieBox(app: App, d: SampleBox, i: number, width: number, height: number): HTMLElement {
  const ui = app.ui.samples;
  const kind = d.face === null ? 'undecided' : d.face === 'cocked' ? 'cocked' : d.face === 1 ? 'face-1' : 'decided';
  const why = d.face === null && d.unreadable ? t('sampleCameraSaid', { why: tk(`unreadable_${d.unreadable}`) }) : null;
  const faceKey = `sample-die-${i}`;
  const face = h('button', {
    type: 'button',
    class: 'sample-face',
    'data-testid': faceKey,
    'aria-label': `${t('sampleDieLabel', { n: i + 1, face: faceWords(d.face) })}${why ? ` (${why})` : ''}`,
    title: why,
    onclick: () => {
      const die = ui.dice[i];
      if (!die) return;
      die.face = nextFace(die.face);
      delete die.unreadable;
      ui.focus = faceKey;
      app.render(false);
    },
  }, h('span', { class: 'sample-mark', 'aria-hidden': 'true' }, faceMark(d.face)));
  const remove = h('button', {
    type: 'button',
    class: 'sample-del',
    'data-testid': `sample-del-${i}`,
    'aria-label': t('sampleDieRemove', { n: i + 1 }),
    onclick: () => {
      ui.dice.splice(i, 1);
      ui.focus = null;
      app.render(false);
    },
  }, '×');
  // the label sits above the die (below it near the photo's top edge) so the die itself stays visible
  const below = d.y - d.h / 2 < height * 0.12;
  const box = h('div', { class: `sample-die ${kind}${below ? ' mark-below' : ''}`, 'data-face': d.face === null ? '?' : String(d.face), 'data-index': i }, face, remove);
  box.style.left = pct(d.x, width);
  box.style.top = pct(d.y, height);
  box.style.width = pct(d.w, width);
  box.style.height = pct(d.h, height);
  if (ui.focus === faceKey) {
    // the button was rebuilt: give it the focus back (keyboard users), unless something else has it
    queueMicrotask(() => {
      if (face.isConnected && (document.activeElement === null || document.activeElement === document.body)) face.focus({ preventScroll: true });
    });
  }
  return box;
}

/** The part of the photo the camera reads, when it is not the whole photo. */
function readRegion(ui: SamplesUi): { x: number; y: number; w: number; h: number } | null {
  const within = ui.held?.within;
  return within && (within.x > 0 || within.y > 0 || within.w < 1 || within.h < 1) ? within : null;
}

function photoView(app: App): Child {
  const ui = app.ui.samples;
  const held = ui.held;
  if (!held) return null;
  // (a refused save says so already, by its code)
  if (ui.imageGone) return ui.error?.code === 'holdGone' ? null : h('p', { class: 'hint waiting', role: 'status' }, t('samplesImageGone'));
  const within = readRegion(ui);
  let region: HTMLElement | null = null;
  if (within) {
    // the part of the photo the camera reads (the calibrated tray and kept zone)
    region = h('div', { class: 'sample-region', 'aria-hidden': 'true' });
    region.style.left = pct(within.x, 1);
    region.style.top = pct(within.y, 1);
    region.style.width = pct(within.w, 1);
    region.style.height = pct(within.h, 1);
  }
  const wrap = h('div', { class: 'sample-photo', 'data-testid': 'sample-photo-wrap' },
    photoImage(app, held.imageUrl, held.width, held.height),
    region,
    ui.dice.map((d, i) => dieBox(app, d, i, held.width, held.height)));
  // as wide as the page allows, but never taller than most of the screen
  wrap.style.aspectRatio = `${held.width} / ${held.height}`;
  wrap.style.width = `min(100%, ${((85 * held.width) / held.height).toFixed(2)}vh)`;
  return wrap;
}

function summary(ui: SamplesUi): string {
  const undecided = ui.dice.filter((d) => d.face === null).length;
  const cocked = ui.dice.filter((d) => d.face === 'cocked').length;
  return t('samplesSummary', { n: ui.dice.length, cocked, undecided });
}

export function samplesView(app: App): HTMLElement {
  const snap = app.snap;
  const ui = app.ui.samples;
  const intro = [
    h('h2', null, t('samplesTitle')),
    h('p', { class: 'samples-why' }, t('samplesWhy')),
    h('p', { class: 'samples-how' }, t('samplesHow')),
  ];
  if (!snap) return h('section', { class: 'samples' }, intro, h('p', { class: 'hint' }, t('connecting')));
  const camera = snap.hardware.camera;
  if (camera.kind === 'none' || camera.state === 'off') {
    return h('section', { class: 'samples' }, intro, h('p', { class: 'no-game', 'data-testid': 'samples-no-camera' }, t('samplesNoCamera')));
  }
  if (!snap.canControl) {
    return h('section', { class: 'samples' }, intro,
      h('p', { class: 'no-game' }, t('samplesNeedPin')),
      h('button', { type: 'button', class: 'btn primary big-btn', onclick: () => app.askPin() }, t('unlock')));
  }
  askFolder(app);
  askModel(app);

  const held = ui.held && !ui.imageGone ? ui.held : null;
  const undecided = ui.dice.filter((d) => d.face === null).length;
  const over = ui.dice.length - MAX_PHOTO_DICE;
  const blocked = !held ? null : undecided > 0 ? t('samplesUndecided', { n: undecided }) : over > 0 ? t('samplesTooMany', { max: MAX_PHOTO_DICE, n: over }) : null;
  const changed = held && ui.savedAs && savedLabels?.hold === held.hold && savedLabels.key !== labelsKey(ui.dice);
  const problem = ui.error ? problemText(ui.error) : null;
  const off = ui.error?.code === 'samplesOff';

  return h('section', { class: 'samples', 'data-testid': 'samples' },
    intro,
    h('p', { class: 'samples-folder', 'data-testid': 'samples-folder' },
      ui.saved !== null ? h('span', { 'data-testid': 'samples-count' }, t('samplesCount', { photos: photos(ui.saved) })) : null,
      ui.folder ? h('span', null, ' · ', t('samplesFolder'), ' ', h('code', null, ui.folder)) : null),
    ui.saved ? h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn', 'data-testid': 'measure-photos', disabled: ui.measuring, onclick: () => void measurePhotos(app) }, t('measureButton')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'archive-photos', disabled: ui.busy, onclick: () => void downloadPhotos(app) }, t('archiveButton')),
      ui.measuring ? h('span', { class: 'hint' }, t('measuring')) : null) : null,
    ui.saved ? h('p', { class: 'hint' }, t('archiveHint')) : null,
    ui.measure ? measureView(ui.measure) : null,
    camera.state !== 'ok' ? h('p', { class: 'hint waiting' }, t('samplesCameraLost'), camera.message ? ` (${camera.message})` : '') : null,
    h('div', { class: 'samples-actions' },
      h('div', { class: 'row' },
        h('button', { type: 'button', class: `btn big-btn${held ? '' : ' primary'}`, 'data-testid': 'take-photo', disabled: ui.busy || off, onclick: () => void takePhoto(app) },
          held ? t('newPhoto') : t('takePhoto')),
        held
          ? h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'save-photo', disabled: ui.busy || blocked !== null, title: blocked, onclick: () => void savePhoto(app) }, t('savePhoto'))
          : null,
        held && labelsKey(ui.dice) !== labelsKey(ui.read)
          ? h('button', { type: 'button', class: 'btn', 'data-testid': 'reset-labels', disabled: ui.busy, onclick: () => { ui.dice = ui.read.map((d) => ({ ...d })); ui.focus = null; app.render(false); } }, t('resetLabels'))
          : null,
        ui.busy ? h('span', { class: 'hint' }, t('samplesWorking')) : null),
      blocked ? h('p', { class: 'hint waiting', 'data-testid': 'save-blocked' }, blocked) : null,
      held && ui.savedAs ? h('p', { class: changed ? 'hint waiting' : 'hint saved', 'data-testid': 'saved-as' }, changed ? t('samplesChanged', { file: ui.savedAs }) : t('samplesSavedAs', { file: ui.savedAs }),
        ' ', h('button', { type: 'button', class: 'btn small', 'data-testid': 'remove-photo', disabled: ui.busy, onclick: () => void removePhoto(app) }, t('removePhoto'))) : null,
      problem ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'samples-error', 'data-code': ui.error!.code }, problem.text, problem.detail ? h('span', { class: 'toast-detail' }, problem.detail) : null) : null,
    ),
    held ? h('p', { class: 'samples-summary' }, h('span', { 'data-testid': 'samples-summary' }, summary(ui)), ' · ', h('span', { class: 'hint' }, t('samplesLegend')),
      readRegion(ui) ? h('span', { class: 'hint' }, ' · ', t('samplesRegion')) : null) : null,
    held && !ui.dice.length ? h('p', { class: 'hint' }, t('samplesNoDice')) : null,
    photoView(app),
    // last: it arrives a moment after the page, and must not move the photo being tapped
    teachView(app, ui.saved),
  );
}
