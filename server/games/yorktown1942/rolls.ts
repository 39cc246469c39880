/**
 * Rolls in the game: starting one (state.roll), feeding each reading of the tray to the
 * continuous-roll tracker (server/dice), and applying the best result when the players confirm.
 */
import { applyReading, bestResult, isRejection, startRoll } from '../../dice/index.ts';
import type { Face, RollGoal, RollState } from '../../dice/types.ts';
import { emit, plural, reject, type Ctx } from './context.ts';
import { finishYorktownAttack, releaseToken } from './japanese.ts';
import { crash, endGame, gainSkill, getPlane } from './planes.ts';
import type { ActiveRoll, AttackTargetInfo, IslandId, ManoeuvreId, PlaneState, RollPurpose, WeatherId } from './types.ts';
import type { ConfirmRollCommand } from './commands.ts';

export interface PlaneRollRequest {
  purpose: RollPurpose;
  plane: PlaneState;
  breakdown: { reason: string; dice: number }[];
  goal: RollGoal;
  onesCostFuel: boolean;
  targets?: AttackTargetInfo[];
  manoeuvre?: ManoeuvreId | null;
  freeOnes?: number;
  island?: IslandId | null;
}

export function diceTotal(breakdown: { dice: number }[]): number {
  return Math.max(0, breakdown.reduce((sum, part) => sum + part.dice, 0));
}

export function describeDice(breakdown: { reason: string; dice: number }[]): string {
  return breakdown.map((p, i) => `${i === 0 ? '' : p.dice < 0 ? ' ' : ' +'}${p.dice} ${p.reason}`).join('');
}

export function startPlaneRoll(ctx: Ctx, request: PlaneRollRequest): void {
  const dice = diceTotal(request.breakdown);
  if (dice <= 0) {
    reject('noDice', `Plane ${request.plane.id} has no dice to roll (${describeDice(request.breakdown)}).`, { plane: request.plane.id });
  }
  const roll: ActiveRoll = {
    purpose: request.purpose,
    plane: request.plane.id,
    tracker: startRoll({
      dice,
      continuous: true,
      onesCostFuel: request.onesCostFuel,
      fuelAvailable: request.plane.fuel,
      goal: request.goal,
      freeOnes: request.freeOnes ?? 0,
    }),
    fuelAtStart: request.plane.fuel,
    targets: request.targets ?? [],
    freeOnes: request.freeOnes ?? 0,
    manoeuvre: request.manoeuvre ?? null,
    island: request.island ?? null,
    diceBreakdown: request.breakdown,
  };
  ctx.state.roll = roll;
  emit(ctx, 'rollStarted', { purpose: roll.purpose, plane: roll.plane, dice, breakdown: roll.diceBreakdown, goal: request.goal });
}

export function startYorktownAttackRoll(ctx: Ctx, dice: number): void {
  ctx.state.roll = {
    purpose: 'yorktownAttack',
    plane: null,
    tracker: startRoll({ dice, continuous: false, onesCostFuel: false, fuelAvailable: 0, goal: { kind: 'faces' } }),
    fuelAtStart: 0,
    targets: [],
    freeOnes: 0,
    manoeuvre: null,
    island: null,
    diceBreakdown: [{ reason: `${ctx.state.pendingCard?.card.plane ?? 'attacker'} attack`, dice }],
  };
  emit(ctx, 'rollStarted', { purpose: 'yorktownAttack', plane: null, dice, single: true });
}

function rejectedFlags(tracker: RollState) {
  return tracker.flags.filter(isRejection);
}

function describeFlag(flag: RollState['flags'][number]): string {
  switch (flag.type) {
    case 'wrongDiceCount':
      return `${plural(flag.seen, 'die', 'dice')} seen but this roll has ${flag.expected}`;
    case 'illegalReroll':
      return `${plural(flag.lockedOnes, 'locked 1')} but only ${flag.seenOnes} showing: a locked 1 may not be re-rolled`;
    case 'badFace':
      return `${JSON.stringify(flag.value)} is not a die face`;
    case 'rerollAfterSingle':
      return 'the dice changed after a single roll (taken as a correction)';
    case 'rollOver':
      return 'the roll is over';
  }
}

/** One reading of the tray. A flagged reading changes nothing but the flags shown. */
export function readDice(ctx: Ctx, faces: number[]): void {
  const roll = ctx.state.roll;
  if (!roll) reject('noRoll', 'No roll is under way: start an action that needs dice first.');
  const before = roll.tracker;
  const tracker = applyReading(before, faces);
  const refused = rejectedFlags(tracker);
  if (refused.length > 0) {
    roll.tracker = tracker;
    emit(ctx, 'rollFlagged', { flags: tracker.flags, message: refused.map(describeFlag).join('; ') });
    return;
  }
  const freedNow = (tracker.freeOnesUsed ?? 0) - (before.freeOnesUsed ?? 0);
  if (freedNow > 0) {
    roll.freeOnes -= freedNow;
    emit(ctx, 'oneFreed', { plane: roll.plane, freed: freedNow, why: 'Decisive: re-roll the first 1' });
  }
  roll.tracker = tracker;
  const locked = tracker.lockedOnes - before.lockedOnes;
  emit(ctx, 'rollReading', {
    faces: tracker.faces,
    best: tracker.best,
    lockedOnes: tracker.lockedOnes,
    ...(tracker.flags.length ? { flags: tracker.flags } : {}),
  });
  if (roll.plane === null) return;
  const plane = getPlane(ctx, roll.plane);
  if (tracker.spec.onesCostFuel) {
    const fuel = roll.fuelAtStart - tracker.fuelSpent;
    if (fuel !== plane.fuel) {
      emit(ctx, 'fuelSpent', { plane: plane.id, amount: plane.fuel - fuel, fuel, reason: `${plural(locked, 'locked 1')}` });
      plane.fuel = fuel;
    }
  }
  if (tracker.outOfFuel) {
    crash(ctx, plane, ctx.rules.crash.skillLoss, 'a 1 was rolled with no fuel left');
  }
}

/** Which targets the players take: their choice (checked against the dice) or the best split. */
function takenTargets(ctx: Ctx, roll: ActiveRoll, assign: string[] | undefined): AttackTargetInfo[] {
  const tracker = roll.tracker;
  if (tracker.best.kind !== 'targets') return [];
  if (assign === undefined) {
    return tracker.best.taken.map((t) => roll.targets.find((x) => x.id === t.targetId)!);
  }
  const chosen: AttackTargetInfo[] = [];
  for (const id of assign) {
    const target = roll.targets.find((t) => t.id === id);
    if (!target) reject('badAssign', `"${id}" is not a target of this roll (targets: ${roll.targets.map((t) => t.id).join(', ')}).`, { target: String(id) });
    if (chosen.includes(target)) reject('badAssign', `Target ${id} is named twice.`, { target: String(id), twice: 1 });
    chosen.push(target);
  }
  const goal: RollGoal = { kind: 'targets', targets: chosen.map((t) => ({ id: t.id, equal: t.equal, value: 1 })) };
  const check = bestResult(tracker.faces ?? [], goal);
  if (check.kind !== 'targets' || check.taken.length !== chosen.length) {
    reject('badAssign', `The dice showing (${(tracker.faces ?? []).join(' ')}) cannot take all of ${assign.join(', ')}.`);
  }
  return chosen;
}

function removeTargets(ctx: Ctx, plane: PlaneState, taken: AttackTargetInfo[]): void {
  const byIsland = taken
    .filter((t) => t.island !== null)
    .map((t) => ({ island: t.island!, index: Number(t.id.split('-')[1]), plane: t.plane }))
    .sort((a, b) => b.index - a.index);
  for (const t of byIsland) {
    const island = ctx.state.islands.find((i) => i.id === t.island)!;
    island.japanese.splice(t.index, 1);
    releaseToken(ctx, t.plane);
  }
  for (const t of taken.filter((x) => x.island === null)) {
    ctx.state.cap -= 1;
    releaseToken(ctx, 'zeke');
    void t;
  }
  for (const t of taken) {
    ctx.state.japaneseDestroyed += 1;
    emit(ctx, 'japaneseDestroyed', { plane: t.plane, island: t.island, cap: t.island === null, by: plane.id });
    gainSkill(ctx, plane, t.skill, `destroyed a ${t.plane}`);
  }
}

function finishLanding(ctx: Ctx, plane: PlaneState, tierId: string | null): void {
  if (tierId === 'safe') {
    plane.position = { at: 'deck' };
    plane.fuel = ctx.rules.fuel.max;
    emit(ctx, 'landed', { plane: plane.id, fuel: plane.fuel });
  } else if (tierId === 'crashUnharmed') {
    crash(ctx, plane, 0, 'the landing failed (pilot unharmed)');
  } else {
    crash(ctx, plane, ctx.rules.landing.injuredSkillLoss, 'the landing failed with no matching dice (pilot injured)');
  }
}

function finishSearch(ctx: Ctx, plane: PlaneState, roll: ActiveRoll, tierId: string | null): void {
  const state = ctx.state;
  const tier = ctx.rules.search.tiers.find((_, i) => `raise${i}` === tierId);
  const hawkEye = roll.manoeuvre === 'hawkEye';
  let raise = 0;
  let skill = 0;
  if (tier) {
    raise = tier.raise + (hawkEye ? ctx.rules.manoeuvres.hawkEyeExtra : 0);
    skill = ctx.rules.search.skillOnSuccess;
  } else if (hawkEye) {
    raise = ctx.rules.manoeuvres.hawkEyeFailSearch;
    skill = ctx.rules.manoeuvres.hawkEyeFailSkill;
  }
  moveSearchToken(ctx, raise, (raised) => emit(ctx, tier ? 'searchSucceeded' : 'searchFailed', { plane: plane.id, raised, search: state.search }));
  gainSkill(ctx, plane, skill, tier ? 'successful search' : 'Hawk Eye');
}

function finishWeather(ctx: Ctx, plane: PlaneState, roll: ActiveRoll, tierId: string | null, told: WeatherId | undefined): void {
  const island = ctx.state.islands.find((i) => i.id === roll.island);
  if (!island?.weather) return;
  // Hawk Eye serves a reveal only where the rules say so (the tile is refused otherwise)
  const hawkEye = roll.manoeuvre === 'hawkEye';
  if (tierId === null) {
    emit(ctx, 'weatherNotRevealed', { plane: plane.id, island: island.id });
    if (hawkEye) {
      raiseSearch(ctx, plane, ctx.rules.manoeuvres.hawkEyeFailSearch, 'Hawk Eye');
      gainSkill(ctx, plane, ctx.rules.manoeuvres.hawkEyeFailSkill, 'Hawk Eye');
    }
    return;
  }
  let id = island.weather.id;
  if (id === null) {
    if (!told) reject('weatherNeeded', `The token on island ${island.id} was turned over: say which weather it shows.`, { island: island.id });
    const limit = ctx.rules.weather.tokens[told];
    const seen = ctx.state.weatherRevealed.filter((w) => w === told).length;
    if (seen >= limit) reject('weatherUsedUp', `All ${limit} "${told}" tokens are already revealed.`, { limit, weather: told });
    id = told;
  } else if (told && told !== id) {
    reject('weatherMismatch', `The token on island ${island.id} is "${id}", not "${told}".`, { island: island.id, weather: id, told });
  }
  emit(ctx, 'weatherRevealed', { plane: plane.id, island: island.id, weather: id });
  ctx.state.weatherRevealed.push(id);
  // a reveal served by Hawk Eye is a search that succeeded: the extra position, and the search's skill point
  // (never less than the failed one's)
  if (hawkEye) {
    raiseSearch(ctx, plane, ctx.rules.manoeuvres.hawkEyeExtra, 'Hawk Eye');
    gainSkill(ctx, plane, ctx.rules.search.skillOnSuccess, 'Hawk Eye');
  }
  if (id === 'goodVisibility') {
    island.weather = null;
    raiseSearch(ctx, plane, ctx.rules.weather.goodVisibilitySearch, 'good visibility');
    gainSkill(ctx, plane, ctx.rules.weather.goodVisibilitySkill, 'good visibility');
  } else if (id === 'nothing') {
    island.weather = null;
  } else {
    island.weather = { id, revealed: true };
  }
}

/** The search token raised (not past the track's end), said by `told` with how far it went, then the Shōhō located when it reaches that level. */
function moveSearchToken(ctx: Ctx, by: number, told: (raised: number) => void): void {
  const before = ctx.state.search;
  ctx.state.search = Math.min(ctx.rules.search.max, before + by);
  told(ctx.state.search - before);
  if (before < ctx.rules.search.locatedAt && ctx.state.search >= ctx.rules.search.locatedAt) emit(ctx, 'shohoLocated', { search: ctx.state.search });
}

/** The search token raised outside a search roll (weather, Hawk Eye on a reveal), said when it moved. */
function raiseSearch(ctx: Ctx, plane: PlaneState, by: number, reason: string): void {
  moveSearchToken(ctx, by, (raised) => {
    if (raised > 0) emit(ctx, 'searchRaised', { plane: plane.id, raised, search: ctx.state.search, reason });
  });
}

function finishShoho(ctx: Ctx, plane: PlaneState, tierId: string | null): void {
  const tier = ctx.rules.shoho.tiers.find((_, i) => `hits${i}` === tierId);
  if (!tier) {
    emit(ctx, 'shohoMissed', { plane: plane.id });
    return;
  }
  ctx.state.shohoHits = Math.min(ctx.rules.shoho.hitsToSink, ctx.state.shohoHits + tier.hits);
  emit(ctx, 'shohoHit', { plane: plane.id, hits: tier.hits, total: ctx.state.shohoHits });
  gainSkill(ctx, plane, tier.skill, 'hit the Shōhō');
  if (ctx.state.shohoHits >= ctx.rules.shoho.hitsToSink) endGame(ctx, 'won', 'shohoSunk');
}

export function confirmRoll(ctx: Ctx, command: ConfirmRollCommand): void {
  const roll = ctx.state.roll;
  if (!roll) reject('noRoll', 'No roll is under way.');
  const tracker = roll.tracker;
  // a first reading refused (a die too many) is said as such, not as no reading at all
  const refused = rejectedFlags(tracker);
  if (refused.length > 0) {
    reject('readingFlagged', `The last reading was not accepted (${refused.map(describeFlag).join('; ')}): show the dice again before confirming.`);
  }
  if (tracker.faces === null) reject('noReading', 'Roll the dice first: no reading of the tray has been taken yet.');
  if (command.assign !== undefined && tracker.best.kind !== 'targets') reject('badAssign', 'Only an attack roll splits its dice over targets.');
  if (command.weather !== undefined && roll.purpose !== 'weather') reject('badWeather', 'Only a weather reveal names a weather token.');
  const faces = tracker.faces as Face[];
  ctx.state.roll = null;
  emit(ctx, 'rollConfirmed', { purpose: roll.purpose, plane: roll.plane, faces, best: tracker.best });
  if (roll.purpose === 'yorktownAttack') {
    finishYorktownAttack(ctx, faces);
    return;
  }
  const plane = getPlane(ctx, roll.plane!);
  const tierId = tracker.best.kind === 'tier' ? tracker.best.tierId : null;
  switch (roll.purpose) {
    case 'landing':
    case 'emergencyLanding':
      finishLanding(ctx, plane, tierId);
      break;
    case 'search':
      finishSearch(ctx, plane, roll, tierId);
      break;
    case 'weather':
      finishWeather(ctx, plane, roll, tierId, command.weather);
      break;
    case 'shoho':
      finishShoho(ctx, plane, tierId);
      break;
    case 'attack':
    case 'lightningAttack':
    case 'cap': {
      const taken = takenTargets(ctx, roll, command.assign);
      if (taken.length === 0) emit(ctx, 'attackMissed', { plane: plane.id, purpose: roll.purpose, faces });
      removeTargets(ctx, plane, taken);
      break;
    }
  }
}
