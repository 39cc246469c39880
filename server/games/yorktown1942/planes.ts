/** Plane bookkeeping shared by the actions: dice from skill, fuel, skill points, crashes, the end of the game. */
import { emit, plural, reject, type Ctx } from './context.ts';
import type { IslandState, PlaneId, PlaneState, Position, YorktownState } from './types.ts';
import type { Rules } from './ruleset.ts';
import type { RejectionParams } from '../game-module.ts';

export function skillDice(rules: Rules, skill: number): number {
  let dice = rules.skill.dice[0].dice;
  for (const step of rules.skill.dice) if (skill >= step.from) dice = step.dice;
  return dice;
}

export function getPlane(ctx: Ctx, id: number): PlaneState {
  const plane = ctx.state.planes.find((p) => p.id === id);
  if (!plane) reject('noSuchPlane', `There is no plane ${id}: planes are numbered 1 to ${ctx.state.planes.length}.`, { plane: id, planes: ctx.state.planes.length });
  if (plane.destroyed) reject('planeDestroyed', `Plane ${id} was destroyed and is out of the game.`, { plane: id });
  return plane;
}

export function inAir(plane: PlaneState): boolean {
  return plane.position.at !== 'deck';
}

export function describePosition(position: Position): string {
  if (position.at === 'deck') return "the Yorktown's flight deck";
  if (position.at === 'approach') return 'the approach area';
  return `island ${position.island}`;
}

export function samePosition(a: Position, b: Position): boolean {
  if (a.at !== b.at) return false;
  return a.at !== 'island' || (b.at === 'island' && a.island === b.island);
}

export function islandOf(state: YorktownState, plane: PlaneState): IslandState | null {
  const position = plane.position;
  return position.at === 'island' ? (state.islands.find((i) => i.id === position.island) ?? null) : null;
}

/** The dice a revealed storm takes away on the plane's island. */
export function stormPenalty(ctx: Ctx, plane: PlaneState): number {
  const island = islandOf(ctx.state, plane);
  return island?.weather?.revealed && island.weather.id === 'storm' ? ctx.rules.weather.stormDicePenalty : 0;
}

/**
 * "When you pass 8 skill points, turn over the card to keep counting": the side of the skill card the
 * players turn it to when a change of skill crosses `skill.flipAfter`, else nothing.
 */
function skillCardTurned(ctx: Ctx, before: number, after: number): { skillCard: 'back' | 'front' } | Record<string, never> {
  const flip = ctx.rules.skill.flipAfter;
  if (before <= flip && after > flip) return { skillCard: 'back' };
  if (before > flip && after <= flip) return { skillCard: 'front' };
  return {};
}

export function gainSkill(ctx: Ctx, plane: PlaneState, points: number, reason: string): void {
  if (points <= 0) return;
  const before = plane.skill;
  plane.skill = Math.min(ctx.rules.skill.max, plane.skill + points);
  emit(ctx, 'skillGained', { plane: plane.id, points: plane.skill - before, skill: plane.skill, reason, ...skillCardTurned(ctx, before, plane.skill) });
}

/**
 * Pay a cost that was checked beforehand. `what` names what is paid for in a refusal's parameters
 * (`for`: 'takeOff', 'oneIslandMove', 'search', 'attack', ...; `to` where a take-off flies).
 */
export function payFuel(ctx: Ctx, plane: PlaneState, amount: number, reason: string, what: RejectionParams = {}): void {
  if (amount <= 0) return;
  if (plane.fuel < amount) {
    // what is left to it: a cheaper action, or skipping (the idle loss, a crash when it cannot pay that)
    const idle = ctx.rules.idle.fuelLoss;
    const skipping = !inAir(plane) ? '' : plane.fuel < idle ? ' Skipping its action crashes it: no fuel to stay in the air.' : ` Skipping its action costs ${plural(idle, 'fuel point')}.`;
    reject('notEnoughFuel', `Plane ${plane.id} has only ${plural(plane.fuel, 'fuel point')}: ${reason} costs ${amount}.${skipping}`, {
      plane: plane.id,
      fuel: plane.fuel,
      cost: amount,
      ...what,
      // in the air, skipping instead costs the idle loss (a crash when the plane has less)
      ...(inAir(plane) ? { skipFuel: idle } : {}),
    });
  }
  plane.fuel -= amount;
  emit(ctx, 'fuelSpent', { plane: plane.id, amount, fuel: plane.fuel, reason });
}

/** Lose fuel that must be lost even without enough left: the plane crashes when it runs dry. */
export function loseFuel(ctx: Ctx, plane: PlaneState, amount: number, reason: string): void {
  if (amount <= 0) return;
  if (plane.fuel < amount) {
    crash(ctx, plane, ctx.rules.crash.skillLoss, `it had to spend ${amount} fuel with ${plane.fuel} left (${reason})`);
    return;
  }
  plane.fuel -= amount;
  emit(ctx, 'fuelSpent', { plane: plane.id, amount, fuel: plane.fuel, reason });
}

export function returnLoad(ctx: Ctx, plane: PlaneState, reason: string): void {
  if (plane.load === 'none') return;
  emit(ctx, 'loadReturned', { plane: plane.id, load: plane.load, reason });
  plane.load = 'none';
}

/**
 * A crash: the pilot loses `skillLoss` points; cockpit A turns to B and the plane goes to the
 * flight deck refuelled; a crash on side B destroys the plane for good.
 */
export function crash(ctx: Ctx, plane: PlaneState, skillLoss: number, why: string): void {
  const skillBefore = plane.skill;
  plane.skill = Math.max(0, plane.skill - skillLoss);
  returnLoad(ctx, plane, 'crash');
  plane.done = true;
  if (ctx.state.roll?.plane === plane.id) ctx.state.roll = null;
  if (ctx.state.afterMove?.plane === plane.id) ctx.state.afterMove = null;
  if (plane.cockpit === 'A') {
    plane.cockpit = 'B';
    plane.position = { at: 'deck' };
    plane.fuel = ctx.rules.fuel.max;
    // injury: the skill the crash takes by the rules (0: pilot unharmed); skillLost: what the pilot had of it
    emit(ctx, 'planeCrashed', { plane: plane.id, why, injury: skillLoss, skillLost: skillBefore - plane.skill, cockpit: 'B', ...skillCardTurned(ctx, skillBefore, plane.skill) });
  } else {
    plane.destroyed = true;
    plane.position = { at: 'deck' };
    plane.fuel = 0;
    if (plane.manoeuvre) plane.manoeuvre.used = true;
    emit(ctx, 'planeDestroyed', { plane: plane.id, why, injury: skillLoss, skillLost: skillBefore - plane.skill });
    if (ctx.state.planes.every((p) => p.destroyed)) endGame(ctx, 'lost', 'allPlanesDestroyed');
  }
}

export function endGame(ctx: Ctx, result: 'won' | 'lost', cause: 'shohoSunk' | 'time' | 'yorktownSunk' | 'allPlanesDestroyed'): void {
  if (ctx.state.outcome) return;
  const roll = ctx.state.roll;
  // the players are told that the dice showing were never confirmed: the roll does nothing
  if (cause === 'time' && roll) emit(ctx, 'rollCutOff', { purpose: roll.purpose, ...(roll.plane !== null ? { plane: roll.plane } : {}), faces: roll.tracker.faces });
  ctx.state.outcome = { result, cause, at: ctx.at };
  ctx.state.phase = 'over';
  ctx.state.roll = null;
  ctx.state.afterMove = null;
  ctx.state.pendingCard = null;
  emit(ctx, 'gameOver', { result, cause });
}

export function planeIds(state: YorktownState): PlaneId[] {
  return state.planes.filter((p) => !p.destroyed).map((p) => p.id);
}
