/** Helpers for the Yorktown rule tests: start games, set up positions, apply commands and expect results. */
import { expect } from 'vitest';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import type { YorktownCommand } from '../../server/games/yorktown1942/commands.ts';
import type { YorktownEvent } from '../../server/games/yorktown1942/context.ts';
import type { IslandId, JapaneseType, PlaneId, Position, YorktownState } from '../../server/games/yorktown1942/types.ts';

export const T0 = Date.UTC(2026, 10, 22, 20, 0, 0);

export function start(command: Partial<Extract<YorktownCommand, { type: 'newGame' }>> = {}, at = T0): YorktownState {
  const result = yorktown1942.apply(yorktown1942.emptyState(), { type: 'newGame', players: 4, seed: 1, ...command } as YorktownCommand, at);
  if (!result.ok) throw new Error(`newGame rejected: ${result.error.message}`);
  return result.state;
}

export function ok(state: YorktownState, command: YorktownCommand | Record<string, unknown>, at = T0 + 1000): { state: YorktownState; events: YorktownEvent[] } {
  const result = yorktown1942.apply(state, command as YorktownCommand, at);
  if (!result.ok) throw new Error(`${String((command as { type: string }).type)} rejected: ${result.error.message}`);
  return { state: result.state, events: result.events };
}

export function refused(state: YorktownState, command: YorktownCommand | Record<string, unknown>, code?: string, at = T0 + 1000): string {
  const before = JSON.stringify(state);
  const result = yorktown1942.apply(state, command as YorktownCommand, at);
  expect(result.ok, `expected ${String((command as { type: string }).type)} to be refused`).toBe(false);
  if (result.ok) return '';
  if (code) expect(result.error.code).toBe(code);
  expect(JSON.stringify(state)).toBe(before);
  return result.error.message;
}

/** A game in the player phase with an empty board, every plane placed as given (others stay where they were). */
export function scenario(
  options: {
    planes?: Partial<Record<PlaneId, { position?: Position; fuel?: number; skill?: number; load?: 'none' | 'bomb' | 'dropTank'; cockpit?: 'A' | 'B' }>>;
    japanese?: Partial<Record<IslandId, JapaneseType[]>>;
    search?: number;
    cap?: number;
    newGame?: Partial<Extract<YorktownCommand, { type: 'newGame' }>>;
  } = {},
): YorktownState {
  const state = structuredClone(start(options.newGame));
  for (const island of state.islands) {
    for (const t of island.japanese) state.supply[t === 'jake' ? 'jake' : 'kateZeke'] += 1;
    island.japanese = [];
  }
  for (const [id, types] of Object.entries(options.japanese ?? {})) {
    const island = state.islands.find((i) => i.id === Number(id))!;
    for (const t of types!) {
      island.japanese.push(t);
      state.supply[t === 'jake' ? 'jake' : 'kateZeke'] -= 1;
    }
  }
  if (options.cap) {
    state.cap = options.cap;
    state.supply.kateZeke -= options.cap;
  }
  state.search = options.search ?? 0;
  state.phase = 'planes';
  for (const [id, p] of Object.entries(options.planes ?? {})) {
    const plane = state.planes.find((x) => x.id === Number(id))!;
    Object.assign(plane, p);
  }
  return state;
}

/** Every plane chooses an action (default: the one given for plane 1 applies to those not listed). */
export function choose(state: YorktownState, actions: Partial<Record<PlaneId, 'search' | 'takeoffLanding' | 'attack' | 'move'>> = {}, fallback: 'search' | 'takeoffLanding' | 'attack' | 'move' = 'move'): YorktownState {
  let s = state;
  for (const plane of s.planes.filter((p) => !p.destroyed)) {
    s = ok(s, { type: 'chooseAction', plane: plane.id, action: actions[plane.id] ?? fallback }).state;
  }
  return s;
}

export function plane(state: YorktownState, id: PlaneId) {
  return state.planes.find((p) => p.id === id)!;
}

export function island(state: YorktownState, id: IslandId) {
  return state.islands.find((i) => i.id === id)!;
}

/** Tokens: board + supply + CAP + out of play must be 8 Jakes and 12 Kate/Zekes. */
export function tokenCounts(state: YorktownState): { jake: number; kateZeke: number } {
  let jake = state.supply.jake + state.removed.jake;
  let kateZeke = state.supply.kateZeke + state.removed.kateZeke + state.cap;
  for (const i of state.islands) for (const t of i.japanese) t === 'jake' ? jake++ : kateZeke++;
  return { jake, kateZeke };
}

export function roll(state: YorktownState, ...readings: number[][]): YorktownState {
  let s = state;
  for (const faces of readings) s = ok(s, { type: 'dice', faces }).state;
  return s;
}

export function types(events: YorktownEvent[]): string[] {
  return events.map((e) => e.type);
}
