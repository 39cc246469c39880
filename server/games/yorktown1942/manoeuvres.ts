/**
 * Which expert manoeuvre tile serves which action (rulebook, "Expert manoeuvres"): the engine refuses a
 * tile used for anything else, and the dashboard offers a tile only where it serves.
 */
import type { ManoeuvreId } from './types.ts';

export const MANOEUVRE_SERVES = {
  /** "Landing Ace: Land without throwing dice." (an emergency landing too) */
  land: ['landingAce'],
  /** "Invisible. When making a double movement or returning to the aircraft carrier, you can pass through occupied spaces." */
  move: ['invisible'],
  /** a move of one island: no tile serves it */
  oneIslandMove: [],
  /** "Hawk Eye. When taking the search action, increase the search token one position extra."; "Efficient. Don't lose fuel points by all of a die roll." */
  search: ['hawkEye', 'efficient'],
  /** a weather reveal is "a search action": Hawk Eye serves it too where `manoeuvres.hawkEyeRevealsWeather` says so (tilesServing) */
  revealWeather: ['efficient'],
  /** "Decisive. When attacking, re-roll the first [1] that is rolled." */
  attack: ['decisive', 'efficient'],
  /** "Aggressive. Make a Lightning attack as if it were a normal attack." */
  lightningAttack: ['aggressive', 'decisive', 'efficient'],
} as const satisfies Record<string, readonly ManoeuvreId[]>;

export type ManoeuvreAction = keyof typeof MANOEUVRE_SERVES;

/** The tiles that serve an action under the game's rules. */
export function tilesServing(action: ManoeuvreAction, rules: { manoeuvres: { hawkEyeRevealsWeather: boolean } }): readonly ManoeuvreId[] {
  if (action === 'revealWeather' && rules.manoeuvres.hawkEyeRevealsWeather) return [...MANOEUVRE_SERVES.revealWeather, 'hawkEye'];
  return MANOEUVRE_SERVES[action];
}

export const MANOEUVRE_NAMES: Record<ManoeuvreId, string> = {
  landingAce: 'Landing Ace',
  efficient: 'Efficient',
  decisive: 'Decisive',
  hawkEye: 'Hawk Eye',
  aggressive: 'Aggressive',
  invisible: 'Invisible',
};
