/** Plane cards (fuel, skill, dice, cockpit, load, position, action) and each plane's controls. */
import type { ActionRollKind } from '../../../server/games/yorktown1942/action-odds.ts';
import { tilesServing, type ManoeuvreAction } from '../../../server/games/yorktown1942/manoeuvres.ts';
import { moveDestinations, stepsFrom, wayHomeBlockers, type MoveDestinations } from '../../../server/games/yorktown1942/board.ts';
import type { IslandState, ManoeuvreId, PlaneState } from '../../../server/games/yorktown1942/types.ts';
import type { App, PlaneForm } from '../app.ts';
import { ask } from './ask.ts';
import { attackTargets as attackTargetsOf } from '../../../server/games/yorktown1942/attack-targets.ts';
import type { AttackTarget } from '../../../server/games/yorktown1942/commands.ts';
import { markBoxSelected } from './box-selection.ts';
import { skipCost } from '../../../server/games/yorktown1942/skip-cost.ts';
import { actionFuel, futileAction, type FutileReason } from '../../../server/games/yorktown1942/futile-action.ts';
import { h, type Child } from '../dom.ts';
import { positionText, skillDice } from '../format.ts';
import { planeList, t, tk, type Key } from '../i18n.ts';
import { SENDS } from '../offline.ts';

const ACTIONS = ['search', 'takeoffLanding', 'attack', 'move'] as const;

/**
 * The plane's form for this action of this turn: what the players picked stays through state pushes,
 * but never carries into another turn, action or game (a destination left from the last move once
 * sent a take-off to a 3-fuel island).
 */
function formOf(app: App, plane: PlaneState): PlaneForm {
  const st = app.state;
  const key = `${st?.startedAt ?? ''}|${st?.turn ?? 0}|${plane.action ?? ''}`;
  let form = app.ui.forms[plane.id];
  if (!form || form.key !== key) {
    form = { key, load: 'none', to: '', via: '', manoeuvre: '' };
    app.ui.forms[plane.id] = form;
  }
  return form;
}

export function planeCard(app: App, plane: PlaneState, withControls: boolean): HTMLElement {
  const rules = app.rules();
  const dice = skillDice(rules, plane.skill);
  const roll = app.state?.roll;
  const rolling = roll?.plane === plane.id;
  const fuel = rolling && roll ? roll.fuelAtStart - roll.tracker.fuelSpent : plane.fuel;
  const fuelPct = Math.max(0, Math.min(100, (fuel / rules.fuel.max) * 100));
  const secret = plane.manoeuvre && !plane.manoeuvre.used && plane.manoeuvre.id === null ? app.secretTile(plane.id) : null;
  const card = h('article', { class: `plane-card seat${plane.seat}${plane.destroyed ? ' destroyed' : ''}${rolling ? ' rolling' : ''}`, 'data-plane': plane.id },
    h('header', null,
      h('span', { class: 'plane-badge' }, plane.id),
      h('span', { class: 'plane-name' }, t('plane', { n: plane.id })),
      h('span', { class: 'seat-name' }, t('seat', { n: plane.seat })),
      plane.destroyed ? h('span', { class: 'destroyed-tag' }, t('destroyed')) : null,
    ),
    // the four figures, each in its own cell with its label above: they wrap, two by two, on a narrow card
    h('dl', { class: 'plane-figures' },
      // low in the air once a landing is no longer automatic (the box's plane LED blinks from the same fuel)
      h('div', { class: `stat fuel${plane.position.at !== 'deck' && fuel < rules.landing.autoFuel ? ' low' : ''}` }, h('dt', null, t('fuel')), h('dd', { 'data-testid': `fuel-${plane.id}` }, fuel),
        h('dd', { class: 'bar', 'aria-hidden': 'true' }, h('span', { class: 'bar-fill', 'data-pct': Math.round(fuelPct) }))),
      h('div', { class: 'stat' }, h('dt', null, t('skill')), h('dd', { 'data-testid': `skill-${plane.id}` }, plane.skill)),
      // the skill card's dice; a bomb or drop tank carried rolls one fewer in every action
      h('div', { class: 'stat' }, h('dt', null, t('dice')), h('dd', { 'data-testid': `dice-${plane.id}` }, dice),
        plane.load !== 'none' && rules.load.dicePenalty > 0 ? h('dd', { class: 'dice-note', 'data-testid': `dice-note-${plane.id}` }, t('diceLoadNote', { n: rules.load.dicePenalty, load: tk(`load_${plane.load}`) })) : null),
      h('div', { class: 'stat' }, h('dt', null, t('cockpit')), h('dd', null, plane.cockpit)),
    ),
    h('dl', { class: 'plane-stats' },
      h('div', { class: 'stat wide' }, h('dt', null, t('load')), h('dd', null, tk(`load_${plane.load}`))),
      h('div', { class: 'stat wide' }, h('dt', null, t('position')), h('dd', { 'data-testid': `pos-${plane.id}` }, positionText(plane.position))),
      plane.destroyed ? null : h('div', { class: 'stat wide' }, h('dt', null, t('action')),
        h('dd', { 'data-testid': `action-${plane.id}` }, actionName(plane, rolling ? roll : null))),
      plane.manoeuvre
        ? h('div', { class: 'stat wide' }, h('dt', null, t('manoeuvre')), h('dd', { 'data-testid': `tile-${plane.id}` }, plane.manoeuvre.id ? tk(`man_${plane.manoeuvre.id}`) : secret ? `${tk(`man_${secret}`)} (${t('tileSecret')})` : t('manoeuvreHidden'), plane.manoeuvre.used ? ` (${t('manoeuvreUsed')})` : '',
          // what the tile does, once this screen knows which it is and while it can still be used
          (plane.manoeuvre.id ?? secret) && !plane.manoeuvre.used ? h('small', { class: 'tile-why', 'data-testid': `tile-why-${plane.id}` }, tk(`manWhy_${plane.manoeuvre.id ?? secret}`)) : null))
        : null,
    ),
  );
  const cutOff = wayHomeNote(app, plane);
  if (cutOff) card.append(cutOff);
  markBoxSelected(app, card, plane.id);
  // the fuel bar's width is set through the CSSOM (allowed under a strict CSP)
  const fill = card.querySelector<HTMLElement>('.bar-fill');
  if (fill) fill.style.width = `${fuelPct}%`;
  if (withControls) {
    const controls = planeControls(app, plane);
    if (controls) card.append(controls);
  }
  return card;
}

/** An action chosen that the plane's fuel does not pay for: what it costs, and what is left to the plane. */
function noFuelNote(plane: PlaneState, what: 'noFuelMove' | 'noFuelSearch' | 'noFuelReveal' | 'noFuelAttack', cost: number, testid = `no-fuel-${plane.id}`): HTMLElement {
  return h('p', { class: 'hint warn', 'data-testid': testid },
    t(what, { plane: plane.id, fuel: plane.fuel, n: cost }), ' ', t(plane.load === 'dropTank' ? 'noFuelTank' : 'noFuelSkip'));
}

/** A plane out on an island with every way back to the approach area closed by Japanese planes: which close it. */
function wayHomeNote(app: App, plane: PlaneState): HTMLElement | null {
  const st = app.state;
  if (!st || plane.destroyed || plane.position.at !== 'island' || st.phase === 'over') return null;
  const blockers = wayHomeBlockers(app.rules().board, st.islands, plane.position.island);
  if (!blockers?.length) return null;
  const list = blockers.join(', ');
  const tile = plane.manoeuvre && !plane.manoeuvre.used ? (plane.manoeuvre.id ?? app.secretTile(plane.id)) : undefined;
  // an unused tile this screen cannot see may be Invisible
  const invisible = tile === null || tile === 'invisible';
  return h('p', { class: 'hint warn way-home', 'data-testid': `way-home-${plane.id}` },
    t('wayHomeCut', { islands: t(blockers.length === 1 ? 'wayHomeIslandOne' : 'wayHomeIslands', { list }) }), invisible ? ` ${t('wayHomeInvisible')}` : null);
}

function button(label: string, onclick: () => void, cls = '', testid?: string): HTMLButtonElement {
  return h('button', { type: 'button', class: `btn ${cls}`, onclick: () => onclick(), 'data-testid': testid ?? null }, label);
}

function select(name: string, value: string, options: [string, string, boolean?][], onchange: (v: string) => void): HTMLSelectElement {
  const el = h('select', { name, onchange: (e: Event) => onchange((e.target as HTMLSelectElement).value) },
    options.map(([v, label, disabled]) => h('option', { value: v, selected: v === value, disabled: disabled === true }, label)));
  el.value = value;
  return el;
}

function labelled(label: string, control: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', null, label), control);
}

function destination(raw: string): 'approach' | number {
  return raw === 'approach' ? 'approach' : Number(raw);
}

const MANOEUVRES = ['landingAce', 'efficient', 'decisive', 'hawkEye', 'aggressive', 'invisible'] as const;

/** The manoeuvre choices of a plane with an unused tile: the dealt tile (digital) or the tile turned over (physical). */
/**
 * The tiles the plane may use for these actions (none: no choice to show): its dealt tile when it
 * serves them or this screen cannot see it, or in a physical game each tile not yet turned over that serves.
 */
function manoeuvreChoices(app: App, plane: PlaneState, actions: readonly ManoeuvreAction[]): [string, string][] {
  const st = app.state;
  if (!st?.setup?.expansions.expertManoeuvres || !plane.manoeuvre || plane.manoeuvre.used) return [];
  const serves = new Set<ManoeuvreId>(actions.flatMap((a) => tilesServing(a, app.rules())));
  const choices: [string, string][] = [['', t('manoeuvreNone')]];
  if (plane.manoeuvre.id !== null || st.setup.deck === 'digital') {
    const tile = plane.manoeuvre.id ?? app.secretTile(plane.id);
    if (tile === null) choices.push(['true', t('manoeuvreDealt')]);
    else if (serves.has(tile as ManoeuvreId)) choices.push(['true', tk(`man_${tile}`)]);
  } else {
    const usedElsewhere = new Set(st.planes.map((p) => p.manoeuvre?.id).filter((id): id is NonNullable<typeof id> => !!id));
    for (const id of MANOEUVRES) if (!usedElsewhere.has(id) && serves.has(id)) choices.push([id, tk(`man_${id}`)]);
  }
  return choices.length > 1 ? choices : [];
}

/**
 * The move destinations (not the plane's own island), each with its fuel cost, those a move cannot
 * reach listed but not to be picked (the board's lines, the Japanese planes in the way; flying over
 * them only with the Invisible manoeuvre picked).
 */
function moveOptions(app: App, plane: PlaneState, reach: MoveDestinations): [string, string, boolean][] {
  const rules = app.rules();
  // why a destination is out of reach: Japanese planes in the way (it would be reached over them), or too far
  const overThem = moveDestinations(rules.board, app.state!.islands, plane.position, true);
  const why = (reachedOverThem: boolean) => (reachedOverThem ? t('blockedWay') : t('unreachable'));
  // a move the plane's fuel does not pay for is listed, not to be picked
  const cost = (n: number) => (n > plane.fuel ? t('fuelShort', { n }) : t('fuelCost', { n }));
  const here = plane.position.at === 'approach';
  const options: [string, string, boolean][] = [['approach', here ? t('approach') : `${t('approach')} (${reach.approach ? cost(rules.move.returnFuel) : why(overThem.approach)})`, here || !reach.approach || rules.move.returnFuel > plane.fuel]];
  const own = plane.position.at === 'island' ? plane.position.island : null;
  for (const island of rules.board.islands) {
    if (island.id === own) continue;
    const way = reach.islands.get(island.id);
    const label = t('island', { n: island.id });
    if (way?.oneStep) options.push([String(island.id), `${label} (${cost(rules.move.oneIslandFuel)})`, rules.move.oneIslandFuel > plane.fuel]);
    else if (way?.via.length) options.push([String(island.id), `${label} (${cost(rules.move.twoIslandsFuel)}, ${t('viaIslands', { via: way.via.join(', ') })})`, rules.move.twoIslandsFuel > plane.fuel]);
    else options.push([String(island.id), `${label} (${why(!!overThem.islands.get(island.id)?.oneStep || !!overThem.islands.get(island.id)?.via.length)})`, true]);
  }
  return options;
}

/**
 * Where a move reaches with the manoeuvre picked in the form: over Japanese planes only with the
 * Invisible tile picked (or the dealt tile, when it is Invisible or this screen cannot see it).
 */
function reachOf(app: App, plane: PlaneState, manoeuvre: string): MoveDestinations {
  const dealt = manoeuvre === 'true' ? (plane.manoeuvre?.id ?? app.secretTile(plane.id)) : undefined;
  const invisible = manoeuvre === 'invisible' || (manoeuvre === 'true' && (dealt === null || dealt === 'invisible'));
  return moveDestinations(app.rules().board, app.state!.islands, plane.position, invisible);
}

/** The move a form starts on: the cheapest one it can make (an island one step away before the approach area). */
function cheapestMove(app: App, reach: MoveDestinations, options: [string, string, boolean][]): string {
  const rules = app.rules();
  const cost = (v: string) => {
    if (v === 'approach') return rules.move.returnFuel + 0.5;
    return reach.islands.get(Number(v))?.oneStep ? rules.move.oneIslandFuel : rules.move.twoIslandsFuel;
  };
  const open = options.filter(([, , off]) => !off).map(([v]) => v);
  return open.reduce<string | null>((best, v) => (best === null || cost(v) < cost(best) ? v : best), null) ?? 'approach';
}

/**
 * The islands a move to `to` may fly over, for the "via" choice: none for a return to the approach
 * area or an island one step away (flown to directly, for less fuel).
 */
function viaOptions(reach: MoveDestinations, to: string): [string, string][] {
  if (to === 'approach') return [];
  const way = reach.islands.get(Number(to));
  if (!way || way.oneStep) return [];
  return way.via.map((v) => [String(v), t('island', { n: v })]);
}

/** Where a one-island move may go from here (white lines), for the hint under the move form. */
function oneIslandMoves(app: App, plane: PlaneState): number[] {
  return [...stepsFrom(app.rules().board, plane.position)].sort((a, b) => a - b);
}

/** The targets the engine would accept for an attack by this plane now (the rule the button box uses too). */
export function attackTargets(app: App, plane: PlaneState): AttackTarget[] {
  return app.state ? attackTargetsOf(app.state, app.rules().search.locatedAt, plane) : [];
}

/** A face-down weather token on the plane's island, to be revealed by its Search action (weather expansion). */
function canRevealWeather(app: App, island: IslandState | undefined): boolean {
  return !!app.state?.setup?.expansions.weather && !!island?.weather && !island.weather.revealed;
}

/**
 * The plane's action and how far it is (skipped, rolling, done); while it rolls for a lightning attack or an
 * emergency landing after its move (or take-off), that roll's name alone (it is one only while rolled).
 */
function actionName(plane: PlaneState, roll: { purpose: string } | null | undefined): string {
  if (roll && (roll.purpose === 'lightningAttack' || roll.purpose === 'emergencyLanding')) return tk(`purpose_${roll.purpose}`);
  const name = plane.action ? tk(`act_${plane.action}`) : t('noAction');
  const how = plane.skipped ? t('actionSkipped') : roll ? t('actionRolling') : plane.done ? t('actionDone') : null;
  return how ? `${name} (${how})` : name;
}

const FUTILE_NOTES: Record<FutileReason, Key | null> = {
  onDeck: 'futileOnDeck',
  nothingToAttack: 'futileNothingToAttack',
  // another plane's search this turn may locate the Shōhō: nothing said
  notLocated: null,
  notOrange: 'futileNotOrange',
  landFromApproach: 'futileLandFromApproach',
  deckTaken: 'futileDeckTaken',
  noFuel: 'futileNoFuel',
};

/** Why an action cannot do anything from where the plane is, said on its choice before the players commit (futile-action.ts, as the box). */
function futileNote(app: App, plane: PlaneState, action: (typeof ACTIONS)[number]): HTMLElement | null {
  const futile = futileAction(app.state!, app.rules(), plane, action);
  const note = futile ? FUTILE_NOTES[futile.reason] : null;
  return note ? h('small', { class: 'choice-note', 'data-testid': `futile-${plane.id}-${action}` }, t(note)) : null;
}

/**
 * Chooses the action; one that cannot do anything from where the plane is (or may not, unless the other
 * planes' actions change that) is asked about first: the plane would only be able to skip it, in the air
 * losing fuel (the box warns the same way, a second press choosing it).
 */
function chooseAction(app: App, plane: PlaneState, action: (typeof ACTIONS)[number]): void {
  const choose = () => void app.send({ type: 'chooseAction', plane: plane.id, action });
  const futile = plane.action === action ? null : futileAction(app.state!, app.rules(), plane, action);
  const why = futile ? FUTILE_NOTES[futile.reason] : null;
  if (!futile || !why) return choose();
  const inAir = plane.position.at !== 'deck';
  const params = { plane: plane.id, action: tk(`act_${action}`), why: t(why), fuel: app.rules().idle.fuelLoss };
  const text = t(futile.later ? 'futileMayConfirm' : inAir ? 'futileConfirmAir' : 'futileConfirmDeck', params);
  void ask(app, text, t('chooseAnyway')).then((ok) => (ok ? choose() : undefined));
}

/** Whether the plane's unused tile is, or may be, Aggressive (a lightning attack with the attack's dice). */
function mayBeAggressive(app: App, plane: PlaneState, manoeuvres: [string, string][]): boolean {
  const offered = manoeuvres.map(([v]) => v);
  if (offered.includes('aggressive')) return true;
  if (!offered.includes('true')) return false;
  const tile = plane.manoeuvre?.id ?? app.secretTile(plane.id);
  return tile === null || tile === 'aggressive';
}

/** A chance in whole percent, never rounded to a certainty it is not. */
function chanceText(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  if (p < 1 && p >= 0.995) return '>99%';
  return `${Math.round(p * 100)}%`;
}

/** What a roll's chance is a chance of, and why none can be had. */
const ROLL_WORDS: Record<ActionRollKind, { chance: Key; hopeless: Key }> = {
  planes: { chance: 'attackToHit', hopeless: 'attackHopeless' },
  cap: { chance: 'attackToHit', hopeless: 'attackHopeless' },
  shoho: { chance: 'attackToHit', hopeless: 'attackHopeless' },
  lightning: { chance: 'attackToHit', hopeless: 'attackHopeless' },
  search: { chance: 'searchToRaise', hopeless: 'searchHopeless' },
  weather: { chance: 'weatherToReveal', hopeless: 'weatherHopeless' },
  landing: { chance: 'landSafely', hopeless: 'landHopeless' },
  emergencyLanding: { chance: 'landSafely', hopeless: 'landHopeless' },
};

/**
 * The button of an action that starts a roll, with its chance (the service's `actionChances`, figured
 * without an expert manoeuvre: none is said once one is picked) and its risk of crashing on 1s; one
 * no roll can win is offered plainly, with why beside it.
 */
function rollButton(app: App, plane: PlaneState, kind: ActionRollKind, label: string, testid: string, manoeuvre: { aggressive: boolean; picked: boolean }, send: () => void, cls = 'primary'): Child[] {
  const chance = app.state?.actionChances?.find((c) => c.plane === plane.id && c.kind === kind);
  if (!chance || chance.chance === null || manoeuvre.picked) return [button(label, send, cls, testid)];
  const risk = chance.crash !== null && chance.crash >= 0.005 ? t('attackCrash', { p: chanceText(chance.crash) }) : '';
  const text = `${label} (${t(ROLL_WORDS[kind].chance, { p: chanceText(chance.chance) })}${risk})`;
  if (chance.chance > 0) return [button(text, send, cls, testid)];
  return [
    button(text, send, '', testid),
    h('span', { class: 'hint warn', 'data-testid': `hopeless-${plane.id}-${kind}` },
      t(ROLL_WORDS[kind].hopeless, { n: chance.fewestEqual, plane: plane.id, dice: chance.dice }), kind === 'lightning' && manoeuvre.aggressive ? ` ${t('attackHopelessTile')}` : null),
  ];
}

/** The controls a plane offers now, or null when it has nothing to do. */
export function planeControls(app: App, plane: PlaneState): HTMLElement | null {
  const st = app.state;
  if (!st || !app.snap?.canControl || plane.destroyed || st.phase !== 'planes' || st.roll) return null;
  const form = formOf(app, plane);
  const id = plane.id;
  const rules = app.rules();
  const board = rules.board;
  const parts: Child[] = [];
  const deckFull = st.takeoffsLandingsThisTurn >= rules.flightDeck.perTurn;
  const withManoeuvre = (cmd: { type: string; [k: string]: unknown }) =>
    form.manoeuvre === '' ? cmd : { ...cmd, manoeuvre: form.manoeuvre === 'true' ? true : form.manoeuvre };
  // the tiles offered for the actions at hand, the one picked forgotten where it does not serve
  const tilesFor = (...actions: ManoeuvreAction[]) => {
    const choices = manoeuvreChoices(app, plane, actions);
    if (!choices.some(([v]) => v === form.manoeuvre)) form.manoeuvre = '';
    return choices;
  };
  // an attack's chance and a move's reach depend on the tile picked: the form is drawn again for it
  const manoeuvrePick = (choices: [string, string][]) =>
    choices.length
      ? labelled(t('useManoeuvre'), select(`manoeuvre-${id}`, form.manoeuvre, choices, (v) => { form.manoeuvre = v; app.render(false); }))
      : null;
  const manoeuvreState = () => ({ aggressive: mayBeAggressive(app, plane, manoeuvreChoices(app, plane, ['lightningAttack'])), picked: form.manoeuvre !== '' });

  if (st.afterMove && st.afterMove.plane === id) {
    const tiles = tilesFor(st.afterMove.lightningAttack ? 'lightningAttack' : 'land');
    parts.push(h('div', { class: 'form-row after-move' },
      h('p', { class: 'hint' }, t('afterMoveHint')),
      st.afterMove.lightningAttack ? rollButton(app, plane, 'lightning', t('lightningAttack'), `lightning-${id}`, manoeuvreState(), () => void app.send(withManoeuvre({ type: 'lightningAttack', plane: id }))) : null,
      st.afterMove.emergencyLanding
        ? rules.flightDeck.emergencyLandingCounts && deckFull
          ? h('p', { class: 'hint' }, t('deckFullEmergency', { n: rules.flightDeck.perTurn }))
          : rollButton(app, plane, 'emergencyLanding', t('emergencyLanding'), `emergency-${id}`, manoeuvreState(), () => void app.send(withManoeuvre({ type: 'emergencyLanding', plane: id })))
        : null,
      manoeuvrePick(tiles),
    ));
  }

  if (!plane.done && (!plane.action || !st.actionsStarted)) {
    parts.push(
      h('div', { class: 'choose', role: 'group', 'aria-label': t('chooseAction') },
        ACTIONS.map((a) =>
          h('button', {
            type: 'button',
            class: `btn action-choice${plane.action === a ? ' selected' : ''}`,
            'aria-pressed': plane.action === a ? 'true' : 'false',
            'data-testid': `choose-${id}-${a}`,
            onclick: () => chooseAction(app, plane, a),
          }, tk(`act_${a}`), futileNote(app, plane, a)),
        ),
      ),
    );
  }

  const extras: Child[] = [];
  if (plane.action && !plane.done) {
    const waiting = st.planes.filter((p) => !p.destroyed && p.action === null);
    const redIslands = board.islands.filter((i) => i.colour === 'red');
    const island = plane.position.at === 'island' ? st.islands.find((i) => i.id === (plane.position as { island: number }).island) : undefined;
    // no action is performed, nor skipped, before every plane has chosen: its form comes then
    if (waiting.length) parts.push(h('p', { class: 'hint waiting', 'data-testid': `waiting-${id}` }, t('waitingForChoices', { planes: planeList(waiting.map((p) => p.id)) })));
    else if (plane.action === 'takeoffLanding' && deckFull && plane.position.at !== 'island') {
      parts.push(h('p', { class: 'hint', 'data-testid': `deck-full-${id}` }, plane.position.at === 'deck'
        ? t('deckFullTakeOff', { n: rules.flightDeck.perTurn })
        : t('deckFullLanding', { n: rules.flightDeck.perTurn, fuel: rules.flightDeck.blockedLandingFuel })));
    } else if (plane.action === 'takeoffLanding') {
      if (plane.position.at === 'deck') {
        const loads: [string, string][] = [['none', t('load_none')], ['bomb', t('load_bomb')]];
        if (st.setup?.expansions.dropTank) loads.push(['dropTank', t('load_dropTank')]);
        const dests: [string, string][] = [['approach', `${t('approach')} (${t('fuelCost', { n: rules.takeOff.approachFuel })})`],
          ...redIslands.map((i): [string, string] => [String(i.id), `${t('island', { n: i.id })} (${t('fuelCost', { n: rules.takeOff.redIslandFuel })})`])];
        if (!dests.some(([v]) => v === form.to)) form.to = 'approach';
        // the destination on a row of its own: its entries are long ("Island 10 (3 fuel)")
        parts.push(h('div', { class: 'form-row takeoff' },
          labelled(t('destination'), select(`to-${id}`, form.to, dests, (v) => { form.to = v; })),
          labelled(t('load'), select(`load-${id}`, form.load, loads, (v) => { form.load = v as PlaneForm['load']; })),
          button(t('takeOff'), () => void app.send({ type: 'takeOff', plane: id, load: form.load, to: destination(form.to) }), 'primary', `takeoff-${id}`),
        ));
      } else if (plane.position.at === 'approach') {
        const auto = plane.fuel >= rules.landing.autoFuel;
        parts.push(h('div', { class: 'form-row' },
          rollButton(app, plane, 'landing', t('land'), `land-${id}`, manoeuvreState(), () => void app.send(withManoeuvre({ type: 'land', plane: id }))),
          h('span', { class: 'hint' }, auto ? t('landAuto', { n: rules.landing.autoFuel }) : t('landRoll')),
          manoeuvrePick(tilesFor('land')),
        ));
      } else {
        parts.push(h('p', { class: 'hint' }, t('landFromApproach')));
      }
    } else if (plane.action === 'move') {
      if (plane.position.at === 'deck') {
        parts.push(h('p', { class: 'hint' }, t('moveFromDeck')));
      } else if (plane.fuel < actionFuel(app.rules(), 'move')) {
        // a drop tank carried (its button below) refuels it first
        parts.push(noFuelNote(plane, 'noFuelMove', actionFuel(app.rules(), 'move'), `move-no-fuel-${id}`));
      } else {
        const tiles = tilesFor('move');
        const reach = reachOf(app, plane, form.manoeuvre);
        const allDest = moveOptions(app, plane, reach);
        if (!allDest.some(([v, , off]) => v === form.to && !off)) form.to = cheapestMove(app, reach, allDest);
        const near = oneIslandMoves(app, plane);
        const vias = viaOptions(reach, form.to);
        if (!vias.some(([v]) => v === form.via)) form.via = vias[0]?.[0] ?? '';
        parts.push(h('div', { class: 'form-row' },
          // the islands to fly over depend on the destination: the form is drawn again for it
          labelled(t('destination'), select(`to-${id}`, form.to, allDest, (v) => { form.to = v; app.render(false); })),
          vias.length ? labelled(t('via'), select(`via-${id}`, form.via, vias, (v) => { form.via = v; })) : null,
          manoeuvrePick(tiles),
          button(t('move'), () => {
            const cmd: { type: string; [k: string]: unknown } = { type: 'move', plane: id, to: destination(form.to) };
            if (form.via && vias.some(([v]) => v === form.via)) cmd.via = Number(form.via);
            void app.send(withManoeuvre(cmd));
          }, 'primary', `move-${id}`),
        ),
        h('p', { class: 'hint move-hint', 'data-testid': `move-hint-${id}` }, t('moveHint', {
          near: near.length ? near.join(', ') : '—',
          one: rules.move.oneIslandFuel,
          two: rules.move.twoIslandsFuel,
          back: rules.move.returnFuel,
        })));
      }
    } else if (plane.action === 'search') {
      const orange = island?.colour === 'orange';
      const weather = canRevealWeather(app, island);
      // an action the plane's fuel does not pay for is not offered: said instead, with what is left to it
      const canSearch = orange && plane.fuel >= rules.search.fuelCost;
      const canReveal = weather && plane.fuel >= rules.weather.revealFuelCost;
      const tiles = tilesFor(...(canSearch ? ['search' as const] : []), ...(canReveal ? ['revealWeather' as const] : []));
      parts.push(h('div', { class: 'form-row' },
        canSearch ? rollButton(app, plane, 'search', t('searchDo'), `search-${id}`, manoeuvreState(), () => void app.send(withManoeuvre({ type: 'search', plane: id }))) : null,
        canReveal ? rollButton(app, plane, 'weather', t('revealWeather'), `weather-${id}`, manoeuvreState(), () => void app.send(withManoeuvre({ type: 'revealWeather', plane: id })), canSearch ? '' : 'primary') : null,
        canSearch || canReveal ? manoeuvrePick(tiles)
        : orange || weather ? noFuelNote(plane, orange ? 'noFuelSearch' : 'noFuelReveal', orange ? rules.search.fuelCost : rules.weather.revealFuelCost)
        : h('p', { class: 'hint' }, st.setup?.expansions.weather ? t('searchWhereWeather') : t('searchWhere')),
      ));
    } else if (plane.action === 'attack') {
      const targets = attackTargets(app, plane);
      const tiles = tilesFor('attack');
      const paid = plane.fuel >= rules.attack.fuelCost;
      parts.push(h('div', { class: 'form-row' },
        paid ? targets.map((x) => rollButton(app, plane, x, tk(`attack_${x}`), `attack-${id}-${x}`, manoeuvreState(), () => void app.send(withManoeuvre({ type: 'attack', plane: id, target: x })))) : null,
        !targets.length ? h('p', { class: 'hint' }, plane.position.at === 'deck' ? t('attackFromDeck') : t('attackNothing', { n: rules.search.locatedAt }))
        : paid ? manoeuvrePick(tiles) : noFuelNote(plane, 'noFuelAttack', rules.attack.fuelCost),
      ));
    }
    const tankLimit = rules.dropTank.maxFuelToUse;
    if (plane.load === 'dropTank' && plane.fuel <= tankLimit) extras.push(button(t('useDropTank'), () => void app.send({ type: 'useDropTank', plane: id }), 'small', `droptank-${id}`));
    // in the air, not acting costs fuel to stay up: said on the button, and a skip that crashes the plane asked first
    const cost = skipCost(st, rules, plane, 'skipAction');
    const skipLabel = cost.fuel === 0 ? t('skip') : `${t('skip')} (−${t('fuelCost', { n: cost.fuel })}${cost.crashes ? `: ${t('skipCrashes')}` : ''})`;
    const skip = () => void app.send({ type: 'skipAction', plane: id });
    const askFirst = () => void ask(app, t('skipCrashConfirm', { plane: id, fuel: plane.fuel, cost: cost.fuel }), t('skip')).then((ok) => (ok ? skip() : undefined));
    if (!waiting.length) extras.push(button(skipLabel, cost.crashes ? askFirst : skip, 'small', `skip-${id}`));
  }
  // asked first: a load dropped by a stray tap is gone (Undo aside) until the plane is back on the deck
  if (plane.load !== 'none' && plane.position.at !== 'deck') {
    extras.push(button(t('dropLoad'), () => {
      void ask(app, t('dropLoadConfirm', { plane: id, load: tk(`load_${plane.load}`) }), t('dropLoad')).then((ok) => (ok ? app.send({ type: 'dropLoad', plane: id }) : undefined));
    }, 'small', `dropload-${id}`));
  }
  if (extras.length) parts.push(h('div', { class: 'form-row extras' }, extras));
  if (!parts.length) return null;
  return h('div', { class: 'plane-controls', ...SENDS }, parts);
}

export function planesView(app: App, seat: number | null, withControls: boolean): HTMLElement {
  const planes = (app.state?.planes ?? []).filter((p) => seat === null || p.seat === seat);
  return h('section', { class: 'planes' }, planes.map((p) => planeCard(app, p, withControls)));
}
