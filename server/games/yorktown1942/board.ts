/** Board geometry: white lines, colours, the spotted chain and the paths a move may take. */
import type { Board } from './ruleset.ts';
import type { IslandColour, IslandId, IslandState, Position } from './types.ts';

export function colourOf(board: Board, island: IslandId): IslandColour | null {
  return board.islands.find((i) => i.id === island)?.colour ?? null;
}

export function islandName(board: Board, island: IslandId): string {
  const name = board.islands.find((i) => i.id === island)?.name;
  return name ? `island ${island} (${name})` : `island ${island}`;
}

export function neighbours(board: Board, island: IslandId): IslandId[] {
  const out: IslandId[] = [];
  for (const [a, b] of board.lines) {
    if (a === island) out.push(b);
    else if (b === island) out.push(a);
  }
  return out;
}

export function joined(board: Board, a: IslandId, b: IslandId): boolean {
  return board.lines.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

/** The islands one white line away from a position (from the approach area: the islands its lines reach). */
export function stepsFrom(board: Board, from: Position): IslandId[] {
  if (from.at === 'approach') return [...board.approachLines];
  if (from.at === 'island') return neighbours(board, from.island);
  return [];
}

export interface MoveDestinations {
  /** back to the approach area along a clear way */
  approach: boolean;
  /** each island a move reaches: in one step, and over which islands in two */
  islands: Map<IslandId, { oneStep: boolean; via: IslandId[] }>;
}

/**
 * Where a move can take a plane: one island along a white line, two islands over a first one free
 * of Japanese planes, or back to the approach area by a clear way (`overJapanese`: the Invisible
 * manoeuvre, which flies over them). The engine's move checks the same.
 */
export function moveDestinations(board: Board, islands: readonly Pick<IslandState, 'id' | 'japanese'>[], from: Position, overJapanese: boolean): MoveDestinations {
  const occupied = (id: IslandId) => (islands.find((i) => i.id === id)?.japanese.length ?? 0) > 0;
  const here = from.at === 'island' ? from.island : null;
  const reached = new Map<IslandId, { oneStep: boolean; via: IslandId[] }>();
  const entry = (id: IslandId) => reached.get(id) ?? reached.set(id, { oneStep: false, via: [] }).get(id)!;
  for (const step of stepsFrom(board, from)) {
    if (step !== here) entry(step).oneStep = true;
    if (occupied(step) && !overJapanese) continue;
    for (const next of neighbours(board, step)) if (next !== here) entry(next).via.push(step);
  }
  const approach = here !== null && clearWayToApproach(board, islands, here, overJapanese) !== null;
  return { approach, islands: reached };
}

/**
 * The Yorktown is spotted when a chain of Japanese-occupied islands joined by white lines runs
 * from an orange island to a red island. Returns that chain (island ids) or null.
 */
export function spottedChain(board: Board, islands: readonly Pick<IslandState, 'id' | 'japanese'>[]): IslandId[] | null {
  const occupied = new Set(islands.filter((i) => i.japanese.length > 0).map((i) => i.id));
  const starts = board.islands.filter((i) => i.colour === 'orange' && occupied.has(i.id)).map((i) => i.id);
  const previous = new Map<IslandId, IslandId | null>();
  const queue: IslandId[] = [];
  for (const s of starts) {
    previous.set(s, null);
    queue.push(s);
  }
  while (queue.length) {
    const here = queue.shift()!;
    if (colourOf(board, here) === 'red') {
      const chain: IslandId[] = [];
      for (let at: IslandId | null = here; at !== null; at = previous.get(at) ?? null) chain.unshift(at);
      return chain;
    }
    for (const next of neighbours(board, here)) {
      if (occupied.has(next) && !previous.has(next)) {
        previous.set(next, here);
        queue.push(next);
      }
    }
  }
  return null;
}

/**
 * Can a plane on `from` return to the approach area without passing an island holding Japanese
 * planes? The islands passed are those flown over after leaving `from` (the last one is joined to
 * the approach area). Returns the islands passed on the shortest clear way, or null.
 */
export function clearWayToApproach(board: Board, islands: readonly Pick<IslandState, 'id' | 'japanese'>[], from: IslandId, ignoreJapanese: boolean): IslandId[] | null {
  const blocked = (id: IslandId) => !ignoreJapanese && (islands.find((i) => i.id === id)?.japanese.length ?? 0) > 0;
  const previous = new Map<IslandId, IslandId | null>([[from, null]]);
  const queue: IslandId[] = [from];
  while (queue.length) {
    const here = queue.shift()!;
    if (board.approachLines.includes(here)) {
      const passed: IslandId[] = [];
      for (let at: IslandId | null = here; at !== null && at !== from; at = previous.get(at) ?? null) passed.unshift(at);
      return passed;
    }
    for (const next of neighbours(board, here)) {
      if (!previous.has(next) && !blocked(next)) {
        previous.set(next, here);
        queue.push(next);
      }
    }
  }
  return null;
}

/**
 * When no clear way leads from `from` back to the approach area: the islands holding Japanese planes
 * that close it, those bordering the islands the plane can still reach around them (sorted). Null
 * when a clear way exists.
 */
export function wayHomeBlockers(board: Board, islands: IslandState[], from: IslandId): IslandId[] | null {
  if (clearWayToApproach(board, islands, from, false)) return null;
  const occupied = (id: IslandId) => (islands.find((i) => i.id === id)?.japanese.length ?? 0) > 0;
  const seen = new Set<IslandId>([from]);
  const blockers = new Set<IslandId>();
  const queue: IslandId[] = [from];
  while (queue.length) {
    for (const next of neighbours(board, queue.shift()!)) {
      if (seen.has(next)) continue;
      seen.add(next);
      if (occupied(next)) blockers.add(next);
      else queue.push(next);
    }
  }
  return [...blockers].sort((a, b) => a - b);
}
