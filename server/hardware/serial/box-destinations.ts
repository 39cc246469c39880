/**
 * Where the box can send a plane, as candidates a button steps through: a move (the islands a move
 * reaches, then the approach area: board.ts `moveDestinations`, as the dashboard's move form), a
 * take-off (the approach area, then each red island, each with the plane's load, then the other loads
 * it may take), and an attack's target when there is more than one (the CAP or the Shōhō:
 * attack-targets.ts). Only those the plane's fuel pays for; no expert manoeuvre (the dashboard's). Pure.
 */
import { attackTargets } from '../../games/yorktown1942/attack-targets.ts';
import { moveDestinations } from '../../games/yorktown1942/board.ts';
import type { AttackCommand, MoveCommand, TakeOffCommand } from '../../games/yorktown1942/commands.ts';
import type { Load } from '../../games/yorktown1942/types.ts';
import type { BoxGameView, BoxPlaneView } from './game-view.ts';

/** A move, take-off or attack the box offers, with the fuel it costs (an attack's: its compulsory fuel die's, said by the roll). */
export interface BoxCandidate {
  command: MoveCommand | TakeOffCommand | AttackCommand;
  fuel: number;
}

/** The targets the plane can attack from where it is, in attack-targets.ts's order. */
export function attackCandidates(game: BoxGameView, plane: BoxPlaneView): BoxCandidate[] {
  if (plane.position.at === 'deck') return [];
  return attackTargets(game, game.rules.search.locatedAt, plane).map((target) => ({ command: { type: 'attack', plane: plane.id, target }, fuel: 0 }));
}

/** The candidates of the kind `command` is: what the plane may do of that kind now. */
export function candidatesLike(game: BoxGameView, plane: BoxPlaneView, command: BoxCandidate['command']): BoxCandidate[] {
  if (command.type === 'move') return moveCandidates(game, plane);
  if (command.type === 'takeOff') return takeOffCandidates(game, plane);
  return attackCandidates(game, plane);
}

export function moveCandidates(game: BoxGameView, plane: BoxPlaneView): BoxCandidate[] {
  if (plane.position.at === 'deck') return [];
  const { move } = game.rules;
  const reach = moveDestinations(game.rules.board, game.islands, plane.position, false);
  const candidates: BoxCandidate[] = [];
  const to = (island: number, fuel: number, via?: number): BoxCandidate => ({ command: { type: 'move', plane: plane.id, to: island, ...(via === undefined ? {} : { via }) }, fuel });
  for (const [island, way] of [...reach.islands].sort(([a], [b]) => a - b)) {
    if (way.oneStep) candidates.push(to(island, move.oneIslandFuel));
  }
  if (reach.approach) candidates.push({ command: { type: 'move', plane: plane.id, to: 'approach' }, fuel: move.returnFuel });
  for (const [island, way] of [...reach.islands].sort(([a], [b]) => a - b)) {
    if (!way.oneStep && way.via.length > 0) candidates.push(to(island, move.twoIslandsFuel, way.via[0]));
  }
  return candidates.filter((c) => c.fuel <= plane.fuel);
}

export function takeOffCandidates(game: BoxGameView, plane: BoxPlaneView): BoxCandidate[] {
  if (plane.position.at !== 'deck') return [];
  const { takeOff } = game.rules;
  const destinations: [TakeOffCommand['to'], number][] = [
    ['approach', takeOff.approachFuel],
    ...game.rules.board.islands.filter((i) => i.colour === 'red').map((i): [number, number] => [i.id, takeOff.redIslandFuel]),
  ];
  const loads = takeOffLoads(game, plane);
  return destinations
    .flatMap(([to, fuel]) => loads.map((load): BoxCandidate => ({ command: { type: 'takeOff', plane: plane.id, to, load }, fuel })))
    .filter((c) => c.fuel <= plane.fuel);
}

/** The plane's own load first; a new bomb or drop tank only while a token is free (the drop tank with its expansion). */
function takeOffLoads(game: BoxGameView, plane: BoxPlaneView): Load[] {
  const inUse = game.planes.filter((p) => !p.destroyed && p.load !== 'none').length;
  const tokenFree = plane.load !== 'none' || inUse < game.rules.load.tokens;
  const offered: Load[] = ['none', ...(tokenFree ? ['bomb' as const] : []), ...(tokenFree && game.setup?.expansions?.dropTank ? ['dropTank' as const] : [])];
  return [plane.load, ...offered.filter((l) => l !== plane.load)];
}

export function sameCandidate(a: BoxCandidate, b: BoxCandidate): boolean {
  return JSON.stringify(a.command) === JSON.stringify(b.command);
}

/** The candidate after `current` (the first when there is none, or it is no longer offered); null when none is offered. */
export function nextCandidate(candidates: BoxCandidate[], current: BoxCandidate | null): BoxCandidate | null {
  const at = current ? candidates.findIndex((c) => sameCandidate(c, current)) : -1;
  return candidates[(at + 1) % candidates.length] ?? null;
}
