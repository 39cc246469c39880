/** What one command's application works on: a private copy of the state, the rules, the events it raises. */
import type { GameEvent, RejectionParams } from '../game-module.ts';
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

/** A command that is not allowed now. Thrown inside the engine, returned to the caller as {code, message, params?}. */
export class Rejection extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly params?: RejectionParams,
  ) {
    super(message);
  }
}

/**
 * Refuse the command: `message` in English with the specifics, `params` the same specifics as stable values
 * (plane, island, counts; a position as `at` and `island`), for the page's words in other languages.
 */
export function reject(code: string, message: string, params?: RejectionParams): never {
  throw new Rejection(code, message, params);
}

/** A position as flat refusal parameters: `{at: 'island', island: 7}`, `{at: 'approach'}`, `{at: 'deck'}`. */
export function positionParams(position: { at: string; island?: number }): RejectionParams {
  return position.at === 'island' && position.island !== undefined ? { at: 'island', island: position.island } : { at: position.at };
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
