/**
 * Turns the camera's stable readings into `dice` commands: only while a roll is in progress,
 * only complete readings (no unreadable die), only when the faces differ from what the table
 * already has for this roll, only of dice that moved since the roll began (not the last
 * roll's, still lying in the tray), and never of an empty tray (the dice picked up to be thrown).
 */
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

const sameFaces = (a: number[] | null, b: number[]) => a !== null && a.length === b.length && a.every((f, i) => f === b[i]);

export class DiceInput {
  private rollKey: string | null = null;
  private lastSent: number[] | null = null;
  /** the roll that began while this table was watched, and when (the wall clock, as the camera stamps its frames) */
  private began: { key: string; at: number } | null = null;

  constructor(
    private readonly table: Table<any>,
    private readonly log: { debug?(obj: unknown, msg?: string): void } = {},
    private readonly now: () => number = Date.now,
  ) {
    table.on('applied', (change: { before: unknown; after: unknown }) => {
      const key = table.adapter.rollKey(change.after);
      if (key !== null && key !== table.adapter.rollKey(change.before)) {
        this.began = { key, at: this.now() };
        // a roll begun afresh (a new game's roll may have the same key as the last game's) has had nothing sent
        this.rollKey = key;
        this.lastSent = null;
      }
    });
  }

  /** Returns what happened, for logs and tests. */
  reading(reading: CameraReading): 'sent' | 'noRoll' | 'incomplete' | 'unchanged' | 'refused' | 'fromBefore' | 'empty' {
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
