/**
 * Why an action a plane may choose cannot do anything from where it is, before the players commit to
 * it (the dashboard's note on each choice, the box's refusal). `later`: the other planes' actions this
 * turn may still make it possible (another plane's search locating the Shōhō, a plane that chose the
 * flight deck skipping, a drop tank used first), so the choice is warned of, not refused. Pure; read
 * from the public view as from the full state.
 */
import { attackTargets, type AttackTargetsGame } from './attack-targets.ts';
import type { Rules } from './ruleset.ts';
import type { ActionType, IslandState, PlaneState } from './types.ts';

export type FutileReason = 'onDeck' | 'nothingToAttack' | 'notLocated' | 'notOrange' | 'landFromApproach' | 'deckTaken' | 'noFuel';

export interface FutileGame extends AttackTargetsGame {
  islands: readonly (Pick<IslandState, 'id' | 'colour' | 'japanese'> & { weather?: IslandState['weather'] })[];
  planes: readonly Pick<PlaneState, 'id' | 'destroyed' | 'done' | 'action' | 'position'>[];
  takeoffsLandingsThisTurn: number;
  setup: { expansions?: { weather?: boolean } } | null;
}

export type FutileRules = {
  search: Pick<Rules['search'], 'locatedAt' | 'fuelCost'>;
  attack: Pick<Rules['attack'], 'fuelCost'>;
  move: Pick<Rules['move'], 'oneIslandFuel' | 'returnFuel'>;
  flightDeck: Pick<Rules['flightDeck'], 'perTurn'>;
  dropTank: Pick<Rules['dropTank'], 'maxFuelToUse'>;
};

export interface Futile {
  reason: FutileReason;
  later: boolean;
}

type FutilePlane = Pick<PlaneState, 'id' | 'position' | 'load' | 'fuel' | 'action'>;

export function futileAction(game: FutileGame, rules: FutileRules, plane: FutilePlane, action: ActionType): Futile | null {
  const at = plane.position;
  const island = at.at === 'island' ? game.islands.find((i) => i.id === (at as { island: number }).island) : undefined;
  const final = (reason: FutileReason): Futile => ({ reason, later: false });
  if (at.at === 'deck' && (action === 'attack' || action === 'move')) return final('onDeck');
  if (action === 'attack' && attackTargets(game, rules.search.locatedAt, plane).length === 0) {
    const onceLocated = attackTargets({ ...game, search: Math.max(game.search, rules.search.locatedAt) }, rules.search.locatedAt, plane);
    return onceLocated.length > 0 ? { reason: 'notLocated', later: true } : final('nothingToAttack');
  }
  if (action === 'search' && island?.colour !== 'orange' && !(game.setup?.expansions?.weather && island?.weather && !island.weather.revealed)) return final('notOrange');
  if (action === 'takeoffLanding') {
    if (at.at === 'island') return final('landFromApproach');
    if (plane.action !== 'takeoffLanding' && game.takeoffsLandingsThisTurn >= rules.flightDeck.perTurn) return final('deckTaken');
    if (plane.action !== 'takeoffLanding' && deckClaimed(game, plane) >= rules.flightDeck.perTurn) return { reason: 'deckTaken', later: true };
  }
  // an action's fuel is paid before it starts: a plane short of it cannot take it (a drop tank used first may pay)
  if (at.at !== 'deck' && plane.fuel < actionFuel(rules, action)) return { reason: 'noFuel', later: plane.load === 'dropTank' && plane.fuel <= rules.dropTank.maxFuelToUse };
  return null;
}

/** Take-offs and landings made this turn, and those the other planes chose and have not made yet. */
function deckClaimed(game: FutileGame, plane: FutilePlane): number {
  // a plane on an island that chose it cannot use the deck (it lands from the approach area)
  return game.takeoffsLandingsThisTurn + game.planes.filter((p) => p.id !== plane.id && !p.destroyed && !p.done && p.action === 'takeoffLanding' && p.position.at !== 'island').length;
}

/** The least fuel an action costs a plane in the air (the cheapest move; a landing costs none). */
export function actionFuel(rules: FutileRules, action: ActionType): number {
  if (action === 'search') return rules.search.fuelCost;
  if (action === 'attack') return rules.attack.fuelCost;
  if (action === 'move') return Math.min(rules.move.oneIslandFuel, rules.move.returnFuel);
  return 0;
}
