/**
 * Turns the camera's stable readings into `dice` commands: only while a roll is in progress,
 * only complete readings (no unreadable die), and only when the faces differ from what the
 * table already has for this roll.
 */
import type { Table } from './table.ts';

export interface CameraReading {
  /** readable dice in the rolling zone */
  faces: number[];
  /** readable dice set aside in the kept zone (locked 1s and kept dice) */
  kept: number[];
  unreadable: number;
}

const sameFaces = (a: number[] | null, b: number[]) => a !== null && a.length === b.length && a.every((f, i) => f === b[i]);

export class DiceInput {
  private rollKey: string | null = null;
  private lastSent: number[] | null = null;

  constructor(private readonly table: Table<any>, private readonly log: { debug?(obj: unknown, msg?: string): void } = {}) {}

  /** Returns what happened, for logs and tests. */
  reading(reading: CameraReading): 'sent' | 'noRoll' | 'incomplete' | 'unchanged' | 'refused' {
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
    this.table.setDiceUnread(reading.unreadable);
    if (reading.unreadable > 0) return 'incomplete';
    const faces = [...reading.kept, ...reading.faces].sort((a, b) => a - b);
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
