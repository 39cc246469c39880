/**
 * The roll panel: camera image with every die outlined, the tracker's figures (locked 1s, fuel,
 * best result, what is needed), the odds, manual entry of the faces, throw / confirm / undo.
 */
import { rollOdds, rollOddsNow } from '../../../server/dice/odds.ts';
import { readYorktownAttack } from '../../../server/games/yorktown1942/japanese.ts';
import { CAUTIOUS_SUFFIX, TIER_STRATEGY } from '../../../server/dice/tier-odds.ts';
import { isRejection } from '../../../server/dice/roll-tracker.ts';
import { withoutLockedOnes } from '../../../server/dice/faces.ts';
import { TARGET_STRATEGY } from '../../../server/dice/target-policy.ts';
import type { RollOdds, RollResult, RollTier } from '../../../server/dice/types.ts';
import type { App } from '../app.ts';
import { h, keepOpenState, s, type Child } from '../dom.ts';
import { diceText, hitsText, t, tk, type Key } from '../i18n.ts';
import type { RollWithOdds, VisionUpdate } from '../types.ts';
import { optionKey, splitOptions, type SplitOption } from '../split.ts';
import { decimalText } from '../format.ts';
import { takePhoto } from './samples.ts';
import { areaShape } from './areas.ts';
import { SENDS } from '../offline.ts';

/** The engine's words for where each die comes from, in the chosen language (unknown words as they are). */
const REASONS: Record<string, Key> = {
  skill: 'reason_skill',
  fuel: 'reason_fuel',
  'allies attacking': 'reason_alliesAttacking',
  'allies searching': 'reason_alliesSearching',
  bomb: 'reason_bomb',
  'drop tank': 'reason_dropTank',
  storm: 'reason_storm',
  'CAP fighters': 'reason_capFighters',
};

/** The engine's words for where each die comes from, in the chosen language (unknown words as they are). */
export function reasonText(reason: string): string {
  const known = REASONS[reason];
  if (known) return t(known);
  const search = /^search (\d+)$/.exec(reason);
  if (search) return t('reason_search', { n: search[1]! });
  const attack = /^(jake|kate|zeke|attacker) attack$/.exec(reason);
  if (attack) return t('reason_attack', { plane: attack[1] === 'attacker' ? '' : tk(`jap_${attack[1]}`) }).trim();
  return reason;
}

/**
 * Where the roll's dice come from, each source before its dice ("skill dice 3, fuel +1, bomb −1"): a
 * number after "+" read as skill gained.
 */
function breakdownText(parts: readonly { reason: string; dice: number }[]): string {
  return parts.map((b, i) => `${reasonText(b.reason)} ${b.dice < 0 ? `−${-b.dice}` : i > 0 ? `+${b.dice}` : b.dice}`).join(', ');
}

export function tierLabel(app: App, roll: RollWithOdds, tier: RollTier): string {
  const rules = app.rules();
  const m = /^(raise|hits)(\d+)$/.exec(tier.id);
  if (m && m[1] === 'raise') return t('tier_raise', { n: rules.search.tiers[Number(m[2])]?.raise ?? '?' });
  if (m && m[1] === 'hits') {
    const hits = rules.shoho.tiers[Number(m[2])]?.hits;
    // enough hits to sink it from no hits: said so, not "3 hits"
    return hits !== undefined && hits >= rules.shoho.hitsToSink ? t('tier_sunk') : t('tier_hits', { hits: hitsText(hits ?? '?') });
  }
  return tk(`tier_${tier.id}`);
}

export function targetLabel(roll: RollWithOdds, id: string): string {
  const info = roll.targets?.find((x) => x.id === id);
  if (!info) return id;
  // two Jakes on one island are told apart: each needs its own equal dice
  const alike = (roll.targets ?? []).filter((x) => x.plane === info.plane && x.island === info.island);
  const nth = alike.length > 1 ? ` ${alike.indexOf(info) + 1}` : '';
  return `${tk(`jap_${info.plane}`)}${nth}${info.island !== null ? ` (${t('island', { n: info.island })})` : ` (${t('cap')})`}`;
}

function bestText(app: App, roll: RollWithOdds, best: RollResult): string {
  // before the first throw is read, not the worst result (a landing's "crash, pilot injured")
  if (roll.tracker.faces === null) return t('nothingYet');
  if (best.kind === 'tier') {
    if (best.equal === 0 && !best.tierId) return t('nothingYet');
    const goal = roll.tracker.spec.goal;
    const tier = goal.kind === 'tiers' ? goal.tiers.find((x) => x.id === best.tierId) : undefined;
    // a single die of its face is no group: "1 × 5" said nothing
    const groups = best.value && best.equal >= 2 ? t('equalOf', { n: best.equal, v: best.value }) : best.value ? t('noneAlike') : '';
    return [groups, tier ? `→ ${tierLabel(app, roll, tier)}` : ''].filter(Boolean).join(' ') || t('nothingYet');
  }
  if (best.kind === 'targets') {
    if (!best.taken.length) return t('nothingYet');
    return best.taken.map((x) => `${targetLabel(roll, x.targetId)} ${t('takenWith', { v: x.value })}`).join(', ');
  }
  if (roll.purpose === 'yorktownAttack') {
    // what the single roll does: pairs hit, a pair of the anti-aircraft face shoots the attacker down
    const read = readYorktownAttack(app.rules().yorktown, best.faces);
    const parts = [t('attackHitsYorktown', { hits: hitsText(read.hits) })];
    if (read.attackerDestroyed) parts.push(t('ev_attackerDown'));
    return `${best.faces.join(' ')} → ${parts.join(' · ')}`;
  }
  return best.faces.join(' ');
}

function neededView(app: App, roll: RollWithOdds): Child {
  const goal = roll.tracker.spec.goal;
  if (goal.kind === 'tiers') {
    return h('ul', { class: 'needs' }, goal.tiers.filter((x) => x.equal > 0 || goal.tiers.length === 1).map((tier) =>
      h('li', null, h('strong', null, t('equalDice', { n: tier.equal })), ' → ', tierLabel(app, roll, tier))));
  }
  if (goal.kind === 'targets') {
    return h('ul', { class: 'needs' }, goal.targets.map((target) =>
      h('li', null, h('strong', null, t('equalDice', { n: target.equal })), ' → ', targetLabel(roll, target.id), ` (${t('targetSkill', { n: target.value })})`)));
  }
  const yorktown = app.rules().yorktown;
  return h('p', { class: 'hint' }, t(yorktown.aaKillPlacesNoPlane ? 'yorktownAttackHintNone' : 'yorktownAttackHint', { aa: yorktown.aaFace }));
}

/** The odds the service sent, or the dice module's own figures for the roll's spec. */
export function oddsOf(roll: RollWithOdds): RollOdds | null {
  if (roll.odds) return roll.odds;
  try {
    return rollOdds(roll.tracker.spec);
  } catch {
    return null;
  }
}

/** The odds module's strategy sentence in the chosen language (as sent when it is not one of its own). */
export function strategyText(strategy: string): string {
  const cautious = strategy.endsWith(CAUTIOUS_SUFFIX);
  const base = cautious ? strategy.slice(0, -CAUTIOUS_SUFFIX.length) : strategy;
  const known = base === TIER_STRATEGY ? t('strategy_tier') : base === TARGET_STRATEGY ? t('strategy_targets') : base.startsWith('A single roll') ? t('strategy_single') : null;
  if (!known) return strategy;
  return cautious ? `${known} ${t('strategy_cautious')}` : known;
}

/** The odds from the dice showing now (the service's, or the dice module's own), null before the first reading. */
export function oddsNowOf(roll: RollWithOdds): RollOdds | null {
  if (roll.tracker.faces === null) return null;
  if (roll.oddsNow) return roll.oddsNow;
  try {
    return rollOddsNow(roll.tracker);
  } catch {
    return null;
  }
}

/**
 * A roll whose every end is one of its results (a landing: safe, crash unharmed, crash injured with no
 * pair): the chance of each, best first, which add up to 100 %, rather than the chance of reaching at
 * least each (100 % for the worst, which reads as a certain crash).
 */
function outcomeRows(tiers: RollTier[], label: (x: RollTier) => string, odds: RollOdds, start: RollOdds | null): [string, number, number | null][] {
  const best = [...tiers].sort((a, b) => b.equal - a.equal);
  const exactly = (o: RollOdds, i: number) => (best[i].equal === 0 ? 1 : (o.reach[best[i].id] ?? 0)) - (i === 0 ? 0 : (o.reach[best[i - 1].id] ?? 0));
  return best.map((x, i): [string, number, number | null] => [label(x), Math.max(0, exactly(odds, i)), start ? Math.max(0, exactly(start, i)) : null]);
}

function oddsView(app: App, roll: RollWithOdds): Child {
  const start = oddsOf(roll);
  // once dice show, what they can still reach (a locked 1 can make a target impossible, a reading can reach it)
  const now = oddsNowOf(roll);
  const odds = now ?? start;
  const goal = roll.tracker.spec.goal;
  if (!odds || goal.kind === 'faces') return h('p', { class: 'hint' }, t('oddsUnavailable'));
  const reachOf = (o: RollOdds | null, id: string) => (o ? (o.reach[id] ?? 0) : null);
  // the targets the dice showing hit already (the split picked, else the best): their figure is the chance they still are when the roll ends
  const best = roll.tracker.best;
  const split = now ? splitOf(roll) : null;
  const takenNow = new Set(split ? chosenSplit(app, roll, split).ids : now && best.kind === 'targets' ? best.taken.map((x) => x.targetId) : []);
  const rows: [string, number, number | null, boolean][] =
    goal.kind === 'tiers' && goal.tiers.some((x) => x.equal === 0)
      ? outcomeRows(goal.tiers, (x) => tierLabel(app, roll, x), odds, now ? start : null).map(([label, p, atStart]) => [label, p, atStart, false])
      : goal.kind === 'tiers'
      ? goal.tiers.filter((x) => x.equal > 0).map((x): [string, number, number | null, boolean] => [tierLabel(app, roll, x), reachOf(odds, x.id)!, now ? reachOf(start, x.id) : null, false])
      : goal.targets.map((x): [string, number, number | null, boolean] => [targetLabel(roll, x.id), reachOf(odds, x.id)!, now ? reachOf(start, x.id) : null, takenNow.has(x.id)]);
  const pct = (p: number) => `${Math.round(p * 100)}%`;
  const was = (p: number | null, nowP: number) => (p !== null && pct(p) !== pct(nowP) ? h('span', { class: 'odds-start' }, t('oddsWas', { p: pct(p) })) : null);
  const bars = rows.map(([label, p, atStart, taken]) => {
    const fill = h('span', { class: 'odds-fill' });
    fill.style.width = pct(p);
    return h('li', { class: taken ? 'taken-now' : null },
      h('span', { class: 'odds-label' }, label, taken ? h('span', { class: 'tag', 'data-testid': 'odds-taken-now' }, t('oddsTakenNow')) : null),
      h('span', { class: 'odds-bar' }, fill), h('span', { class: 'odds-value' }, pct(p), was(atStart, p)));
  });
  return h('div', { class: 'odds', 'data-testid': 'odds', 'data-from': now ? 'now' : 'start' },
    h('h3', null, t('odds')),
    h('ul', null, bars,
      roll.tracker.spec.onesCostFuel ? h('li', { class: 'crash' }, h('span', { class: 'odds-label' }, t('crashOdds')), h('span', { class: 'odds-bar' }), h('span', { class: 'odds-value' }, pct(odds.crash), was(now && start ? start.crash : null, odds.crash))) : null),
    roll.tracker.spec.onesCostFuel ? h('p', { class: 'hint' }, `${t('expectedFuel')}: ${decimalText(odds.expectedFuel, 1)}`) : null,
    h('p', { class: 'hint small', 'data-testid': 'odds-from' }, now ? t('oddsFromNow') : t('oddsFromStart')),
    // how the figures are played out, for who asks: a paragraph too long to read mid-roll
    h('details', { class: 'odds-how' }, h('summary', { class: 'hint small' }, t('oddsHow')), h('p', { class: 'hint small', 'data-testid': 'odds-strategy' }, strategyText(odds.strategy))),
  );
}

function dieFace(face: number | null, cls = ''): HTMLElement {
  return h('span', { class: `die face-${face ?? 'x'} ${cls}`, 'aria-label': face === null ? '?' : String(face) }, face === null ? '?' : String(face));
}

/** How many dice the camera is still making up its mind about (drawn dotted and faded over the frame). */
function deciding(v: VisionUpdate): string {
  const n = v.dice.filter((d) => d.pending).length;
  return n > 0 ? ` · ${t('deciding', { n })}` : '';
}

/** Opens the manual entry (folded while the camera reads) and brings it into view. */
function openManualEntry(app: App): void {
  app.ui.manualOpen = true;
  app.render(false);
  document.querySelector('details.manual')?.scrollIntoView({ block: 'nearest' });
}

/** A die's label's height in frame pixels (`.die-box text`'s font size in web/public/styles.css). */
const LABEL_HEIGHT = 28;

/**
 * Where a die's label goes in the frame: above the die, or below it where the frame's top edge would cut
 * it; a face centred on its die, a longer label ("? cocked or covered") from the die's outer side when the
 * die lies in a quarter of the frame by a side edge, so that the edge does not cut it either.
 */
export function dieLabelPlace(d: { x: number; y: number; w: number; h: number; face: number | null }, frameWidth: number): { x: number; y: number; 'text-anchor': 'start' | 'middle' | 'end' } {
  const y = d.y - d.h / 2 - 8 < LABEL_HEIGHT ? d.y + d.h / 2 + LABEL_HEIGHT : d.y - d.h / 2 - 8;
  if (d.face === null && d.x < frameWidth / 4) return { x: Math.max(2, d.x - d.w / 2), y, 'text-anchor': 'start' };
  if (d.face === null && d.x > (frameWidth * 3) / 4) return { x: Math.min(frameWidth - 2, d.x + d.w / 2), y, 'text-anchor': 'end' };
  return { x: d.x, y, 'text-anchor': 'middle' };
}

/** Dice the camera has settled on as not readable (leaning, covered, blurred, cut by the edge): no roll is passed on with them. */
export function unsureDice(v: VisionUpdate | null): number {
  return v?.settled ? v.dice.filter((d) => d.face === null && !d.pending).length : 0;
}

export function cameraView(app: App): HTMLElement | null {
  const snap = app.snap;
  if (!snap || snap.hardware.camera.kind === 'none' || snap.hardware.camera.state === 'off') return null;
  const v = app.vision;
  // the tray still holds the last roll's dice: drawn faded, and the players told to throw
  const before = app.diceFromBefore();
  // a reading the players took back, the dice not moved since: drawn faded too, said, and offered to be read again
  const notTaken = !before && app.trayNotTaken();
  // during a roll, said while it holds the roll: not once the dice are typed in
  const unsure = before || (app.state?.roll && !app.snap?.diceUnread) ? 0 : unsureDice(v);
  const img = h('img', { class: 'frame', alt: t('camera'), src: v ? `${v.frameUrl.split('?')[0]}?t=${v.at}` : app.client.frameUrl(), id: 'camera-frame' });
  img.addEventListener('error', () => img.classList.add('missing'));
  const overlay = s('svg', { class: 'dice-overlay', viewBox: `0 0 ${v?.width ?? 640} ${v?.height ?? 480}`, preserveAspectRatio: 'none' });
  // where the camera reads: a die beyond the tray's line is never counted
  if (v?.areas?.tray) overlay.append(areaShape(v.areas.tray, v.width, v.height, { class: 'read-area tray' }));
  if (v?.areas?.keptZone) overlay.append(areaShape(v.areas.keptZone, v.width, v.height, { class: 'read-area kept' }));
  // a 1 is marked as one that locks, except in a single roll (the Yorktown attack), where 1s neither lock nor cost fuel
  const onesLock = app.state?.roll?.tracker.spec.continuous ?? true;
  for (const d of v?.dice ?? []) {
    const cls = `${d.face === null ? 'die-box unreadable' : d.face === 1 && onesLock ? 'die-box one' : 'die-box'}${d.pending ? ' pending' : ''}${before ? ' before' : ''}${notTaken ? ' not-taken' : ''}`;
    overlay.append(
      s('g', { class: cls },
        s('rect', { x: d.x - d.w / 2, y: d.y - d.h / 2, width: d.w, height: d.h, rx: 6 }),
        // why a die is not read, smaller than a face, so that it does not cover its neighbours' faces
        s('text', dieLabelPlace(d, v?.width ?? 640), d.face === null ? '?' : String(d.face),
          d.face === null && d.unreadable ? s('tspan', { class: 'why', dx: 6 }, tk(`unreadable_${d.unreadable}`)) : null),
      ),
    );
  }
  // over the tray's line: never counted, shown so that the players move them in
  const outside = v?.settled && !before ? (v.outside ?? []) : [];
  for (const d of outside) {
    overlay.append(s('g', { class: 'die-box outside' },
      s('rect', { x: d.x - d.w / 2, y: d.y - d.h / 2, width: d.w, height: d.h, rx: 6 }),
      s('text', dieLabelPlace(d, v?.width ?? 640), '×')));
  }
  return h('div', { class: 'camera' },
    h('div', { class: 'frame-wrap' }, img, overlay),
    before ? h('div', { class: 'vision-status before', 'data-testid': 'dice-from-before' }, t('diceFromBefore'))
    : v ? h('div', { class: `vision-status${v.settled ? ' settled' : ''}` }, v.settled ? t('settled') : t('moving'), ` · ${v.dice.length} ${t('dice').toLowerCase()}`, deciding(v),
      // a misread is the photo most worth keeping: straight to the dice photos page with it
      v.settled && v.dice.length > 0 && snap.canControl && !app.kiosk
        ? h('button', { type: 'button', class: 'btn small photo-these', 'data-testid': 'photo-these-dice', title: t('photoTheseDiceWhy'), onclick: () => { app.go('samples'); void takePhoto(app); } }, t('photoTheseDice'))
        : null)
      : h('div', { class: 'hint' }, t('noReadings')),
    notTaken ? readingUndoneView(app) : null,
    // a re-roll landing on the faces read before gives no new reading: said, so that the throw does not look missed
    !before && !notTaken && app.diceRestedUnchanged() ? h('p', { class: 'hint', role: 'status', 'data-testid': 'vision-unchanged' }, t('visionUnchanged')) : null,
    outside.length > 0 ? h('p', { class: 'hint waiting', role: 'status', 'data-testid': 'vision-outside' }, outside.length === 1 ? t('visionOutsideOne') : t('visionOutside', { n: outside.length })) : null,
    unsure > 0 ? h('p', { class: 'hint waiting', role: 'status', 'data-testid': 'vision-unsure' }, t('visionUnsure', { n: unsure }),
      // during a roll, with the controls: straight to the manual entry, opened
      app.state?.roll && snap.canControl && !app.kiosk && snap.attract !== true
        ? [' ', h('button', { type: 'button', class: 'btn small', 'data-testid': 'unsure-manual', onclick: () => openManualEntry(app) }, t('enterByHand'))]
        : null) : null,
  );
}

/**
 * The reading taken back (Undo) while its dice still lie in the tray: the camera's boxes are not the roll's
 * dice. With the controls, a tap reads the tray again (the players undid a reading that was right after all).
 */
function readingUndoneView(app: App): HTMLElement {
  const snap = app.snap;
  const faces = app.state?.roll?.tracker.faces ?? null;
  const control = !!snap?.canControl && !app.kiosk && snap.attract !== true && snap.hardware.camera.state === 'ok';
  return h('p', { class: 'hint reading-undone', role: 'status', 'data-testid': 'reading-undone' }, t(faces === null ? 'readingUndone' : 'readingUndoneMany'),
    control
      ? [' ', h('button', { type: 'button', class: 'btn small', 'data-testid': 'read-tray', ...SENDS, title: t('readTrayAgainWhy'), onclick: () => void app.act(() => app.client.readTray()) }, t('readTrayAgain'))]
      : null);
}

function syncManual(app: App, roll: RollWithOdds): void {
  const key = `${roll.purpose}|${roll.plane}|${roll.tracker.readings}|${roll.tracker.spec.dice}`;
  if (app.ui.manualRollKey === key) return;
  app.ui.manualRollKey = key;
  const n = roll.tracker.spec.dice;
  const faces = roll.tracker.faces;
  app.ui.manualFaces = Array.from({ length: n }, (_, i) => (faces && faces.length === n ? faces[i] : null));
  // continuous roll: the locked 1s stay; the rest are typed again
  if (roll.tracker.spec.continuous && faces && faces.length === n) {
    app.ui.manualFaces = app.ui.manualFaces.map((f, i) => (isLockedSlot(roll, app, i) ? 1 : null));
  }
  app.ui.manualSlot = Math.max(0, app.ui.manualFaces.findIndex((f) => f === null));
}

/** The first `lockedOnes` 1s showing are locked; a 1 that Decisive freed may be re-rolled. */
function isLockedSlot(roll: RollWithOdds, app: App, i: number): boolean {
  const faces = roll.tracker.faces;
  if (!roll.tracker.spec.continuous || !faces || faces.length !== app.ui.manualFaces.length || faces[i] !== 1) return false;
  const before = faces.slice(0, i).filter((f) => f === 1).length;
  return before < roll.tracker.lockedOnes;
}

/**
 * The slot a face typed moves on to: the next empty one, else the first empty one, else (every die
 * typed) the next die round, so that typing on corrects the dice in order rather than one over and over.
 */
function nextSlot(app: App, roll: RollWithOdds, from: number): number {
  const faces = app.ui.manualFaces;
  const open = (i: number) => !isLockedSlot(roll, app, i);
  const next = faces.findIndex((f, i) => i > from && f === null && open(i));
  if (next >= 0) return next;
  const first = faces.findIndex((f, i) => f === null && open(i));
  if (first >= 0) return first;
  for (let step = 1; step <= faces.length; step++) {
    const i = (from + step) % faces.length;
    if (open(i)) return i;
  }
  return from;
}

function manualView(app: App, roll: RollWithOdds): HTMLElement {
  syncManual(app, roll);
  const slots = app.ui.manualFaces.map((f, i) => {
    const locked = isLockedSlot(roll, app, i);
    return h('button', {
      type: 'button',
      class: `die-slot face-${f ?? 'x'}${i === app.ui.manualSlot ? ' active' : ''}${locked ? ' locked' : ''}`,
      disabled: locked,
      'data-testid': `slot-${i}`,
      'aria-label': `${t('dice')} ${i + 1}: ${f ?? '?'}`,
      onclick: () => {
        app.ui.manualSlot = i;
        app.render(false);
      },
    }, f === null ? '?' : String(f));
  });
  const pad = [1, 2, 3, 4, 5, 6].map((face) =>
    h('button', {
      type: 'button',
      class: `face-key face-${face}`,
      'data-testid': `face-${face}`,
      onclick: () => {
        const faces = app.ui.manualFaces;
        if (!faces.length) return;
        faces[app.ui.manualSlot] = face;
        app.ui.manualSlot = nextSlot(app, roll, app.ui.manualSlot);
        app.render(false);
      },
    }, String(face)));
  const complete = app.ui.manualFaces.every((f) => f !== null);
  // folded away while the camera reads the dice; open when they must be typed in
  const byDefault = app.snap?.manualDice !== false;
  const details = h('details', { class: 'manual', open: app.ui.manualOpen ?? byDefault },
    h('summary', null, h('h3', null, t('manualEntry'))),
    h('p', { class: 'hint' }, t('manualHint')),
    h('div', { class: 'slots' }, slots),
    h('div', { class: 'pad' }, pad),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'btn primary', disabled: !complete, 'data-testid': 'send-dice', ...SENDS,
        onclick: () => void app.send({ type: 'dice', faces: app.ui.manualFaces as number[] }) }, t('sendDice')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'clear-dice', onclick: () => {
        // every die typed again but the locked 1s (a single roll's last reading is not put back)
        app.ui.manualFaces = app.ui.manualFaces.map((f, i) => (isLockedSlot(roll, app, i) ? f : null));
        app.ui.manualSlot = Math.max(0, app.ui.manualFaces.findIndex((f) => f === null));
        app.render(false);
      } }, t('clearDice')),
    ),
  );
  // the players' choice to open or fold it lasts across re-renders
  keepOpenState(details, (open) => {
    app.ui.manualOpen = open === byDefault ? null : open;
  });
  return details;
}

/** Why the last reading was not taken; a count of dice that is off says what to look for, and offers the manual entry. */
function flagsView(app: App, roll: RollWithOdds, control: boolean): Child {
  if (!roll.tracker.flags.length) return null;
  return h('ul', { class: 'flags', role: 'alert' }, roll.tracker.flags.map((f) => {
    if (f.type !== 'wrongDiceCount') return h('li', null, tk(`flag_${f.type}`, f as unknown as Record<string, number>));
    return h('li', { 'data-testid': 'flag-dice-count' }, t('flag_wrongDiceCount', { expected: f.expected, seen: f.seen }), ' ',
      t(f.seen < f.expected ? 'diceCountFewer' : 'diceCountMore'),
      control && !app.kiosk ? [' ', h('button', { type: 'button', class: 'btn small', 'data-testid': 'count-manual', onclick: () => openManualEntry(app) }, t('enterByHand'))] : null);
  }));
}

const WEATHER = ['goodVisibility', 'favourableWind', 'storm', 'nothing'] as const;
let weatherChoice: (typeof WEATHER)[number] = 'goodVisibility';

/** A weather reveal in a physical game: the players say which token they turned over. */
function needsWeatherToken(app: App, roll: RollWithOdds): boolean {
  return roll.purpose === 'weather' && app.state?.deck.mode === 'physical';
}

function weatherPick(app: App, roll: RollWithOdds): HTMLElement | null {
  if (!needsWeatherToken(app, roll)) return null;
  return h('label', { class: 'field' }, h('span', null, t('weatherToken')),
    h('select', { name: 'weather', onchange: (e: Event) => { weatherChoice = (e.target as HTMLSelectElement).value as typeof weatherChoice; } },
      WEATHER.map((w) => h('option', { value: w, selected: w === weatherChoice }, tk(`weather_${w}`)))));
}

/** The split options of an attack roll with dice showing (null for any other roll). */
function splitOf(roll: RollWithOdds): SplitOption[] | null {
  const tr = roll.tracker;
  if (tr.best.kind !== 'targets' || !tr.faces || !roll.targets?.length) return null;
  return splitOptions(tr.faces, roll.targets, tr.best.taken.map((x) => x.targetId));
}

function splitKey(roll: RollWithOdds): string {
  return `${roll.purpose}|${roll.plane}|${roll.tracker.readings}`;
}

/** The option the players picked for this reading, else the engine's default split. */
function chosenSplit(app: App, roll: RollWithOdds, options: SplitOption[]): SplitOption {
  const pick = app.ui.splitPick;
  const picked = pick && pick.key === splitKey(roll) ? options.find((o) => optionKey(o.ids) === pick.option) : undefined;
  return picked ?? options.find((o) => o.best) ?? options[0]!;
}

function leftAfter(app: App, roll: RollWithOdds, option: SplitOption): string {
  const st = app.state;
  if (!st) return '';
  const parts: string[] = [];
  const islands = new Set(roll.targets.filter((x) => x.island !== null).map((x) => x.island!));
  for (const id of islands) {
    const left = roll.targets.filter((x) => x.island === id && !option.ids.includes(x.id));
    parts.push(left.length ? t('splitLeaves', { what: left.map((x) => tk(`jap_${x.plane}`)).join(' + '), where: t('island', { n: id }) }) : t('splitClears', { where: t('island', { n: id }) }));
  }
  const cap = roll.targets.filter((x) => x.island === null);
  if (cap.length) {
    const left = st.cap - cap.filter((x) => option.ids.includes(x.id)).length;
    parts.push(t('splitCapLeft', { n: left }));
  }
  return parts.join(' · ');
}

/** Attack rolls: which targets the dice take (the players may pick another split than the best). */
function splitView(app: App, roll: RollWithOdds, control: boolean): HTMLElement | null {
  const options = splitOf(roll);
  if (!options) return null;
  const chosen = chosenSplit(app, roll, options);
  return h('fieldset', { class: 'split', 'data-testid': 'split' },
    h('legend', null, t('splitTitle')),
    options.length > 1 ? h('p', { class: 'hint' }, t('splitHint')) : null,
    h('ul', { class: 'split-options' }, options.map((o) => {
      const key = optionKey(o.ids);
      const selected = optionKey(chosen.ids) === key;
      const what = o.taken.length
        ? o.taken.map((x) => h('span', { class: 'split-take' }, targetLabel(roll, x.target.id), ' ← ',
            Array.from({ length: x.target.equal }, () => dieFace(x.face, 'small'))))
        : [h('span', { class: 'split-take' }, t('splitNothing'))];
      return h('li', null,
        h('label', { class: `split-option${selected ? ' selected' : ''}`, 'data-testid': `split-${key}` },
          h('input', { type: 'radio', name: 'split', value: key, checked: selected, disabled: !control, onchange: () => {
            app.ui.splitPick = { key: splitKey(roll), option: key };
            app.render(false);
          } }),
          h('span', { class: 'split-what' }, what),
          h('span', { class: 'split-gain' }, t('splitSkill', { n: o.skill }), ' · ', leftAfter(app, roll, o)),
          o.best ? h('span', { class: 'tag' }, t('splitBest')) : null,
        ));
    })),
  );
}

/** Die faces as drawn (⚀ … ⚅): "keeping 2" read as two dice kept. */
const DIE_GLYPHS = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

function keepingLabel(thrown: number, kept: number[]): string {
  const glyphs = kept.map((f) => DIE_GLYPHS[f - 1]).join(' ');
  if (thrown <= 0) return t('throwAllKept');
  return t(thrown === 1 ? 'throwKeepingOne' : 'throwKeeping', { n: thrown, kept: glyphs });
}

/** The faces the players set aside from the next simulated re-roll, the same on every screen (the snapshot's, server/table/simulated-keep.ts). */
function keptFaces(app: App): number[] {
  return app.snap?.simulator?.kept ?? [];
}

/** A die tapped: kept if it was not, back into the re-roll if it was (dice of one face are told apart by their order). */
function toggleKeep(app: App, face: number, nth: number): void {
  const kept = keptFaces(app);
  const already = kept.filter((f) => f === face).length;
  const next = [...kept];
  if (nth < already) next.splice(next.lastIndexOf(face), 1);
  else next.push(face);
  void app.act(() => app.client.keepDice(next.sort((a, b) => a - b)));
}

/** The dice read; with the simulated camera in a continuous roll, each die not locked is a button that keeps it. */
function facesRow(app: App, roll: RollWithOdds, keeping: boolean): HTMLElement {
  const tr = roll.tracker;
  const label = h('span', { class: 'label' }, t('faces'));
  if (!tr.faces) return h('div', { class: 'faces-row' }, label, h('span', null, '—'));
  if (!keeping) return h('div', { class: 'faces-row' }, label, tr.faces.map((f) => dieFace(f, f === 1 && tr.spec.continuous ? 'locked' : '')));
  const kept = keptFaces(app);
  let lockedLeft = tr.lockedOnes;
  const seen = new Map<number, number>();
  const dice = tr.faces.map((f) => {
    if (f === 1 && lockedLeft > 0) {
      lockedLeft--;
      return dieFace(f, 'locked');
    }
    const nth = seen.get(f) ?? 0;
    seen.set(f, nth + 1);
    const isKept = nth < kept.filter((k) => k === f).length;
    return h('button', {
      type: 'button', class: `die-keep${isKept ? ' kept' : ''}`, 'data-testid': `keep-die-${f}`, 'aria-pressed': String(isKept),
      'aria-label': t(isKept ? 'keptDie' : 'keepDie', { face: f }), onclick: () => toggleKeep(app, f, nth),
    }, dieFace(f, isKept ? 'kept' : ''));
  });
  return h('div', { class: 'faces-row' }, label, dice, h('span', { class: 'hint small' }, t('keepHint')));
}

function confirmCommand(app: App, roll: RollWithOdds): { type: string; [k: string]: unknown } {
  if (needsWeatherToken(app, roll)) return { type: 'confirmRoll', weather: weatherChoice };
  const options = splitOf(roll);
  if (options) return { type: 'confirmRoll', assign: chosenSplit(app, roll, options).ids };
  return { type: 'confirmRoll' };
}

export function rollPanel(app: App, big: boolean): HTMLElement {
  const roll = app.state?.roll as RollWithOdds | null | undefined;
  const camera = cameraView(app);
  if (!roll) {
    return h('section', { class: `roll-panel idle${big ? ' big' : ''}` }, h('h2', null, t('roll')), h('p', null, t('noRoll')), big ? camera : null);
  }
  const tr = roll.tracker;
  const control = (app.snap?.canControl ?? false) && app.snap?.attract !== true;
  // a synthetic camera throws dice on request (a replay of files, also simulated, does not)
  const simulated = app.snap?.simulator?.throw === true && app.snap.hardware.camera.state === 'ok';
  const title = roll.plane !== null ? t('rollFor', { purpose: tk(`purpose_${roll.purpose}`), plane: roll.plane }) : t('rollForNoPlane', { purpose: tk(`purpose_${roll.purpose}`) });
  const fuelLeft = roll.fuelAtStart - tr.fuelSpent;
  // in a continuous roll players keep dice and re-roll the rest: the simulated camera's throw does the same
  const keeping = control && simulated && tr.spec.continuous;
  const kept = keeping ? keptFaces(app) : [];
  const thrown = tr.spec.dice - tr.lockedOnes - kept.length;
  // a single roll (the Yorktown attack) is thrown once: no simulated re-roll once its dice are read
  const mayThrow = simulated && (tr.spec.continuous || tr.faces === null);
  return h('section', { class: `roll-panel${big ? ' big' : ''}${tr.outOfFuel ? ' crashed' : ''}`, 'data-testid': 'roll-panel' },
    h('h2', null, title),
    h('p', { class: 'roll-kind' }, diceText(tr.spec.dice), ' · ', tr.spec.continuous ? t('continuousRoll') : t('singleRoll'),
      roll.diceBreakdown?.length ? h('span', { class: 'breakdown', 'data-testid': 'dice-breakdown' }, ` (${breakdownText(roll.diceBreakdown)})`) : null),
    // the buttons first (as on screen, and in the keyboard's order); a phone shows them under the figures (styles.css),
    // and the phone page keeps the main ones (.roll-main: one box there, none wider) in a bar at the screen's foot
    control
      ? h('div', { class: 'roll-actions', ...SENDS },
          h('div', { class: 'roll-main', 'data-testid': 'roll-main' },
            mayThrow
              ? h('button', {
                  type: 'button', class: 'btn big-btn', 'data-testid': 'throw', disabled: tr.faces !== null && thrown <= 0,
                  onclick: () => void app.act(() => app.client.throwDice(kept.length ? { keep: kept } : {})),
                }, kept.length ? keepingLabel(thrown, kept) : tr.faces !== null && thrown <= 0 ? t('throwAllLocked') : tr.spec.continuous ? t('throwDice') : t('throwOnce'))
              : null,
            weatherPick(app, roll),
            h('button', {
              type: 'button', class: 'btn primary big-btn', 'data-testid': 'confirm-roll',
              // the engine takes a confirmation only after an accepted reading of the dice, and the table none while
              // the camera sees a die it cannot read (said under the camera image) or dice moving or being read
              disabled: tr.faces === null || tr.flags.some(isRejection) || (app.snap?.diceUnread ?? 0) > 0 || !!app.snap?.trayBusy,
              title: tr.faces === null ? t('confirmNeedsDice') : (app.snap?.diceUnread ?? 0) > 0 ? t('confirmNeedsAllRead') : app.snap?.trayBusy ? t('confirmWaitsForDice') : null,
              onclick: () => void app.send(confirmCommand(app, roll)),
            }, t('confirm')),
            h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'undo-roll', onclick: () => void app.send(app.view === 'phone' && app.seat !== null ? { type: 'undo', seat: app.seat } : { type: 'undo' }) }, t('undo')),
          ),
          // after Throw, Confirm and Undo: to see what the camera does with a die it cannot read; not offered to a demo station's visitors
          mayThrow && !app.kiosk && thrown > 0
            ? h('button', { type: 'button', class: 'btn', 'data-testid': 'throw-leaning', title: t('throwLeaningWhy'), onclick: () => void app.act(() => app.client.throwDice({ leaning: 1, ...(kept.length ? { keep: kept } : {}) })) }, t('throwLeaning'))
            : null,
          tr.faces === null ? h('span', { class: 'hint' }, t('confirmNeedsDice')) : null,
        )
      : null,
    control ? manualView(app, roll) : null,
    h('div', { class: 'roll-body' },
      camera,
      h('div', { class: 'roll-figures' },
        facesRow(app, roll, keeping),
        h('dl', { class: 'roll-stats' },
          h('div', null, h('dt', null, t('lockedOnes')), h('dd', { 'data-testid': 'locked-ones' }, tr.lockedOnes)),
          tr.spec.onesCostFuel ? h('div', null, h('dt', null, t('fuelSpent')), h('dd', { 'data-testid': 'fuel-spent' }, `${tr.fuelSpent} (${t('fuel').toLowerCase()} ${fuelLeft})`)) : null,
          h('div', { class: 'wide' }, h('dt', null, t('best')), h('dd', { 'data-testid': 'best' }, bestText(app, roll, tr.best))),
          h('div', { class: 'wide' }, h('dt', null, t('needed')), h('dd', null, neededView(app, roll))),
        ),
        tr.outOfFuel ? h('p', { class: 'out-of-fuel', role: 'alert' }, t('outOfFuel')) : null,
        flagsView(app, roll, control),
        splitView(app, roll, control),
        oddsView(app, roll),
      ),
    ),
  );
}
