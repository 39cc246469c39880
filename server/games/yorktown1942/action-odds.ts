/**
 * The chance of each roll a plane's action may start now, before the players commit to it: the engine
 * starts the roll on a copy of the state (so the dice, what is needed and the fuel at stake are exactly
 * the roll's), and the dice module gives its odds. An attack no roll can win, or a search that may
 * crash the plane on its 1s, says so before fuel is spent.
 */
import { MAX_ODDS_DICE, rollOdds } from '../../dice/index.ts';
import type { RollGoal, RollOdds } from '../../dice/types.ts';
import { apply } from './engine.ts';
import type { YorktownState } from './types.ts';

/** the attacks (on the island's planes, the CAP, the Shōhō, a lightning attack), a search, a weather token's reveal, a landing rolled for (or an emergency one) */
export type ActionRollKind = 'planes' | 'cap' | 'shoho' | 'lightning' | 'search' | 'weather' | 'landing' | 'emergencyLanding';

/** A landing's chance is the chance of landing safely (its best result), not of reaching at least its least. */
const LANDINGS: readonly ActionRollKind[] = ['landing', 'emergencyLanding'];

export interface ActionChance {
  plane: number;
  kind: ActionRollKind;
  /** dice the roll would have */
  dice: number;
  /** equal dice the least of its results needs (a landing: its safe landing) */
  fewestEqual: number;
  /** probability that the roll ends with at least its least result (a landing: safely), without the plane crashing; null beyond the odds tables */
  chance: number | null;
  /** probability that the plane runs out of fuel on 1s; null beyond the odds tables */
  crash: number | null;
}

const ATTACKS = ['planes', 'cap', 'shoho'] as const;

/** The rolls each plane's action may start now (Attack, Search, a lightning attack after its move), with their odds. */
export function actionChances(state: YorktownState): ActionChance[] {
  if (state.setup === null || state.outcome !== null || state.roll !== null || state.phase !== 'planes') return [];
  const chances: ActionChance[] = [];
  const add = (chance: ActionChance | null) => {
    if (chance) chances.push(chance);
  };
  for (const plane of state.planes) {
    if (plane.destroyed) continue;
    if (plane.action === 'attack' && !plane.done) {
      for (const target of ATTACKS) add(chanceOf(state, plane.id, target, { type: 'attack', plane: plane.id, target }));
    }
    if (plane.action === 'search' && !plane.done) {
      add(chanceOf(state, plane.id, 'search', { type: 'search', plane: plane.id }));
      if (state.setup.expansions.weather) add(chanceOf(state, plane.id, 'weather', { type: 'revealWeather', plane: plane.id }));
    }
    add(lightningChance(state, plane.id));
    // a landing with enough fuel is automatic: no roll is started, so none is said
    if (plane.action === 'takeoffLanding' && !plane.done && plane.position.at === 'approach') add(chanceOf(state, plane.id, 'landing', { type: 'land', plane: plane.id }));
    if (state.afterMove?.plane === plane.id && state.afterMove.emergencyLanding) {
      add(chanceOf(state, plane.id, 'emergencyLanding', { type: 'emergencyLanding', plane: plane.id }));
    }
  }
  return chances;
}

/** The chance of the lightning attack a plane may make right after its move (null: none offered, or beyond the odds tables). */
export function lightningChance(state: YorktownState, plane: number): ActionChance | null {
  if (state.afterMove?.plane !== plane || !state.afterMove.lightningAttack) return null;
  return chanceOf(state, plane, 'lightning', { type: 'lightningAttack', plane });
}

function chanceOf(state: YorktownState, plane: number, kind: ActionRollKind, command: Parameters<typeof apply>[1]): ActionChance | null {
  // a time the stopwatch has not reached: the preview is never the command that ends the game
  const at = state.deadline === null ? 0 : state.deadline - 1;
  const started = apply(state, command, at);
  if (!started.ok || started.state.roll === null) return null;
  const spec = started.state.roll.tracker.spec;
  const safest = LANDINGS.includes(kind) ? bestTier(spec.goal) : null;
  const fewestEqual = safest ? safest.equal : fewestEqualOf(spec.goal);
  if (fewestEqual === null) return null;
  const odds = spec.dice <= MAX_ODDS_DICE ? oddsOrNull(() => rollOdds(spec)) : null;
  // more equal dice than are rolled: no strategy reaches it, whatever the tables cover
  const hopeless = fewestEqual > spec.dice;
  return {
    plane,
    kind,
    dice: spec.dice,
    fewestEqual,
    chance: hopeless ? 0 : odds ? (safest ? (odds.reach[safest.id] ?? 0) : successOf(spec.goal, odds)) : null,
    crash: odds ? odds.crash : null,
  };
}

function oddsOrNull(odds: () => RollOdds): RollOdds | null {
  try {
    return odds();
  } catch {
    return null;
  }
}

/** The result that needs the most equal dice (a landing's safe one). */
function bestTier(goal: RollGoal): { id: string; equal: number } | null {
  if (goal.kind !== 'tiers' || goal.tiers.length === 0) return null;
  return goal.tiers.reduce((best, t) => (t.equal > best.equal ? t : best));
}

function fewestEqualOf(goal: RollGoal): number | null {
  const needs = goal.kind === 'tiers' ? goal.tiers.map((t) => t.equal).filter((e) => e > 0) : goal.kind === 'targets' ? goal.targets.map((t) => t.equal) : [];
  return needs.length ? Math.min(...needs) : null;
}

/** At least one target taken (targets), or at least the least tier that needs dice (tiers). */
function successOf(goal: RollGoal, odds: RollOdds): number {
  if (goal.kind === 'targets') return (odds.takenCount ?? []).slice(1).reduce((a, b) => a + b, 0);
  if (goal.kind === 'tiers') return Math.max(0, ...goal.tiers.filter((t) => t.equal > 0).map((t) => odds.reach[t.id] ?? 0));
  return 0;
}
