/** The player phase: choosing actions, and each action a plane can take. */
import { emit, plural, positionParams, reject, type Ctx } from './context.ts';
import { clearWayToApproach, colourOf, islandName, joined, stepsFrom } from './board.ts';
import {
  describePosition,
  getPlane,
  inAir,
  islandOf,
  loseFuel,
  payFuel,
  returnLoad,
  samePosition,
  skillDice,
  stormPenalty,
} from './planes.ts';
import { startPlaneRoll } from './rolls.ts';
import { skipCost } from './skip-cost.ts';
import type {
  AttackCommand,
  ChooseActionCommand,
  DropLoadCommand,
  EmergencyLandingCommand,
  LandCommand,
  LightningAttackCommand,
  ManoeuvreUse,
  MoveCommand,
  RevealWeatherCommand,
  SearchCommand,
  SkipActionCommand,
  TakeOffCommand,
  UseDropTankCommand,
} from './commands.ts';
import { MANOEUVRE_NAMES, tilesServing, type ManoeuvreAction } from './manoeuvres.ts';
import type { ActionType, AttackTargetInfo, IslandState, ManoeuvreId, PlaneState, Position } from './types.ts';
import type { RollTier } from '../../dice/types.ts';

const ACTION_NAMES: Record<ActionType, string> = {
  search: 'Search',
  takeoffLanding: 'Take-off/Landing',
  attack: 'Attack',
  move: 'Move',
};

/** What a plane tries to do, as a refusal's stable `tried` parameter (by the English verb the messages use). */
const TRIED: Record<string, string> = {
  'take off': 'takeOff',
  land: 'land',
  move: 'move',
  search: 'search',
  attack: 'attack',
  'make an emergency landing': 'emergencyLanding',
};


function requirePlayerPhase(ctx: Ctx): void {
  if (ctx.state.phase !== 'planes') {
    reject('wrongPhase', ctx.state.phase === 'japanese' ? 'It is the Japanese phase: draw the Japanese card first.' : 'Plane actions are taken in the player phase.');
  }
}

export function chooseAction(ctx: Ctx, command: ChooseActionCommand): void {
  requirePlayerPhase(ctx);
  const plane = getPlane(ctx, command.plane);
  if (ctx.state.actionsStarted) {
    reject('actionsStarted', 'The planes have started their actions: action discs cannot be moved until the next turn.');
  }
  plane.action = command.action;
  emit(ctx, 'actionChosen', { plane: plane.id, action: command.action });
}

/** Actions are performed (or skipped) only once every plane has chosen one (rulebook, "Player actions"). */
function requireEveryActionChosen(ctx: Ctx): void {
  const unchosen = ctx.state.planes.filter((p) => !p.destroyed && p.action === null);
  if (unchosen.length > 0) {
    reject(
      'actionsNotChosen',
      `Choose an action for plane ${unchosen.map((p) => p.id).join(', plane ')} first: every plane picks its action before any is performed.`,
      { planes: unchosen.map((p) => p.id).join(', ') },
    );
  }
}

/** Checks common to every action a plane performs; marks the turn's actions as begun. */
function beginAction(ctx: Ctx, plane: PlaneState, action: ActionType, verb: string): void {
  requirePlayerPhase(ctx);
  if (plane.done) reject('alreadyActed', `Plane ${plane.id} has already taken its action this turn.`, { plane: plane.id });
  requireEveryActionChosen(ctx);
  if (plane.action !== action) {
    reject('wrongAction', `Plane ${plane.id} chose ${ACTION_NAMES[plane.action!]}: it cannot ${verb} this turn.`, {
      plane: plane.id,
      chose: plane.action!,
      tried: TRIED[verb] ?? verb,
    });
  }
  ctx.state.actionsStarted = true;
  ctx.state.afterMove = null;
}

/** Discard the plane's expert manoeuvre tile to use it here (checked against what the tile allows). */
function useManoeuvre(ctx: Ctx, plane: PlaneState, use: ManoeuvreUse | undefined, action: ManoeuvreAction, what: string): ManoeuvreId | null {
  const allowed = tilesServing(action, ctx.rules);
  if (use === undefined) return null;
  if (!ctx.state.setup?.expansions.expertManoeuvres) reject('noManoeuvres', 'This game is played without the expert manoeuvres expansion.');
  const tile = plane.manoeuvre;
  if (!tile || tile.used) reject('manoeuvreUsed', `Plane ${plane.id} has no expert manoeuvre tile left: each tile is used once.`, { plane: plane.id });
  let id = tile.id;
  if (use !== true) {
    if (id !== null && id !== use) reject('wrongManoeuvre', `Plane ${plane.id}'s tile is not ${MANOEUVRE_NAMES[use]}.`, { plane: plane.id, manoeuvre: use });
    if (id === null && ctx.state.planes.some((p) => p.manoeuvre?.id === use)) {
      reject('manoeuvreUsed', `The ${MANOEUVRE_NAMES[use]} tile has already been used.`, { manoeuvre: use });
    }
    id = use;
  } else if (id === null) {
    reject('manoeuvreUnknown', `Say which tile plane ${plane.id} turned over: the tiles were dealt at the table.`, { plane: plane.id });
  }
  // the dealt tile is secret at the table: a refusal shown to everyone does not name it
  if (!allowed.includes(id)) {
    // the params keep the secret too: the plane, not the tile, when it is the plane's own dealt tile
    reject('manoeuvreNotHere', `${use === true ? `Plane ${plane.id}'s tile` : MANOEUVRE_NAMES[id]} cannot be used to ${what}.`, {
      ...(use === true ? { plane: plane.id } : { manoeuvre: id }),
      for: action,
    });
  }
  tile.id = id;
  tile.used = true;
  emit(ctx, 'manoeuvreUsed', { plane: plane.id, manoeuvre: id });
  return id;
}

function loadPenalty(ctx: Ctx, plane: PlaneState): { reason: string; dice: number }[] {
  return plane.load === 'none' ? [] : [{ reason: plane.load === 'bomb' ? 'bomb' : 'drop tank', dice: -ctx.rules.load.dicePenalty }];
}

function stormPart(ctx: Ctx, plane: PlaneState): { reason: string; dice: number }[] {
  const storm = stormPenalty(ctx, plane);
  return storm ? [{ reason: 'storm', dice: -storm }] : [];
}

function skillPart(ctx: Ctx, plane: PlaneState): { reason: string; dice: number } {
  return { reason: 'skill', dice: skillDice(ctx.rules, plane.skill) };
}

function checkFlightDeck(ctx: Ctx, plane: PlaneState, verb: string, losesTurn = true): void {
  const limit = ctx.rules.flightDeck.perTurn;
  if (ctx.state.takeoffsLandingsThisTurn >= limit) {
    const penalty = inAir(plane) ? ` and ${plural(ctx.rules.flightDeck.blockedLandingFuel, 'fuel point')}` : '';
    const consequence = losesTurn ? ` and loses its turn${penalty} (skip its action)` : ' this turn';
    reject('flightDeckFull', `Only ${limit} planes can take off or land each turn: plane ${plane.id} cannot ${verb}${consequence}.`, {
      plane: plane.id,
      limit,
      tried: TRIED[verb] ?? verb,
      losesTurn: losesTurn ? 1 : 0,
      ...(losesTurn && inAir(plane) ? { fuel: ctx.rules.flightDeck.blockedLandingFuel } : {}),
    });
  }
}

function useFlightDeck(ctx: Ctx): void {
  ctx.state.takeoffsLandingsThisTurn += 1;
}

function openAfterMove(ctx: Ctx, plane: PlaneState): void {
  const island = islandOf(ctx.state, plane);
  const lightningAttack = (island?.japanese.length ?? 0) > 0;
  const emergencyLanding = plane.position.at === 'approach' && plane.fuel === 0;
  ctx.state.afterMove = lightningAttack || emergencyLanding ? { plane: plane.id, lightningAttack, emergencyLanding } : null;
}

export function takeOff(ctx: Ctx, command: TakeOffCommand): void {
  const plane = getPlane(ctx, command.plane);
  beginAction(ctx, plane, 'takeoffLanding', 'take off');
  if (plane.position.at !== 'deck') reject('notOnDeck', `Plane ${plane.id} is in ${describePosition(plane.position)}, not on the flight deck: it can land, not take off.`, { plane: plane.id, ...positionParams(plane.position) });
  checkFlightDeck(ctx, plane, 'take off');
  const load = command.load ?? plane.load;
  if (load === 'dropTank' && !ctx.state.setup?.expansions.dropTank) reject('noDropTanks', 'This game is played without the drop tank expansion.');
  if (load !== 'none' && plane.load === 'none') {
    const inUse = ctx.state.planes.filter((p) => !p.destroyed && p.load !== 'none').length;
    if (inUse >= ctx.rules.load.tokens) reject('noLoadTokens', `All ${ctx.rules.load.tokens} bomb/drop tank tokens are in use.`, { tokens: ctx.rules.load.tokens });
  }
  let to: Position;
  let cost: number;
  if (command.to === 'approach') {
    to = { at: 'approach' };
    cost = ctx.rules.takeOff.approachFuel;
  } else {
    if (colourOf(ctx.rules.board, command.to) !== 'red') {
      reject('notRedIsland', `A plane taking off flies to the approach area or a red island; ${islandName(ctx.rules.board, command.to)} is not red.`, { island: command.to });
    }
    to = { at: 'island', island: command.to };
    cost = ctx.rules.takeOff.redIslandFuel;
  }
  payFuel(ctx, plane, cost, `taking off to ${describePosition(to)}`, { for: 'takeOff', to: to.at === 'island' ? to.island : to.at });
  plane.load = load;
  plane.position = to;
  plane.done = true;
  useFlightDeck(ctx);
  emit(ctx, 'tookOff', { plane: plane.id, to, load, fuel: plane.fuel });
  openAfterMove(ctx, plane);
}

function landingTiers(ctx: Ctx): RollTier[] {
  return [
    { id: 'injured', equal: 0 },
    { id: 'crashUnharmed', equal: ctx.rules.landing.crashUnharmedEqual },
    { id: 'safe', equal: ctx.rules.landing.safeEqual },
  ];
}

function landSafely(ctx: Ctx, plane: PlaneState, how: string): void {
  plane.position = { at: 'deck' };
  plane.fuel = ctx.rules.fuel.max;
  emit(ctx, 'landed', { plane: plane.id, fuel: plane.fuel, how });
}

export function land(ctx: Ctx, command: LandCommand): void {
  const plane = getPlane(ctx, command.plane);
  beginAction(ctx, plane, 'takeoffLanding', 'land');
  if (plane.position.at !== 'approach') reject('notInApproach', `Plane ${plane.id} is on ${describePosition(plane.position)}: landing is done from the approach area.`, { plane: plane.id, ...positionParams(plane.position) });
  checkFlightDeck(ctx, plane, 'land');
  const ace = useManoeuvre(ctx, plane, command.manoeuvre, 'land', 'land');
  useFlightDeck(ctx);
  plane.done = true;
  if (ace) return landSafely(ctx, plane, 'Landing Ace');
  if (plane.fuel >= ctx.rules.landing.autoFuel) return landSafely(ctx, plane, `${plane.fuel} fuel: automatic`);
  startPlaneRoll(ctx, {
    purpose: 'landing',
    plane,
    breakdown: [skillPart(ctx, plane), { reason: 'fuel', dice: plane.fuel * ctx.rules.landing.dicePerFuel }, ...loadPenalty(ctx, plane)],
    goal: { kind: 'tiers', tiers: landingTiers(ctx) },
    onesCostFuel: false,
  });
}

export function emergencyLanding(ctx: Ctx, command: EmergencyLandingCommand): void {
  const plane = getPlane(ctx, command.plane);
  requirePlayerPhase(ctx);
  const window = ctx.state.afterMove;
  if (!window || window.plane !== plane.id || !window.emergencyLanding) {
    reject('noEmergencyLanding', `An emergency landing is made right after a move that ends in the approach area with 0 fuel; plane ${plane.id} is not in that position.`, { plane: plane.id });
  }
  if (ctx.rules.flightDeck.emergencyLandingCounts) checkFlightDeck(ctx, plane, 'make an emergency landing', false);
  const ace = useManoeuvre(ctx, plane, command.manoeuvre, 'land', 'land');
  ctx.state.afterMove = null;
  if (ctx.rules.flightDeck.emergencyLandingCounts) useFlightDeck(ctx);
  if (ace) return landSafely(ctx, plane, 'Landing Ace');
  startPlaneRoll(ctx, {
    purpose: 'emergencyLanding',
    plane,
    breakdown: [skillPart(ctx, plane), ...loadPenalty(ctx, plane)],
    goal: { kind: 'tiers', tiers: landingTiers(ctx) },
    onesCostFuel: false,
  });
}

function islandById(ctx: Ctx, id: number): IslandState {
  const island = ctx.state.islands.find((i) => i.id === id);
  if (!island) reject('noSuchIsland', `There is no island ${id} on the board.`, { island: id });
  return island;
}

function reachable(ctx: Ctx, from: Position, to: number): boolean {
  return stepsFrom(ctx.rules.board, from).includes(to);
}

export function move(ctx: Ctx, command: MoveCommand): void {
  const plane = getPlane(ctx, command.plane);
  beginAction(ctx, plane, 'move', 'move');
  const from = plane.position;
  if (from.at === 'deck') reject('onDeck', `Plane ${plane.id} is on the flight deck: it must take off before it can move.`, { plane: plane.id });
  const board = ctx.rules.board;
  let to: Position;
  let cost: number;
  let what: string;
  let whatKey: string;
  let invisible: ManoeuvreId | null = null;
  if (command.to === 'approach') {
    if (command.via !== undefined) reject('badMove', 'A return to the approach area takes no "via" island.');
    if (from.at === 'approach') reject('badMove', `Plane ${plane.id} is already in the approach area.`, { plane: plane.id, at: 'approach' });
    invisible = useManoeuvre(ctx, plane, command.manoeuvre, 'move', 'move');
    const fromIsland = (from as { island: number }).island;
    const way = clearWayToApproach(board, ctx.state.islands, fromIsland, invisible !== null);
    if (!way) {
      reject('wayBlocked', `Plane ${plane.id} cannot return to the approach area: every way back from island ${fromIsland} passes an island with Japanese planes.`, {
        plane: plane.id,
        island: fromIsland,
      });
    }
    to = { at: 'approach' };
    cost = ctx.rules.move.returnFuel;
    what = 'a return to the approach area';
    whatKey = 'returnMove';
  } else {
    const dest = islandById(ctx, command.to);
    if (from.at === 'island' && from.island === dest.id) reject('badMove', `Plane ${plane.id} is already on island ${dest.id}.`, { plane: plane.id, at: 'island', island: dest.id });
    if (command.via === undefined) {
      if (command.manoeuvre !== undefined) useManoeuvre(ctx, plane, command.manoeuvre, 'oneIslandMove', 'make a one-island move');
      if (!reachable(ctx, from, dest.id)) {
        reject('notJoined', `No white line joins ${describePosition(from)} to island ${dest.id}: a one-island move follows a white line.`, { ...positionParams(from), to: dest.id });
      }
      cost = ctx.rules.move.oneIslandFuel;
      what = 'a one-island move';
      whatKey = 'oneIslandMove';
    } else {
      const via = islandById(ctx, command.via);
      if (!reachable(ctx, from, via.id)) reject('notJoined', `No white line joins ${describePosition(from)} to island ${via.id}.`, { ...positionParams(from), to: via.id });
      if (!joined(board, via.id, dest.id)) reject('notJoined', `No white line joins island ${via.id} to island ${dest.id}.`, { at: 'island', island: via.id, to: dest.id });
      invisible = useManoeuvre(ctx, plane, command.manoeuvre, 'move', 'move');
      if (via.japanese.length > 0 && !invisible) {
        reject('viaOccupied', `A two-island move must not fly over Japanese planes: island ${via.id} is occupied.`, { island: via.id });
      }
      cost = ctx.rules.move.twoIslandsFuel;
      what = 'a two-island move';
      whatKey = 'twoIslandMove';
    }
    to = { at: 'island', island: dest.id };
  }
  payFuel(ctx, plane, cost, what, { for: whatKey });
  plane.position = to;
  plane.done = true;
  emit(ctx, 'moved', { plane: plane.id, from, to, fuel: plane.fuel, ...(command.via !== undefined ? { via: command.via } : {}) });
  const island = islandOf(ctx.state, plane);
  if (island?.weather?.revealed && island.weather.id === 'favourableWind') {
    const gain = Math.min(ctx.rules.weather.windFuel, ctx.rules.fuel.max - plane.fuel);
    plane.fuel += gain;
    emit(ctx, 'fuelGained', { plane: plane.id, amount: gain, fuel: plane.fuel, reason: 'favourable wind' });
  }
  openAfterMove(ctx, plane);
}

function searchAllies(ctx: Ctx, plane: PlaneState): number {
  const mine = islandOf(ctx.state, plane)?.id;
  return ctx.state.planes.filter(
    (p) =>
      p.id !== plane.id &&
      !p.destroyed &&
      p.action === 'search' &&
      p.position.at === 'island' &&
      p.position.island !== mine &&
      colourOf(ctx.rules.board, p.position.island) === 'orange',
  ).length;
}

export function search(ctx: Ctx, command: SearchCommand): void {
  const plane = getPlane(ctx, command.plane);
  beginAction(ctx, plane, 'search', 'search');
  const island = islandOf(ctx.state, plane);
  if (!island || island.colour !== 'orange') {
    reject('notOrange', `Plane ${plane.id} is on ${describePosition(plane.position)}${island ? ` (${island.colour})` : ''}: searching for the Shōhō needs an orange island.`, {
      plane: plane.id,
      ...positionParams(plane.position),
      ...(island ? { colour: island.colour } : {}),
    });
  }
  const manoeuvre = useManoeuvre(ctx, plane, command.manoeuvre, 'search', 'search');
  payFuel(ctx, plane, ctx.rules.search.fuelCost, 'a search', { for: 'search' });
  plane.done = true;
  const allies = searchAllies(ctx, plane);
  startPlaneRoll(ctx, {
    purpose: 'search',
    plane,
    breakdown: [
      skillPart(ctx, plane),
      { reason: 'fuel', dice: ctx.rules.search.fuelDice },
      ...(allies ? [{ reason: 'allies searching', dice: allies * ctx.rules.search.allyDice }] : []),
      ...loadPenalty(ctx, plane),
      ...stormPart(ctx, plane),
    ],
    goal: { kind: 'tiers', tiers: ctx.rules.search.tiers.map((t, i) => ({ id: `raise${i}`, equal: t.equal })) },
    onesCostFuel: manoeuvre !== 'efficient',
    manoeuvre,
    island: island.id,
  });
}

export function revealWeather(ctx: Ctx, command: RevealWeatherCommand): void {
  const plane = getPlane(ctx, command.plane);
  if (!ctx.state.setup?.expansions.weather) reject('noWeather', 'This game is played without the weather events expansion.');
  beginAction(ctx, plane, 'search', 'search');
  const island = islandOf(ctx.state, plane);
  if (!island?.weather || island.weather.revealed) {
    reject('noWeatherToken', `There is no face-down weather token on ${describePosition(plane.position)}.`, positionParams(plane.position));
  }
  const manoeuvre = useManoeuvre(ctx, plane, command.manoeuvre, 'revealWeather', 'reveal a weather token');
  payFuel(ctx, plane, ctx.rules.weather.revealFuelCost, 'a search', { for: 'revealWeather' });
  plane.done = true;
  startPlaneRoll(ctx, {
    purpose: 'weather',
    plane,
    breakdown: [skillPart(ctx, plane), { reason: 'fuel', dice: ctx.rules.search.fuelDice }, ...loadPenalty(ctx, plane)],
    goal: { kind: 'tiers', tiers: [{ id: 'reveal', equal: ctx.rules.weather.revealEqual }] },
    onesCostFuel: manoeuvre !== 'efficient',
    manoeuvre,
    island: island.id,
  });
}

export function islandTargets(ctx: Ctx, island: IslandState): AttackTargetInfo[] {
  return island.japanese.map((type, index) => ({
    id: `i${island.id}-${index}`,
    plane: type,
    island: island.id,
    equal: ctx.rules.attack.targets[type].equal,
    skill: ctx.rules.attack.targets[type].skill,
  }));
}

function capTargets(ctx: Ctx): AttackTargetInfo[] {
  return Array.from({ length: ctx.state.cap }, (_, index) => ({
    id: `cap-${index}`,
    plane: 'zeke' as const,
    island: null,
    equal: ctx.rules.attack.targets.zeke.equal,
    skill: ctx.rules.attack.targets.zeke.skill,
  }));
}

function attackAllies(ctx: Ctx, plane: PlaneState): number {
  return ctx.state.planes.filter((p) => p.id !== plane.id && !p.destroyed && p.action === 'attack' && samePosition(p.position, plane.position)).length;
}

function searchBonus(ctx: Ctx): number {
  let bonus = 0;
  for (const step of ctx.rules.search.attackBonus) if (ctx.state.search >= step.from) bonus = step.dice;
  return bonus;
}

/** The attack dice shared by a normal attack and an Aggressive lightning attack. */
function attackBase(ctx: Ctx, plane: PlaneState): { reason: string; dice: number }[] {
  const allies = attackAllies(ctx, plane);
  return [
    skillPart(ctx, plane),
    { reason: 'fuel', dice: ctx.rules.attack.fuelDice },
    ...(allies ? [{ reason: 'allies attacking', dice: allies * ctx.rules.attack.allyDice }] : []),
  ];
}

function requireLocatedFromOrange(ctx: Ctx, plane: PlaneState, target: 'cap' | 'shoho'): void {
  const what = target === 'cap' ? 'the CAP' : 'the Shōhō';
  if (ctx.state.search < ctx.rules.search.locatedAt) {
    reject('notLocated', `The Shōhō has not been located: the search track must reach ${ctx.rules.search.locatedAt} before attacking ${what} (it is at ${ctx.state.search}).`, {
      target,
      locatedAt: ctx.rules.search.locatedAt,
      search: ctx.state.search,
    });
  }
  const island = islandOf(ctx.state, plane);
  if (!island || island.colour !== 'orange') reject('notOrange', `Plane ${plane.id} must be on an orange island to attack ${what}.`, { plane: plane.id, target });
}

export function attack(ctx: Ctx, command: AttackCommand): void {
  const plane = getPlane(ctx, command.plane);
  beginAction(ctx, plane, 'attack', 'attack');
  if (!inAir(plane)) reject('onDeck', `Plane ${plane.id} is on the flight deck: it must take off first.`, { plane: plane.id });
  const island = islandOf(ctx.state, plane);
  if (command.target === 'planes') {
    if (!island || island.japanese.length === 0) reject('noTargets', `There are no Japanese planes on ${describePosition(plane.position)} to attack.`, positionParams(plane.position));
  } else if (command.target === 'cap') {
    requireLocatedFromOrange(ctx, plane, 'cap');
    if (ctx.state.cap === 0) reject('noTargets', 'There are no fighters in the CAP spaces.', { target: 'cap' });
  } else {
    requireLocatedFromOrange(ctx, plane, 'shoho');
    if (plane.load !== 'bomb') reject('noBomb', `Plane ${plane.id} carries no bomb: the Shōhō can only be attacked with a bomb.`, { plane: plane.id });
  }
  const manoeuvre = useManoeuvre(ctx, plane, command.manoeuvre, 'attack', 'attack');
  payFuel(ctx, plane, ctx.rules.attack.fuelCost, 'an attack', { for: 'attack' });
  plane.done = true;
  const base = attackBase(ctx, plane);
  const bonus = searchBonus(ctx);
  const common = {
    plane,
    onesCostFuel: manoeuvre !== 'efficient',
    manoeuvre,
    freeOnes: manoeuvre === 'decisive' ? ctx.rules.manoeuvres.decisiveFreeOnes : 0,
    island: island?.id ?? null,
  };
  if (command.target === 'shoho') {
    returnLoad(ctx, plane, 'bomb dropped on the Shōhō');
    startPlaneRoll(ctx, {
      ...common,
      purpose: 'shoho',
      breakdown: [
        ...base,
        ...(bonus ? [{ reason: `search ${ctx.state.search}`, dice: bonus }] : []),
        ...(ctx.state.cap ? [{ reason: 'CAP fighters', dice: -ctx.state.cap * ctx.rules.cap.dicePenaltyPerFighter }] : []),
        ...stormPart(ctx, plane),
      ],
      goal: { kind: 'tiers', tiers: ctx.rules.shoho.tiers.map((t, i) => ({ id: `hits${i}`, equal: t.equal })) },
    });
    return;
  }
  const targets = command.target === 'cap' ? capTargets(ctx) : islandTargets(ctx, island!);
  startPlaneRoll(ctx, {
    ...common,
    purpose: command.target === 'cap' ? 'cap' : 'attack',
    breakdown: [
      ...base,
      ...(command.target === 'cap' && bonus ? [{ reason: `search ${ctx.state.search}`, dice: bonus }] : []),
      ...loadPenalty(ctx, plane),
      ...stormPart(ctx, plane),
    ],
    goal: { kind: 'targets', targets: targets.map((t) => ({ id: t.id, equal: t.equal, value: t.skill })) },
    targets,
  });
}

export function lightningAttack(ctx: Ctx, command: LightningAttackCommand): void {
  const plane = getPlane(ctx, command.plane);
  requirePlayerPhase(ctx);
  const window = ctx.state.afterMove;
  if (!window || window.plane !== plane.id || !window.lightningAttack) {
    reject('noLightningAttack', `A lightning attack is made right after moving into a space with Japanese planes; plane ${plane.id} has not just done that.`, { plane: plane.id });
  }
  const island = islandOf(ctx.state, plane)!;
  const manoeuvre = useManoeuvre(ctx, plane, command.manoeuvre, 'lightningAttack', 'make a lightning attack');
  ctx.state.afterMove = null;
  let base: { reason: string; dice: number }[] = [skillPart(ctx, plane)];
  if (manoeuvre === 'aggressive') {
    payFuel(ctx, plane, ctx.rules.attack.fuelCost, 'an attack', { for: 'attack' });
    base = attackBase(ctx, plane);
  }
  const targets = islandTargets(ctx, island);
  startPlaneRoll(ctx, {
    purpose: 'lightningAttack',
    plane,
    breakdown: [...base, ...loadPenalty(ctx, plane), ...stormPart(ctx, plane)],
    goal: { kind: 'targets', targets: targets.map((t) => ({ id: t.id, equal: t.equal, value: t.skill })) },
    targets,
    onesCostFuel: manoeuvre !== 'efficient',
    manoeuvre,
    freeOnes: manoeuvre === 'decisive' ? ctx.rules.manoeuvres.decisiveFreeOnes : 0,
    island: island.id,
  });
}

/**
 * "Each plane must complete its actions completely and independently before the next plane starts":
 * another plane doing anything ends the moment right after a plane's move (lightning attack,
 * emergency landing).
 */
function otherPlaneActs(ctx: Ctx, plane: PlaneState): void {
  if (ctx.state.afterMove && ctx.state.afterMove.plane !== plane.id) ctx.state.afterMove = null;
}

export function dropLoad(ctx: Ctx, command: DropLoadCommand): void {
  const plane = getPlane(ctx, command.plane);
  requirePlayerPhase(ctx);
  if (plane.load === 'none') reject('noLoad', `Plane ${plane.id} carries neither a bomb nor a drop tank.`, { plane: plane.id });
  otherPlaneActs(ctx, plane);
  returnLoad(ctx, plane, 'dropped into the sea');
}

export function useDropTank(ctx: Ctx, command: UseDropTankCommand): void {
  const plane = getPlane(ctx, command.plane);
  requirePlayerPhase(ctx);
  if (plane.load !== 'dropTank') reject('noDropTank', `Plane ${plane.id} carries no drop tank.`, { plane: plane.id });
  if (plane.done) reject('notTurnStart', `A drop tank is used at the beginning of the plane's turn; plane ${plane.id} has already acted.`, { plane: plane.id });
  const limit = ctx.rules.dropTank.maxFuelToUse;
  if (plane.fuel > limit) reject('tooMuchFuel', `Plane ${plane.id} has ${plane.fuel} fuel: a drop tank is used with ${limit} fuel or fewer.`, { plane: plane.id, fuel: plane.fuel, limit });
  otherPlaneActs(ctx, plane);
  const gain = Math.min(ctx.rules.dropTank.fuelGain, ctx.rules.fuel.max - plane.fuel);
  plane.fuel += gain;
  plane.load = 'none';
  emit(ctx, 'dropTankUsed', { plane: plane.id, amount: gain, fuel: plane.fuel });
}

/** A plane that does not (or cannot) take its action: in the air it loses fuel to stay up. */
export function skipPlane(ctx: Ctx, plane: PlaneState, why: string): void {
  plane.done = true;
  plane.skipped = true;
  if (ctx.state.afterMove?.plane === plane.id) ctx.state.afterMove = null;
  emit(ctx, 'actionSkipped', { plane: plane.id, why });
  loseFuel(ctx, plane, skipCost(ctx.state, ctx.rules, plane, 'endTurn').fuel, 'staying in the air without acting');
}

export function skipAction(ctx: Ctx, command: SkipActionCommand): void {
  const plane = getPlane(ctx, command.plane);
  requirePlayerPhase(ctx);
  if (plane.done) reject('alreadyActed', `Plane ${plane.id} has already taken its action this turn.`, { plane: plane.id });
  // skipping is performing nothing: a skip before every disc is placed would fix the discs with planes still to choose
  requireEveryActionChosen(ctx);
  ctx.state.actionsStarted = true;
  ctx.state.afterMove = null;
  const cost = skipCost(ctx.state, ctx.rules, plane, 'skipAction');
  if (cost.blockedLanding) {
    plane.done = true;
    plane.skipped = true;
    emit(ctx, 'actionSkipped', { plane: plane.id, why: 'the flight deck is full: the plane cannot land' });
    loseFuel(ctx, plane, cost.fuel, 'circling while the flight deck is full');
    return;
  }
  skipPlane(ctx, plane, 'skipped');
}

