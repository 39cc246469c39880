/**
 * Each table's journal of accepted commands. Writes go in one transaction: all of a batch
 * is on disk, or none of it (a failed write never leaves half an entry behind).
 */
import type { GameCommand, JournalEntry } from '../games/game-module.ts';
import type { Db } from './database.ts';

/** Who sent a command: kept with each entry (audit, and attract games kept out of statistics). */
export type CommandOrigin = 'player' | 'camera' | 'box' | 'stopwatch' | 'kiosk' | 'attract';

export interface StoredEntry extends JournalEntry {
  origin: CommandOrigin;
}

export class JournalStore {
  private readonly insert;
  private readonly selectFrom;
  private readonly selectLastSeq;
  private readonly selectLastOfTypes;
  private readonly selectLastCommandOfType;
  private readonly appendBatch;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO journal (table_id, seq, at, type, origin, command) VALUES (?, ?, ?, ?, ?, ?)');
    this.selectFrom = db.prepare('SELECT seq, at, origin, command FROM journal WHERE table_id = ? AND seq >= ? ORDER BY seq');
    this.selectLastSeq = db.prepare('SELECT MAX(seq) AS seq FROM journal WHERE table_id = ?');
    this.selectLastOfTypes = db.prepare(
      'SELECT MAX(seq) AS seq FROM journal WHERE table_id = ? AND type IN (SELECT value FROM json_each(?))',
    );
    this.selectLastCommandOfType = db.prepare(
      'SELECT seq, at, origin, command FROM journal WHERE table_id = ? AND type = ? AND origin NOT IN (SELECT value FROM json_each(?)) ORDER BY seq DESC LIMIT 1',
    );
    this.appendBatch = db.transaction((tableId: string, entries: StoredEntry[]) => {
      for (const e of entries) this.insert.run(tableId, e.seq, e.at, e.command.type, e.origin, JSON.stringify(e.command));
    });
  }

  /** Appends the entries atomically; throws (better-sqlite3 error) when the database refuses. */
  append(tableId: string, entries: StoredEntry[]): void {
    this.appendBatch(tableId, entries);
  }

  /** Entries with seq >= fromSeq, in order. */
  load(tableId: string, fromSeq = 0): StoredEntry[] {
    const rows = this.selectFrom.all(tableId, fromSeq) as { seq: number; at: number; origin: string; command: string }[];
    return rows.map((r) => ({ seq: r.seq, at: r.at, origin: r.origin as CommandOrigin, command: JSON.parse(r.command) as GameCommand }));
  }

  /** seq of the last entry whose command type is one of `types` (0 when none) */
  lastSeqOfType(tableId: string, types: string[]): number {
    const row = this.selectLastOfTypes.get(tableId, JSON.stringify(types)) as { seq: number | null };
    return row.seq ?? 0;
  }

  /** The last entry whose command is of this type, sent by none of `exceptOrigins` (null when none). */
  lastOfType(tableId: string, type: string, exceptOrigins: CommandOrigin[] = []): StoredEntry | null {
    const row = this.selectLastCommandOfType.get(tableId, type, JSON.stringify(exceptOrigins)) as { seq: number; at: number; origin: string; command: string } | undefined;
    return row ? { seq: row.seq, at: row.at, origin: row.origin as CommandOrigin, command: JSON.parse(row.command) as GameCommand } : null;
  }

  lastSeq(tableId: string): number {
    const row = this.selectLastSeq.get(tableId) as { seq: number | null };
    return row.seq ?? 0;
  }
}
