/**
 * The dice the players keep out of the simulated camera's next re-roll: one pick for the table, shared by
 * every screen (the table's and the phones'), as the dice set aside in a real tray are seen by all. Made
 * at a reading of the roll; after a new throw every free die showing a face kept joins them (`followPick`),
 * as a player leaves a new 2 beside the 2s kept. Locked 1s are never in it (they stay where they are).
 */
import { withoutLockedOnes } from '../dice/faces.ts';
import { followPick, keptAmong as stillShowing, type KeepPick } from '../dice/kept-dice.ts';
import { SimulatorRequestError, type Table, type TableChange } from './table.ts';

export class SimulatedKeep {
  private pick: (KeepPick & { rollKey: string }) | null = null;
  /** dice readings taken since the service started: a pick made before the last one follows the new throw */
  private readings = 0;
  private readonly onApplied = (change: TableChange) => {
    if (change.command.type === 'dice') this.readings++;
  };

  constructor(private readonly table: Table<any>) {
    table.on('applied', this.onApplied);
  }

  /** The free dice of the roll in progress (its faces read, less the locked 1s), or null when none are read. */
  private free(): { rollKey: string; free: number[] } | null {
    const { adapter, state } = this.table;
    const rollKey = adapter.rollKey(state);
    const faces = adapter.rollFaces(state);
    if (rollKey === null || faces === null) return null;
    return { rollKey, free: withoutLockedOnes(faces, adapter.rollLockedOnes(state)) };
  }

  /** The faces kept now, sorted: those of the pick the dice showing still hold (none before a pick, or in another roll). */
  kept(): number[] {
    const now = this.free();
    const pick = this.pick;
    if (!now || !pick || pick.rollKey !== now.rollKey) return [];
    const followed = followPick(pick, now.free, this.readings);
    if (followed !== pick) this.pick = { rollKey: pick.rollKey, ...followed };
    return stillShowing(followed.faces, now.free);
  }

  /** The players keep these faces (all of them, replacing the last pick; [] keeps none): they must be among the free dice. */
  keep(faces: readonly number[]): number[] {
    const now = this.free();
    if (!now) throw new SimulatorRequestError('keep: no dice are read for this roll yet; throw them all first');
    const kept = stillShowing(faces, now.free);
    if (kept.length < faces.length) {
      throw new SimulatorRequestError(`keep: ${faces.join(', ')} cannot all be kept; the dice that can be kept are ${now.free.join(', ') || 'none'} (locked 1s stay where they are)`);
    }
    this.pick = { rollKey: now.rollKey, faces: kept, readings: this.readings };
    this.table.refresh();
    return kept;
  }

  stop(): void {
    this.table.off('applied', this.onApplied);
  }
}
