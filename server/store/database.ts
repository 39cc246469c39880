/**
 * Opens the service's SQLite database (better-sqlite3): WAL journal, synchronous=FULL so a
 * committed transaction survives a power cut, and the schema every store uses.
 */
import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

/** Bump with every schema change, and migrate from the older versions in openDatabase. */
export const SCHEMA_VERSION = 1;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS journal (
     table_id TEXT NOT NULL,
     seq INTEGER NOT NULL,
     at INTEGER NOT NULL,
     type TEXT NOT NULL,
     origin TEXT NOT NULL,
     command TEXT NOT NULL,
     PRIMARY KEY (table_id, seq)
   )`,
  `CREATE INDEX IF NOT EXISTS journal_type ON journal (table_id, type, seq)`,
  `CREATE TABLE IF NOT EXISTS table_meta (
     table_id TEXT NOT NULL,
     key TEXT NOT NULL,
     value TEXT NOT NULL,
     PRIMARY KEY (table_id, key)
   )`,
  `CREATE TABLE IF NOT EXISTS game_stats (
     table_id TEXT NOT NULL,
     game TEXT NOT NULL,
     started_seq INTEGER NOT NULL,
     started_at INTEGER NOT NULL,
     ended_at INTEGER NOT NULL,
     day TEXT NOT NULL,
     result TEXT NOT NULL,
     cause TEXT,
     duration_ms INTEGER NOT NULL,
     attract INTEGER NOT NULL,
     details TEXT NOT NULL,
     PRIMARY KEY (table_id, started_seq)
   )`,
  `CREATE INDEX IF NOT EXISTS game_stats_day ON game_stats (table_id, day)`,
];

/** `file` is a path, or ':memory:' for a database that lives only as long as the process. */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mustBeWritable(file);
  const db = new Database(file);
  try {
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    prepare(db, file);
  } catch (err) {
    if (db.open) db.close();
    throw err;
  }
  return db;
}

/**
 * SQLite quietly opens a file it cannot write read-only (and, in WAL mode, even takes a write lock):
 * the first write would fail. Say so at start instead: throws when the file or its -wal/-shm cannot be written.
 */
function mustBeWritable(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (!existsSync(path)) continue;
    try {
      accessSync(path, constants.W_OK);
    } catch (err) {
      throw new Error(`${path} is not writable (${(err as NodeJS.ErrnoException).code ?? 'no access'})`);
    }
  }
}

/** Pragmas, version check and schema, for a file or an in-memory database. */
function prepare(db: Db, name: string): void {
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 2000');
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    throw new Error(`${name} was written by a newer Flight Deck (database version ${version}, this one knows ${SCHEMA_VERSION})`);
  }
  db.transaction(() => {
    for (const statement of SCHEMA) db.exec(statement);
    if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

/**
 * An in-memory database holding everything `file` holds, for a file that cannot be opened for
 * writing (read-only disk or folder, immutable file): the tables replay from it, and what is written
 * afterwards stays in memory. The file itself is never written. Throws when the file cannot be read.
 */
export function openReadOnlyCopy(file: string): Db {
  const copy = new Database(asRollbackImage(readImage(file)));
  try {
    prepare(copy, file);
  } catch (err) {
    copy.close();
    throw err;
  }
  return copy;
}

/**
 * The database's pages: through SQLite read-only when it can (it includes what the -wal file
 * holds), else the file's bytes (a WAL database in a folder that cannot take its -shm file).
 */
function readImage(file: string): Buffer {
  try {
    const reader = new Database(file, { readonly: true, fileMustExist: true });
    try {
      reader.pragma('user_version', { simple: true });
      return reader.serialize();
    } finally {
      reader.close();
    }
  } catch {
    const bytes = readFileSync(file);
    if (bytes.length < 100 || !bytes.subarray(0, 16).equals(SQLITE_HEADER)) throw new Error(`${file} is not a SQLite database`);
    return bytes;
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** An image whose header says WAL (file format bytes 18-19 = 2) cannot be opened in memory: mark it rollback (1). */
function asRollbackImage(image: Buffer): Buffer {
  if (image[18] === 2 || image[19] === 2) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}

/** The database file inside the data directory (created when missing). */
export function databaseFileIn(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return join(dataDir, 'flightdeck.sqlite');
}

/** A write that failed because of the medium (read-only, disk full, I/O), not because of a bug. */
export interface StorageFault {
  code: 'dbReadOnly' | 'diskFull' | 'dbIoError' | 'dbError';
  message: string;
}

export function classifyStorageError(err: unknown): StorageFault {
  const code = String((err as { code?: unknown })?.code ?? '');
  const detail = String((err as Error)?.message ?? err);
  if (code.startsWith('SQLITE_READONLY')) return { code: 'dbReadOnly', message: `The database is read-only (${detail}); play goes on but is no longer saved.` };
  if (code.startsWith('SQLITE_FULL')) return { code: 'diskFull', message: `The disk is full (${detail}); play goes on but is no longer saved.` };
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) return { code: 'dbIoError', message: `The database cannot be written (${detail}); play goes on but is no longer saved.` };
  return { code: 'dbError', message: `Saving failed (${detail}); play goes on but is no longer saved.` };
}
