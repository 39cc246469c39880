/**
 * The contract every game module keeps (Yorktown 1942 now, other games later).
 * A module is pure: no I/O, no clock, no randomness of its own. The table passes the
 * wall-clock time of each command in `at`; any randomness comes from a seeded PRNG whose
 * state lives inside the game state, so replaying a journal rebuilds the same state.
 */

export interface GameCommand {
  type: string;
  [field: string]: unknown;
}

export interface GameEvent {
  type: string;
  [field: string]: unknown;
}

/** A refusal's specifics as stable values (plane and island numbers, counts, ids like 'move'), for words in other languages. */
export type RejectionParams = Record<string, string | number>;

/**
 * Why a command was refused, in words a player understands. `code` is stable, for programs; `params`,
 * when the refusal has specifics, holds them (the page words the refusal in its own language with them).
 */
export interface CommandRejection {
  code: string;
  message: string;
  params?: RejectionParams;
}

export type ApplyResult<S, E extends GameEvent = GameEvent> =
  | { ok: true; state: S; events: E[] }
  | { ok: false; error: CommandRejection };

/** One accepted command as the table journals it. */
export interface JournalEntry<C extends GameCommand = GameCommand> {
  seq: number;
  /** wall-clock ms (Date.now()) when the table accepted it */
  at: number;
  command: C;
}

/** JSON schema (draft-07 subset that fastify/ajv understands) for one command type. */
export type JsonSchema = Record<string, unknown>;

export interface GameModule<S = unknown, C extends GameCommand = GameCommand, E extends GameEvent = GameEvent> {
  /** stable id, e.g. "yorktown1942" */
  id: string;
  title: string;
  /** one JSON schema per command type; the HTTP/socket layer validates with them */
  commandSchemas: Record<string, JsonSchema>;
  /** the state of a table before any game was started */
  emptyState(): S;
  /** state + command (accepted at wall-clock `at`) -> new state + events, or a rejection that changes nothing */
  apply(state: S, command: C, at: number): ApplyResult<S, E>;
  /** wall-clock ms at which the running game is lost on time, or null when no game runs */
  deadline(state: S): number | null;
  /** may players undo this accepted command? (e.g. a time-out cannot be undone) */
  undoable(command: C): boolean;
  /**
   * The piece a command is for, when it is one's (Yorktown: a plane, its own or the one whose roll it reads
   * or confirms), given the state before it: Undo says whose move it takes back. Optional.
   */
  commandPiece?(state: S, command: C): number | null;
}
