/**
 * A table's game: the engine's journal layer (server/games/journal.ts: apply, undo with its
 * barriers, snapshots) plus what the table adds: `resetTable` (back to an empty table), the
 * table's own sequence numbers, and a replay that starts at the last `newGame` or `resetTable`
 * (both start from the module's empty state, so older entries are history only: kept in the
 * database, never replayed). Pure: no I/O, no clock.
 */
import { CommandValidator } from '../http/command-validator.ts';
import type { CommandRejection, GameCommand, GameEvent, GameModule, JournalEntry } from '../games/game-module.ts';
import { nextUndone, openJournal, submit, undoableCount, type JournalState, type UndoneCommand } from '../games/journal.ts';
import { fillDefaults, publishDefaults, type CommandDefaults } from './command-defaults.ts';

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
  properties: { type: { const: UNDO }, count: { type: 'integer', minimum: 1, maximum: 50 }, seat: { type: 'integer', minimum: 1, maximum: 99 }, seq: { type: 'integer', minimum: 1 } },
};

export type SessionResult<S> = { ok: true; state: S; events: GameEvent[] } | { ok: false; error: CommandRejection };

export class GameSession<S> {
  private journal: JournalState<S>;

  constructor(
    readonly module: GameModule<S>,
    private readonly defaults: CommandDefaults = {},
  ) {
    this.journal = openJournal(module);
  }

  /** A client's command with the fields it may leave out filled in (before validation). */
  withDefaults(command: unknown): unknown {
    return fillDefaults(command, this.defaults);
  }

  get state(): S {
    return this.journal.state;
  }

  /** How many commands undo can take back now. */
  undoable(): number {
    return undoableCount(this.journal);
  }

  /** What one Undo would take back now (its type and piece), null when nothing. */
  nextUndone(): UndoneCommand | null {
    return nextUndone(this.journal);
  }

  /** The command types this session accepts (the module's and the journal layer's) with their schemas, as clients may send them. */
  commandSchemas(): Record<string, Record<string, unknown>> {
    const schemas = { ...this.module.commandSchemas, [UNDO]: this.module.commandSchemas[UNDO] ?? undoSchema, [RESET_TABLE]: resetTableSchema };
    return publishDefaults(schemas, this.defaults);
  }

  /** Tries the entry (its seq and time are the table's); the session changes only when it is accepted. */
  apply(entry: JournalEntry): SessionResult<S> {
    const { command } = entry;
    if (command.type === RESET_TABLE) {
      this.journal = openJournal(this.module);
      this.journal.entries.push(entry);
      return { ok: true, state: this.journal.state, events: [{ type: 'tableReset' }] };
    }
    // a new game starts a fresh journal from the empty state, exactly as a replay from it will
    const base = command.type === 'newGame' ? openJournal(this.module) : this.journal;
    const result = submit(this.module, base, command, entry.at);
    if (!result.ok) return result;
    const journal = result.journal;
    // the journal layer numbers entries itself; the table's numbering is the one stored
    journal.entries[journal.entries.length - 1] = entry;
    const last = journal.effective[journal.effective.length - 1];
    if (command.type !== UNDO && last) journal.effective[journal.effective.length - 1] = { ...last, entry };
    this.journal = journal;
    return { ok: true, state: journal.state, events: result.events };
  }

  /**
   * Rebuilds the session from journal entries (from a replay start on). Entries that no longer apply
   * are reported, not fatal: one the game refuses, one its schema refuses (an edited or damaged
   * journal), one the game fails on.
   */
  replay(entries: JournalEntry[], applied?: (seq: number, events: GameEvent[]) => void): { skipped: { seq: number; error: CommandRejection }[] } {
    this.journal = openJournal(this.module);
    const skipped: { seq: number; error: CommandRejection }[] = [];
    this.validator ??= new CommandValidator(this.commandSchemas());
    for (const e of entries) {
      const checked = this.validator.validate(e.command);
      if (!checked.ok) {
        skipped.push({ seq: e.seq, error: checked.error });
        continue;
      }
      let r: SessionResult<S>;
      try {
        r = this.apply(e);
      } catch (err) {
        skipped.push({ seq: e.seq, error: { code: 'internal', message: `the game failed on it (${(err as Error).message})` } });
        continue;
      }
      if (!r.ok) skipped.push({ seq: e.seq, error: r.error });
      else applied?.(e.seq, r.events);
    }
    return { skipped };
  }

  /** the commands' schemas, to check a journal's entries on replay */
  private validator: CommandValidator | null = null;

  /** Can this command's type be sent to this session at all? */
  knows(type: string): boolean {
    return type in this.module.commandSchemas || type === UNDO || type === RESET_TABLE;
  }

  deadline(): number | null {
    return this.module.deadline(this.journal.state);
  }

  static isCommand(value: unknown): value is GameCommand {
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
  }
}
