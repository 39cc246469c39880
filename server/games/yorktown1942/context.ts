/** What one command's application works on: a private copy of the state, the rules, the events it raises. */
import type { GameEvent } from '../game-module.ts';
import type { Rules } from './ruleset.ts';
import type { YorktownState } from './types.ts';

export interface YorktownEvent extends GameEvent {
  type: string;
}

export interface Ctx {
  state: YorktownState;
  rules: Rules;
  events: YorktownEvent[];
  at: number;
}

/** A command that is not allowed now. Thrown inside the engine, returned to the caller as {code, message}. */
export class Rejection extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function reject(code: string, message: string): never {
  throw new Rejection(code, message);
}

export function emit(ctx: Ctx, type: string, fields: Record<string, unknown> = {}): void {
  ctx.events.push({ type, ...fields });
}

/** Deep copy of plain JSON data (the state holds nothing else); several times faster than structuredClone here. */
function copyPlain<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyPlain((value as Record<string, unknown>)[key]);
  return out as T;
}

/** A deep copy of the state; the rules are shared (the engine never changes them). */
export function cloneState(state: YorktownState): YorktownState {
  const copy = {} as Record<string, unknown>;
  for (const key of Object.keys(state) as (keyof YorktownState)[]) copy[key] = key === 'rules' ? state.rules : copyPlain(state[key]);
  return copy as unknown as YorktownState;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
