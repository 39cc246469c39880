/** What every player may see: the digital draw pile's order, face-down tiles and the PRNG are hidden. */
import { MAX_ODDS_DICE, rollOdds } from '../../dice/index.ts';
import type { RollOdds } from '../../dice/types.ts';
import type { YorktownState } from './types.ts';

export function publicView(state: YorktownState): YorktownState {
  return {
    ...state,
    seed: null,
    rng: 0,
    deck: { ...state.deck, drawPile: [], drawPileCount: state.deck.drawPile.length },
    planes: state.planes.map((p) => ({
      ...p,
      manoeuvre: p.manoeuvre && !p.manoeuvre.used ? { id: null, used: false } : p.manoeuvre,
    })),
    islands: state.islands.map((i) => ({
      ...i,
      weather: i.weather && !i.weather.revealed ? { id: null, revealed: false } : i.weather,
    })),
    weatherInBox: [],
  };
}

/** The odds of the roll in progress (from its start), or null when no roll is under way or it has too many dice to compute. */
export function currentRollOdds(state: YorktownState): RollOdds | null {
  if (!state.roll || state.roll.tracker.spec.dice > MAX_ODDS_DICE) return null;
  return rollOdds(state.roll.tracker.spec);
}
