/**
 * Turns the camera's stable readings into `dice` commands: only while a roll is in progress,
 * only complete readings (no unreadable die), only when the faces differ from what the table
 * already has for this roll, only of dice that moved since the roll began (not the last
 * roll's, still lying in the tray), never of an empty tray (the dice picked up to be thrown), and
 * never again of a reading the players took back with Undo while those dice have not moved since
 * (they throw again, or ask for the tray to be read again: `Table.readTray`); a throw after such an
 * Undo is read even when it lands on the faces the camera passed on last (`restedAfterUndo`). A refused
 * reading taken back with Undo is the tray's all the same: the dice at rest there are read again at once
 * (`refusalUndone`), so that the refusal, and what it says to do, stays while those dice lie there; that
 * reading taken back too, the same dice not moved since, is not read a third time: Undo goes on back.
 */
import type { SeenDie } from '../http/protocol.ts';
import type { Table } from './table.ts';

export interface CameraReading {
  /** readable dice in the rolling zone */
  faces: number[];
  /** readable dice set aside in the kept zone (locked 1s and kept dice) */
  kept: number[];
  unreadable: number;
  /** when the dice last moved before this reading (null: not since the camera started; absent: not known) */
  movedAt?: number | null;
}

/** The dice the camera sees at rest in the tray and kept zone: the faces read (sorted), and how many it is deciding or cannot read. */
export function trayFaces(dice: readonly SeenDie[]): { faces: number[]; pending: number; unreadable: number } {
  const pending = dice.filter((d) => d.pending).length;
  const unreadable = dice.filter((d) => !d.pending && d.face === null).length;
  const faces = dice.filter((d) => !d.pending && d.face !== null).map((d) => d.face as number).sort((a, b) => a - b);
  return { faces, pending, unreadable };
}

const sameFaces = (a: number[] | null, b: number[]) => a !== null && a.length === b.length && a.every((f, i) => f === b[i]);

export class DiceInput {
  private rollKey: string | null = null;
  private lastSent: number[] | null = null;
  /** the roll that began while this table was watched, and when (the wall clock, as the camera stamps its frames) */
  private began: { key: string; at: number } | null = null;
  /** the roll whose refused reading an Undo took back, its tray not read again yet (null: none) */
  private refusalUndoneIn: string | null = null;
  /** the tray read again after a refused reading was taken back (its roll, faces and when they last moved) */
  private trayReadAgain: { key: string; faces: number[]; movedAt: number | null | undefined } | null = null;

  constructor(
    private readonly table: Table<any>,
    private readonly log: { debug?(obj: unknown, msg?: string): void } = {},
    private readonly now: () => number = Date.now,
  ) {
    table.on('applied', (change: { before: unknown; after: unknown; command: { type: string; faces?: unknown }; origin: string }) => {
      const key = table.adapter.rollKey(change.after);
      // dice read or typed in since: the tray has been answered for
      if (change.command.type === 'dice') this.refusalUndoneIn = null;
      if (key !== null && key !== table.adapter.rollKey(change.before)) {
        this.began = { key, at: this.now() };
        // a roll begun afresh (a new game's roll may have the same key as the last game's) has had nothing sent
        this.rollKey = key;
        this.lastSent = null;
        this.refusalUndoneIn = null;
        this.trayReadAgain = null;
      } else if (key !== null && change.command.type === 'undo') {
        // the reading taken back is not "sent" any more: a re-throw landing on the same faces is a new reading
        this.lastSent = null;
        if (table.adapter.rollReadingRefused(change.before)) {
          this.refusalUndoneIn = key;
          // after the Undo's own change has gone out: the screens hear of the Undo, then of the tray
          setImmediate(() => this.refusalUndone());
        }
      } else if (key !== null && change.command.type === 'dice' && change.origin === 'camera' && Array.isArray(change.command.faces)) {
        // the tray read again at the players' asking (Table.readTray) is the camera's reading too
        this.rollKey = key;
        this.lastSent = [...(change.command.faces as number[])].sort((a, b) => a - b);
      }
    });
    table.on('vision', (update: { settled: boolean }) => {
      if (!update.settled) return;
      this.restedAfterUndo();
      this.refusalUndone();
    });
  }

  /**
   * After an Undo took back a refused reading (a die too many, a locked 1 re-rolled), the dice at rest in
   * the tray, every one read, are read into the roll again: while they are the same dice the refusal comes
   * back, and Confirm stays refused; the players put the tray right (or type the dice in) to go on. Waits for
   * a working camera and a tray at rest whose dice are all decided. The tray read again once and that reading
   * taken back too, the same dice not moved since, is not read again: the players are going back further.
   * Returns what `reading` made of them, or null when there was nothing to read.
   */
  refusalUndone(): ReturnType<DiceInput['reading']> | null {
    const key = this.table.adapter.rollKey(this.table.state);
    // a camera that stopped reading has its last look only: read once it is back (its next frame at rest)
    const watching = this.refusalUndoneIn !== null && this.refusalUndoneIn === key && this.table.hardware().camera.state === 'ok';
    const tray = watching ? this.restingTray() : null;
    if (!tray || key === null) return null;
    this.refusalUndoneIn = null;
    const again = this.trayReadAgain;
    if (again && again.key === key && again.movedAt === tray.movedAt && sameFaces(again.faces, tray.faces)) return null;
    this.trayReadAgain = { key, faces: tray.faces, movedAt: tray.movedAt };
    return this.reading({ faces: tray.faces, kept: [], unreadable: 0, movedAt: tray.movedAt }, true);
  }

  /**
   * After an Undo of a reading, dice thrown again that come to rest on the faces the camera last passed on
   * make no reading of the camera's (it passes on only readings that differ from its last one,
   * server/hardware/camera/stabilizer.ts), though the roll no longer shows them: the dice at rest, every one
   * decided, that moved since the Undo are read into the roll here. Returns what `reading` made of them, or
   * null when there was nothing to take.
   */
  restedAfterUndo(): ReturnType<DiceInput['reading']> | null {
    const undone = this.table.readingUndone();
    // a die still being decided or not readable: the camera's own reading (or none) follows, as for any throw
    const tray = undone ? this.restingTray() : null;
    if (!undone || !tray || tray.movedAt === undefined || tray.movedAt === null || tray.movedAt < undone.at) return null;
    return this.reading({ faces: tray.faces, kept: [], unreadable: 0, movedAt: tray.movedAt });
  }

  /** The dice the camera last saw at rest, every one decided and read (null: none such, or an empty tray). */
  private restingTray(): { faces: number[]; movedAt: number | null | undefined } | null {
    const read = this.table.lastSettledRead();
    if (!read) return null;
    const tray = trayFaces(read.dice);
    return tray.pending > 0 || tray.unreadable > 0 || tray.faces.length === 0 ? null : { faces: tray.faces, movedAt: read.movedAt };
  }

  /** Returns what happened, for logs and tests. `evenTakenBack`: read the dice though their reading was taken back with Undo. */
  reading(reading: CameraReading, evenTakenBack = false): 'sent' | 'noRoll' | 'incomplete' | 'unchanged' | 'refused' | 'fromBefore' | 'empty' | 'undone' {
    const { adapter, state } = this.table;
    const key = adapter.rollKey(state);
    if (key === null) {
      this.rollKey = null;
      return 'noRoll';
    }
    if (key !== this.rollKey) {
      this.rollKey = key;
      this.lastSent = null;
    }
    // dice that have not moved since the roll began are the last roll's, still in the tray (a reading decided late)
    if (reading.movedAt !== undefined && this.began?.key === key && (reading.movedAt === null || reading.movedAt < this.began.at)) return 'fromBefore';
    this.table.setDiceUnread(reading.unreadable);
    if (reading.unreadable > 0) return 'incomplete';
    const faces = [...reading.kept, ...reading.faces].sort((a, b) => a - b);
    // an empty tray is the dice picked up to be thrown (or a camera started afresh), not a throw of none
    if (faces.length === 0) return 'empty';
    // after a refused reading (a frame that missed a die), the dice the roll had are read again to clear it
    const tableFaces = adapter.rollReadingRefused(state) ? null : adapter.rollFaces(state);
    // the reading the players took back, the same dice not moved since (a die the camera lost and found again): not taken again
    const undone = this.table.readingUndone();
    if (undone && !evenTakenBack && sameFaces(undone.faces, faces) && reading.movedAt !== undefined && (reading.movedAt === null || reading.movedAt < undone.at)) return 'undone';
    if (sameFaces(this.lastSent, faces) || sameFaces(tableFaces ? [...tableFaces].sort((a, b) => a - b) : null, faces)) return 'unchanged';
    this.lastSent = faces;
    const ack = this.table.submit({ type: 'dice', faces }, 'camera');
    if (!ack.ok) {
      this.log.debug?.({ table: this.table.id, faces, error: ack.error }, 'camera reading refused');
      return 'refused';
    }
    return 'sent';
  }
}
