/** Small per-table values kept across restarts (the generated PIN, rule overrides, kiosk settings). */
import type { Db } from './database.ts';

export class MetaStore {
  private readonly selectOne;
  private readonly upsert;

  constructor(db: Db) {
    this.selectOne = db.prepare('SELECT value FROM table_meta WHERE table_id = ? AND key = ?');
    this.upsert = db.prepare(
      'INSERT INTO table_meta (table_id, key, value) VALUES (?, ?, ?) ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value',
    );
  }

  get<T>(tableId: string, key: string): T | undefined {
    const row = this.selectOne.get(tableId, key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  /** Throws when the database refuses the write. */
  set(tableId: string, key: string, value: unknown): void {
    this.upsert.run(tableId, key, JSON.stringify(value));
  }
}
