/**
 * What not acting costs a plane (actions.ts `skipAction`, engine.ts `endTurn`): in the air it spends
 * fuel to stay up (`idle.fuelLoss`; a landing refused by a full flight deck: `flightDeck.blockedLandingFuel`),
 * on the flight deck nothing. A plane without that fuel crashes. Pure; read from the public view as from
 * the full state, so the engine, the dashboard's skip button and the button box say the same.
 */
import type { Rules } from './ruleset.ts';
import type { PlaneState } from './types.ts';

export interface SkipCostGame {
  takeoffsLandingsThisTurn: number;
}

export type SkipCostRules = { idle: Pick<Rules['idle'], 'fuelLoss'>; flightDeck: Pick<Rules['flightDeck'], 'perTurn' | 'blockedLandingFuel'> };

export interface SkipCost {
  /** fuel points it spends */
  fuel: number;
  /** it has less fuel than that: it crashes */
  crashes: boolean;
  /** it was to land from the approach area and the flight deck is full this turn */
  blockedLanding: boolean;
}

/** `how`: the plane skips its own action, or the turn ends before it acted (no landing was tried then). */
export function skipCost(game: SkipCostGame, rules: SkipCostRules, plane: Pick<PlaneState, 'position' | 'fuel' | 'action'>, how: 'skipAction' | 'endTurn'): SkipCost {
  const blockedLanding = how === 'skipAction' && plane.action === 'takeoffLanding' && plane.position.at === 'approach'
    && game.takeoffsLandingsThisTurn >= rules.flightDeck.perTurn;
  const fuel = blockedLanding ? rules.flightDeck.blockedLandingFuel : plane.position.at === 'deck' ? 0 : rules.idle.fuelLoss;
  return { fuel, crashes: plane.fuel < fuel, blockedLanding };
}
