/**
 * A game module plus its journal: applies commands, handles `undo` (drops the last
 * undoable entries and replays the rest) and `resetTable` (back to an empty table), and
 * rebuilds the same state from journal entries after a restart. Pure: no I/O, no clock.
 *
 * Replay starts at the last `newGame` or `resetTable` entry: both start from the module's
 * empty state, so older entries are history only (kept in the database, never replayed).
 */
import type { CommandRejection, GameCommand, GameEvent, GameModule, JournalEntry } from '../games/game-module.ts';

export const RESET_TABLE = 'resetTable';
export const UNDO = 'undo';
/** Commands after which the state no longer depends on anything earlier. */
export const REPLAY_STARTS = ['newGame', RESET_TABLE];

export const resetTableSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: RESET_TABLE,
  description: 'abandon the game in progress and return to an empty table',
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: { type: { const: RESET_TABLE } },
};

export const undoSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: UNDO,
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: { type: { const: UNDO }, count: { type: 'integer', minimum: 1, maximum: 50 } },
};

export type SessionResult<S> = { ok: true; state: S; events: GameEvent[] } | { ok: false; error: CommandRejection };

export class GameSession<S> {
  private current: S;
  /** accepted entries since the last replay start, undo entries excluded (what undo can take back) */
  private stack: JournalEntry[] = [];

  constructor(readonly module: GameModule<S>) {
    this.current = module.emptyState();
  }

  get state(): S {
    return this.current;
  }

  /** The command types this session accepts (the module's and the journal layer's) with their schemas. */
  commandSchemas(): Record<string, Record<string, unknown>> {
    return { ...this.module.commandSchemas, [UNDO]: this.module.commandSchemas[UNDO] ?? undoSchema, [RESET_TABLE]: resetTableSchema };
  }

  /** Tries the entry; the session changes only when it is accepted. */
  apply(entry: JournalEntry): SessionResult<S> {
    const { command } = entry;
    if (command.type === RESET_TABLE) {
      this.current = this.module.emptyState();
      this.stack = [];
      return { ok: true, state: this.current, events: [{ type: 'tableReset' }] };
    }
    if (command.type === UNDO) return this.undo(entry);
    const result = this.module.apply(this.current, command, entry.at);
    if (!result.ok) return result;
    if (command.type === 'newGame') this.stack = [];
    this.stack.push(entry);
    this.current = result.state;
    return { ok: true, state: result.state, events: result.events };
  }

  private undo(entry: JournalEntry): SessionResult<S> {
    const raw = (entry.command as { count?: unknown }).count;
    const count = raw === undefined ? 1 : Number(raw);
    if (!Number.isInteger(count) || count < 1) return { ok: false, error: { code: 'badUndo', message: 'undo count must be a positive whole number' } };
    if (count > this.stack.length) {
      return { ok: false, error: { code: 'nothingToUndo', message: this.stack.length === 0 ? 'There is nothing to undo.' : `Only ${this.stack.length} step(s) can be undone.` } };
    }
    const dropped = this.stack.slice(this.stack.length - count);
    const blocked = dropped.find((e) => !this.module.undoable(e.command));
    if (blocked) return { ok: false, error: { code: 'cannotUndo', message: `"${blocked.command.type}" cannot be undone.` } };
    const kept = this.stack.slice(0, this.stack.length - count);
    let state = this.module.emptyState();
    for (const e of kept) {
      const r = this.module.apply(state, e.command, e.at);
      if (!r.ok) return { ok: false, error: { code: 'undoFailed', message: `Replaying the journal failed at #${e.seq} (${r.error.message}); nothing was undone.` } };
      state = r.state;
    }
    this.stack = kept;
    this.current = state;
    return { ok: true, state, events: [{ type: 'undone', count, commands: dropped.map((e) => e.command.type) }] };
  }

  /** Rebuilds the session from journal entries (from a replay start on). Entries that no longer apply are reported, not fatal. */
  replay(entries: JournalEntry[]): { skipped: { seq: number; error: CommandRejection }[] } {
    this.current = this.module.emptyState();
    this.stack = [];
    const skipped: { seq: number; error: CommandRejection }[] = [];
    for (const e of entries) {
      const r = this.apply(e);
      if (!r.ok) skipped.push({ seq: e.seq, error: r.error });
    }
    return { skipped };
  }

  /** Can this command's type be sent to this session at all? */
  knows(type: string): boolean {
    return type in this.module.commandSchemas || type === UNDO || type === RESET_TABLE;
  }

  deadline(): number | null {
    return this.module.deadline(this.current);
  }

  static isCommand(value: unknown): value is GameCommand {
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
  }
}
