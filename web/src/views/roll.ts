/**
 * The roll panel: camera image with every die outlined, the tracker's figures (locked 1s, fuel,
 * best result, what is needed), the odds, manual entry of the faces, throw / confirm / undo.
 */
import { rollOdds } from '../../../server/dice/odds.ts';
import type { RollOdds, RollResult, RollTier } from '../../../server/dice/types.ts';
import type { App } from '../app.ts';
import { h, s, type Child } from '../dom.ts';
import { t, tk } from '../i18n.ts';
import type { RollWithOdds } from '../types.ts';

export function tierLabel(app: App, roll: RollWithOdds, tier: RollTier): string {
  const rules = app.rules();
  const m = /^(raise|hits)(\d+)$/.exec(tier.id);
  if (m && m[1] === 'raise') return t('tier_raise', { n: rules.search.tiers[Number(m[2])]?.raise ?? '?' });
  if (m && m[1] === 'hits') return t('tier_hits', { n: rules.shoho.tiers[Number(m[2])]?.hits ?? '?' });
  return tk(`tier_${tier.id}`);
}

function targetLabel(roll: RollWithOdds, id: string): string {
  const info = roll.targets?.find((x) => x.id === id);
  if (!info) return id;
  return `${tk(`jap_${info.plane}`)}${info.island !== null ? ` (${t('island', { n: info.island })})` : ` (${t('cap')})`}`;
}

function bestText(app: App, roll: RollWithOdds, best: RollResult): string {
  if (best.kind === 'tier') {
    if (best.equal === 0 && !best.tierId) return t('nothingYet');
    const goal = roll.tracker.spec.goal;
    const tier = goal.kind === 'tiers' ? goal.tiers.find((x) => x.id === best.tierId) : undefined;
    const groups = best.value ? t('equalOf', { n: best.equal, v: best.value }) : '';
    return [groups, tier ? `→ ${tierLabel(app, roll, tier)}` : ''].filter(Boolean).join(' ') || t('nothingYet');
  }
  if (best.kind === 'targets') {
    if (!best.taken.length) return t('nothingYet');
    return best.taken.map((x) => `${targetLabel(roll, x.targetId)} (${x.value})`).join(', ');
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
      h('li', null, h('strong', null, t('equalDice', { n: target.equal })), ' → ', targetLabel(roll, target.id), ` (+${target.value})`)));
  }
  return h('p', { class: 'hint' }, t('yorktownAttackHint'));
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

function oddsView(app: App, roll: RollWithOdds): Child {
  const odds = oddsOf(roll);
  const goal = roll.tracker.spec.goal;
  if (!odds || goal.kind === 'faces') return h('p', { class: 'hint' }, t('oddsUnavailable'));
  const rows: [string, number][] =
    goal.kind === 'tiers'
      ? goal.tiers.filter((x) => x.equal > 0).map((x): [string, number] => [tierLabel(app, roll, x), odds.reach[x.id] ?? 0])
      : goal.targets.map((x): [string, number] => [targetLabel(roll, x.id), odds.reach[x.id] ?? 0]);
  const pct = (p: number) => `${Math.round(p * 100)}%`;
  const bars = rows.map(([label, p]) => {
    const fill = h('span', { class: 'odds-fill' });
    fill.style.width = pct(p);
    return h('li', null, h('span', { class: 'odds-label' }, label), h('span', { class: 'odds-bar' }, fill), h('span', { class: 'odds-value' }, pct(p)));
  });
  return h('div', { class: 'odds' },
    h('h3', null, t('odds')),
    h('ul', null, bars,
      roll.tracker.spec.onesCostFuel ? h('li', { class: 'crash' }, h('span', { class: 'odds-label' }, t('crashOdds')), h('span', { class: 'odds-bar' }), h('span', { class: 'odds-value' }, pct(odds.crash))) : null),
    roll.tracker.spec.onesCostFuel ? h('p', { class: 'hint' }, `${t('expectedFuel')}: ${odds.expectedFuel.toFixed(1)}`) : null,
    h('p', { class: 'hint small' }, roll.odds ? odds.strategy : `${t('oddsFromStart')} — ${odds.strategy}`),
  );
}

function dieFace(face: number | null, cls = ''): HTMLElement {
  return h('span', { class: `die face-${face ?? 'x'} ${cls}`, 'aria-label': face === null ? '?' : String(face) }, face === null ? '?' : String(face));
}

export function cameraView(app: App): HTMLElement | null {
  const snap = app.snap;
  if (!snap || snap.hardware.camera.kind === 'none' || snap.hardware.camera.state === 'off') return null;
  const v = app.vision;
  const img = h('img', { class: 'frame', alt: t('camera'), src: v ? `${v.frameUrl.split('?')[0]}?t=${v.at}` : app.client.frameUrl(), id: 'camera-frame' });
  img.addEventListener('error', () => img.classList.add('missing'));
  const overlay = s('svg', { class: 'dice-overlay', viewBox: `0 0 ${v?.width ?? 640} ${v?.height ?? 480}`, preserveAspectRatio: 'none' });
  for (const d of v?.dice ?? []) {
    const cls = d.face === null ? 'die-box unreadable' : d.face === 1 ? 'die-box one' : 'die-box';
    overlay.append(
      s('g', { class: cls },
        s('rect', { x: d.x - d.w / 2, y: d.y - d.h / 2, width: d.w, height: d.h, rx: 6 }),
        s('text', { x: d.x, y: d.y - d.h / 2 - 8, 'text-anchor': 'middle' }, d.face === null ? `? ${d.unreadable ?? ''}` : String(d.face)),
      ),
    );
  }
  return h('div', { class: 'camera' },
    h('div', { class: 'frame-wrap' }, img, overlay),
    v ? h('div', { class: `vision-status${v.settled ? ' settled' : ''}` }, v.settled ? t('settled') : t('moving'), ` · ${v.dice.length} ${t('dice').toLowerCase()}`) : h('div', { class: 'hint' }, t('noReadings')),
  );
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
    app.ui.manualFaces = app.ui.manualFaces.map((f) => (f === 1 ? 1 : null));
  }
  app.ui.manualSlot = Math.max(0, app.ui.manualFaces.findIndex((f) => f === null));
}

function isLockedSlot(roll: RollWithOdds, app: App, i: number): boolean {
  const faces = roll.tracker.faces;
  return roll.tracker.spec.continuous && !!faces && faces.length === app.ui.manualFaces.length && faces[i] === 1;
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
        const next = faces.findIndex((f, i) => i > app.ui.manualSlot && f === null && !isLockedSlot(roll, app, i));
        const first = faces.findIndex((f, i) => f === null && !isLockedSlot(roll, app, i));
        app.ui.manualSlot = next >= 0 ? next : first >= 0 ? first : app.ui.manualSlot;
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
      h('button', { type: 'button', class: 'btn primary', disabled: !complete, 'data-testid': 'send-dice',
        onclick: () => void app.send({ type: 'dice', faces: app.ui.manualFaces as number[] }) }, t('sendDice')),
      h('button', { type: 'button', class: 'btn', onclick: () => {
        app.ui.manualRollKey = null;
        app.render(false);
      } }, t('clearDice')),
    ),
  );
  // the players' choice to open or fold it lasts across re-renders
  details.addEventListener('toggle', () => {
    app.ui.manualOpen = details.open === byDefault ? null : details.open;
  });
  return details;
}

function flagsView(roll: RollWithOdds): Child {
  if (!roll.tracker.flags.length) return null;
  return h('ul', { class: 'flags', role: 'alert' }, roll.tracker.flags.map((f) => h('li', null, tk(`flag_${f.type}`, f as unknown as Record<string, number>))));
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

function confirmCommand(app: App, roll: RollWithOdds): { type: string; [k: string]: unknown } {
  return needsWeatherToken(app, roll) ? { type: 'confirmRoll', weather: weatherChoice } : { type: 'confirmRoll' };
}

export function rollPanel(app: App, big: boolean): HTMLElement {
  const roll = app.state?.roll as RollWithOdds | null | undefined;
  const camera = cameraView(app);
  if (!roll) {
    return h('section', { class: `roll-panel idle${big ? ' big' : ''}` }, h('h2', null, t('roll')), h('p', null, t('noRoll')), big ? camera : null);
  }
  const tr = roll.tracker;
  const control = (app.snap?.canControl ?? false) && app.snap?.attract !== true;
  const simulated = app.snap?.hardware.camera.kind === 'simulated' && app.snap.hardware.camera.state === 'ok';
  const title = roll.plane !== null ? t('rollFor', { purpose: tk(`purpose_${roll.purpose}`), plane: roll.plane }) : t('rollForNoPlane', { purpose: tk(`purpose_${roll.purpose}`) });
  const fuelLeft = roll.fuelAtStart - tr.fuelSpent;
  return h('section', { class: `roll-panel${big ? ' big' : ''}${tr.outOfFuel ? ' crashed' : ''}`, 'data-testid': 'roll-panel' },
    h('h2', null, title),
    h('p', { class: 'roll-kind' }, t('diceInRoll', { n: tr.spec.dice }), ' · ', tr.spec.continuous ? t('continuousRoll') : t('singleRoll'),
      roll.diceBreakdown?.length ? h('span', { class: 'breakdown' }, ` (${roll.diceBreakdown.map((b) => `${b.dice >= 0 ? '+' : ''}${b.dice} ${b.reason}`).join(', ')})`) : null),
    h('div', { class: 'roll-body' },
      camera,
      h('div', { class: 'roll-figures' },
        h('div', { class: 'faces-row' }, h('span', { class: 'label' }, t('faces')), tr.faces ? tr.faces.map((f) => dieFace(f, f === 1 && tr.spec.continuous ? 'locked' : '')) : h('span', null, '—')),
        h('dl', { class: 'roll-stats' },
          h('div', null, h('dt', null, t('lockedOnes')), h('dd', { 'data-testid': 'locked-ones' }, tr.lockedOnes)),
          tr.spec.onesCostFuel ? h('div', null, h('dt', null, t('fuelSpent')), h('dd', { 'data-testid': 'fuel-spent' }, `${tr.fuelSpent} (${t('fuel').toLowerCase()} ${fuelLeft})`)) : null,
          h('div', { class: 'wide' }, h('dt', null, t('best')), h('dd', { 'data-testid': 'best' }, bestText(app, roll, tr.best))),
          h('div', { class: 'wide' }, h('dt', null, t('needed')), h('dd', null, neededView(app, roll))),
        ),
        tr.outOfFuel ? h('p', { class: 'out-of-fuel', role: 'alert' }, t('outOfFuel')) : null,
        flagsView(roll),
        oddsView(app, roll),
      ),
    ),
    control
      ? h('div', { class: 'roll-actions' },
          simulated ? h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'throw', onclick: () => void app.act(() => app.client.throwDice({})) }, t('throwDice')) : null,
          weatherPick(app, roll),
          h('button', { type: 'button', class: 'btn primary big-btn', 'data-testid': 'confirm-roll', onclick: () => void app.send(confirmCommand(app, roll)) }, t('confirm')),
          h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'undo-roll', onclick: () => void app.send({ type: 'undo' }) }, t('undo')),
        )
      : null,
    control ? manualView(app, roll) : null,
  );
}
