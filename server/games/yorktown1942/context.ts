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

/** A deep copy of the state; the rules are shared (the engine never changes them). */
export function cloneState(state: YorktownState): YorktownState {
  const { rules, ...rest } = state;
  const copy = structuredClone(rest) as YorktownState;
  copy.rules = rules;
  return copy;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
