/**
 * All the tables one process serves: opens the database, builds each table from its config,
 * gives it its PIN (TABLE_PIN, or one generated at first start and kept in the database),
 * and replays each journal so every table is back where it was.
 */
import type { ServiceConfig, TableConfig } from '../config/service-config.ts';
import { openDatabase, openReadOnlyCopy, type Db } from '../store/database.ts';
import { JournalStore } from '../store/journal-store.ts';
import { MetaStore } from '../store/meta-store.ts';
import { StatsStore } from '../store/stats-store.ts';
import type { GameAdapter } from './game-adapter.ts';
import { Kiosk, type KioskOptions } from './kiosk.ts';
import { generatePin } from './pin.ts';
import { Table, type TableLog } from './table.ts';

export interface TableServiceOptions {
  config: Pick<ServiceConfig, 'tables' | 'pin'>;
  /** database file (or ':memory:') */
  dbFile: string;
  games: Record<string, GameAdapter<any>>;
  log: TableLog;
  now?: () => number;
  /** demo-station timing (tests drive the kiosks themselves with `autoStart: false`) */
  kiosk?: Partial<KioskOptions> & { autoStart?: boolean };
  /** how often a table tries again to write what the database refused (default 5 s) */
  unsavedRetryMs?: number;
}

export class TableService {
  readonly db: Db;
  readonly tables = new Map<string, Table<any>>();
  readonly kiosks = new Map<string, Kiosk>();
  readonly stats: StatsStore;
  readonly meta: MetaStore;
  readonly journal: JournalStore;

  constructor(private readonly options: TableServiceOptions) {
    let startupFault: string | null = null;
    try {
      this.db = openDatabase(options.dbFile);
    } catch (err) {
      // a database that cannot be written (read-only disk or folder, bad permissions): serve the games it
      // holds from an in-memory copy, unsaved, and say so; one that cannot even be read: an empty table
      const reason = err instanceof Error ? err.message : 'unknown error';
      let copy: Db | null = null;
      let unreadable = '';
      try {
        copy = openReadOnlyCopy(options.dbFile);
      } catch (readErr) {
        unreadable = readErr instanceof Error ? readErr.message : 'unknown error';
      }
      startupFault = copy
        ? `The database ${options.dbFile} cannot be opened for writing (${reason}): the saved games were read from it, but play goes on in memory and is not being saved.`
        : `The database ${options.dbFile} cannot be opened (${reason}; reading it: ${unreadable}): play goes on in memory and is not being saved.`;
      options.log.error({ err, dbFile: options.dbFile }, startupFault);
      this.db = copy ?? openDatabase(':memory:');
    }
    this.journal = new JournalStore(this.db);
    this.meta = new MetaStore(this.db);
    this.stats = new StatsStore(this.db);
    for (const config of options.config.tables) {
      const table = this.createTable(config);
      if (startupFault) table.setAlert('dbUnavailable', startupFault);
      this.tables.set(config.id, table);
      if (config.kiosk) {
        const kiosk = new Kiosk(table, config.kiosk, { log: options.log, now: options.now, ...options.kiosk });
        this.kiosks.set(config.id, kiosk);
        if (options.kiosk?.autoStart !== false) kiosk.start();
      }
    }
  }

  private createTable(config: TableConfig): Table<any> {
    const adapter = this.options.games[config.game];
    if (!adapter) throw new Error(`table "${config.id}": unknown game "${config.game}" (known: ${Object.keys(this.options.games).join(', ')})`);
    const table = new Table({
      config,
      adapter,
      stores: { journal: this.journal, meta: this.meta, stats: this.stats },
      pin: this.pinFor(config.id),
      log: this.options.log,
      now: this.options.now,
      unsavedRetryMs: this.options.unsavedRetryMs,
    });
    const { replayed, skipped } = table.restore();
    this.options.log.info({ table: config.id, seq: table.seq, replayed, skipped }, `table "${config.id}" restored from its journal`);
    return table;
  }

  private pinFor(tableId: string): string {
    if (this.options.config.pin !== null) return this.options.config.pin;
    const kept = this.meta.get<string>(tableId, 'pin');
    if (typeof kept === 'string') return kept;
    const pin = generatePin();
    try {
      this.meta.set(tableId, 'pin', pin);
    } catch (err) {
      this.options.log.warn({ table: tableId, err }, 'could not keep the generated PIN in the database; it will change at the next start');
    }
    return pin;
  }

  get(id: string): Table<any> | undefined {
    return this.tables.get(id);
  }

  /** The first table in the config ("default" in URLs also means this one when no table has that id). */
  first(): Table<any> {
    return this.tables.values().next().value as Table<any>;
  }

  resolve(id: string): Table<any> | undefined {
    return this.tables.get(id) ?? (id === 'default' ? this.first() : undefined);
  }

  close(): void {
    for (const kiosk of this.kiosks.values()) kiosk.stop();
    for (const table of this.tables.values()) table.close();
    if (this.db.open) this.db.close();
  }
}
