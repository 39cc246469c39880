/**
 * The targets the engine would accept for a plane's attack now (actions.ts `attack`, its checks in the
 * same order): the Japanese planes on the plane's island; the CAP and the Shōhō from an orange island
 * once located, the Shōhō with a bomb. Pure; read from the public view as from the full state, so the
 * dashboard's attack buttons and the button box offer the same targets.
 */
import type { AttackTarget } from './commands.ts';
import type { IslandState, PlaneState } from './types.ts';

export interface AttackTargetsGame {
  islands: readonly Pick<IslandState, 'id' | 'colour' | 'japanese'>[];
  /** the search track */
  search: number;
  /** fighters in the CAP spaces */
  cap: number;
}

export function attackTargets(game: AttackTargetsGame, locatedAt: number, plane: Pick<PlaneState, 'position' | 'load'>): AttackTarget[] {
  const at = plane.position;
  if (at.at === 'deck') return [];
  const island = at.at === 'island' ? game.islands.find((i) => i.id === at.island) : undefined;
  const targets: AttackTarget[] = [];
  if (island && island.japanese.length > 0) targets.push('planes');
  const fromOrange = island?.colour === 'orange' && game.search >= locatedAt;
  if (fromOrange && game.cap > 0) targets.push('cap');
  if (fromOrange && plane.load === 'bomb') targets.push('shoho');
  return targets;
}
