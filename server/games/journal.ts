/**
 * The journal of a table, generic over any GameModule: every accepted command in order
 * (undo commands included), the commands still in effect, and the state they give.
 * Undo removes the last N undoable commands in effect; the state is then the replay of what
 * remains (from the nearest snapshot: one state in SNAPSHOT_EVERY is kept, so a long game of
 * dice readings stays small and undo stays quick). A time-out (a command at or past the deadline)
 * and commands the module marks as not undoable (a new game) are barriers undo cannot pass. The
 * command that ended a game in time can be undone (a roll confirmed by mistake), while the time it
 * gives back has not run out.
 */
import type { CommandRejection, GameCommand, GameEvent, GameModule, JournalEntry } from './game-module.ts';

/** Keep the state after one effective entry in this many (and after every barrier). */
export const SNAPSHOT_EVERY = 32;

export interface EffectiveEntry<S> {
  entry: JournalEntry;
  /** the state after this entry, when kept as a snapshot (null otherwise) */
  state: S | null;
  /** undo cannot remove this entry or anything before it */
  barrier: boolean;
  /** the game's piece the command was for (the module's `commandPiece`; Yorktown: a plane), null when none */
  piece: number | null;
}

/** A command Undo takes (or would take) back: its seq, type and piece (null: no piece's). */
export interface UndoneCommand {
  seq: number;
  type: string;
  piece: number | null;
}

export interface JournalState<S> {
  /** every accepted command, in order (the record to store) */
  entries: JournalEntry[];
  /** the commands in effect (undone ones removed), each with the state after it */
  effective: EffectiveEntry<S>[];
  initial: S;
  state: S;
}

export type SubmitResult<S> =
  | { ok: true; journal: JournalState<S>; events: GameEvent[]; entry: JournalEntry }
  | { ok: false; error: CommandRejection };

export interface UndoCommand extends GameCommand {
  type: 'undo';
  count?: number;
  /** the seat whose phone asked (the other pages name it); absent from the table's own screen */
  seat?: number;
  /** the seq of the command asked about (the first taken back): refused (`undoMoved`) when it is not that one */
  seq?: number;
}

export function openJournal<S>(module: GameModule<S, any, any>): JournalState<S> {
  const initial = module.emptyState();
  return { entries: [], effective: [], initial, state: initial };
}

function isUndo(command: GameCommand): command is UndoCommand {
  return command.type === 'undo';
}

/** What one Undo would take back now (null when nothing can be undone). */
export function nextUndone<S>(journal: JournalState<S>): UndoneCommand | null {
  if (undoableCount(journal) === 0) return null;
  const last = journal.effective[journal.effective.length - 1];
  return { seq: last.entry.seq, type: last.entry.command.type, piece: last.piece };
}

/** How many commands in effect can be undone now (back to the last barrier). */
export function undoableCount<S>(journal: JournalState<S>): number {
  let n = 0;
  for (let i = journal.effective.length - 1; i >= 0 && !journal.effective[i].barrier; i--) n++;
  return n;
}

function undo<S>(module: GameModule<S, any, any>, journal: JournalState<S>, command: UndoCommand, at: number): SubmitResult<S> {
  const count = command.count ?? 1;
  if (!Number.isInteger(count) || count < 1) return { ok: false, error: { code: 'badUndo', message: 'Undo takes a count of 1 or more commands.' } };
  const deadline = module.deadline(journal.state);
  if (deadline !== null && at >= deadline) {
    return { ok: false, error: { code: 'timeUp', message: 'Time is up: the game is lost and nothing can be undone.' } };
  }
  const available = undoableCount(journal);
  if (count > available) {
    const why = journal.effective.length === 0 ? 'nothing has been played yet' : 'a new game and a time-out cannot be undone';
    return {
      ok: false,
      error: { code: 'cannotUndo', message: available === 0 ? `Nothing can be undone (${why}).` : `Only ${available} command${available === 1 ? '' : 's'} can be undone (${why}).` },
    };
  }
  const effective = journal.effective.slice(0, journal.effective.length - count);
  const removed = journal.effective.slice(effective.length);
  // asked about one move (a question left open while play went on): not another taken back in its place
  if (command.seq !== undefined && removed[0]!.entry.seq !== command.seq) {
    return {
      ok: false,
      error: {
        code: 'undoMoved',
        message: `Nothing undone: the move asked about (#${command.seq}) is no longer the last one (#${removed[0]!.entry.seq} is).`,
        params: { seq: command.seq, last: removed[0]!.entry.seq },
      },
    };
  }
  const state = stateAfter(module, journal.initial, effective);
  // undoing the end of a game gives its stopwatch back: not once that time is over
  const restoredDeadline = module.deadline(state);
  if (restoredDeadline !== null && at >= restoredDeadline) {
    return { ok: false, error: { code: 'timeUp', message: 'The time of the game has run out since it ended: its end cannot be undone.' } };
  }
  const entry: JournalEntry = { seq: nextSeq(journal), at, command };
  return {
    ok: true,
    journal: { entries: [...journal.entries, entry], effective, initial: journal.initial, state },
    events: [
      {
        type: 'undone',
        count,
        commands: removed.map((e): UndoneCommand => ({ seq: e.entry.seq, type: e.entry.command.type, piece: e.piece })),
        // who asked, when a phone said its seat
        ...(typeof command.seat === 'number' ? { seat: command.seat } : {}),
      },
    ],
    entry,
  };
}

/** The state after the last of `effective`: its snapshot, or a replay from the nearest earlier one. */
function stateAfter<S>(module: GameModule<S, any, any>, initial: S, effective: readonly EffectiveEntry<S>[]): S {
  let from = effective.length - 1;
  while (from >= 0 && effective[from].state === null) from--;
  let state = from >= 0 ? (effective[from].state as S) : initial;
  for (let i = from + 1; i < effective.length; i++) {
    const { command, at, seq } = effective[i].entry;
    const result = module.apply(state, command, at);
    if (!result.ok) throw new JournalReplayError(seq, result.error);
    state = result.state;
  }
  return state;
}

function nextSeq(journal: JournalState<unknown>): number {
  return journal.entries.length ? journal.entries[journal.entries.length - 1].seq + 1 : 1;
}

/** Apply one command at wall-clock `at`. A rejected command leaves the journal as it was. */
export function submit<S>(module: GameModule<S, any, any>, journal: JournalState<S>, command: GameCommand, at: number): SubmitResult<S> {
  if (typeof command !== 'object' || command === null || typeof command.type !== 'string') {
    return { ok: false, error: { code: 'badCommand', message: 'A command is an object with a "type".' } };
  }
  if (isUndo(command)) return undo(module, journal, command, at);
  const before = journal.state;
  const result = module.apply(before, command, at);
  if (!result.ok) return result;
  const entry: JournalEntry = { seq: nextSeq(journal), at, command };
  const deadline = module.deadline(before);
  const ended = deadline !== null && module.deadline(result.state) === null;
  const barrier = !module.undoable(command) || (ended && at >= deadline);
  const snapshot = barrier || ended || journal.effective.length % SNAPSHOT_EVERY === 0;
  return {
    ok: true,
    journal: {
      entries: [...journal.entries, entry],
      effective: [...journal.effective, { entry, state: snapshot ? result.state : null, barrier, piece: module.commandPiece?.(before, command) ?? null }],
      initial: journal.initial,
      state: result.state,
    },
    events: result.events,
    entry,
  };
}

export class JournalReplayError extends Error {
  constructor(
    readonly seq: number,
    readonly rejection: CommandRejection,
  ) {
    super(`journal entry ${seq} was rejected on replay: ${rejection.message}`);
  }
}

/** Rebuild the whole journal (snapshots included) from its entries. Throws JournalReplayError if one no longer applies. */
export function rebuildJournal<S>(module: GameModule<S, any, any>, entries: readonly JournalEntry[]): JournalState<S> {
  let journal = openJournal(module);
  for (const entry of entries) {
    const result = submit(module, journal, entry.command, entry.at);
    if (!result.ok) throw new JournalReplayError(entry.seq, result.error);
    journal = { ...result.journal, entries: [...journal.entries, entry] };
    if (!isUndo(entry.command)) {
      const last = journal.effective[journal.effective.length - 1];
      journal.effective[journal.effective.length - 1] = { ...last, entry };
    }
  }
  return journal;
}

/** The state a journal gives: the replay of its entries from the module's empty state. */
export function replay<S>(module: GameModule<S, any, any>, entries: readonly JournalEntry[]): S {
  return rebuildJournal(module, entries).state;
}
