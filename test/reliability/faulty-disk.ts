/**
 * A data folder whose disk can be filled up or made read-only while the service uses it.
 * Real faults when this process may mount (root): a small tmpfs filled with a filler file (ENOSPC),
 * and `chattr +i` on the database files (every write refused by the kernel). Without those powers the
 * same faults are simulated on the service's own SQLite connection: `max_page_count` (SQLITE_FULL)
 * and `query_only` (SQLITE_READONLY).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../server/store/database.ts';

export interface FaultyDisk {
  dir: string;
  mode: 'real' | 'simulated';
  fill(db: Db): void;
  free(db: Db): void;
  readOnly(db: Db, dbFile: string): void;
  writable(db: Db, dbFile: string): void;
  cleanup(): void;
}

function tryExec(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `forFull`: mount a small tmpfs (to fill it); otherwise a plain folder (chattr works there, not on tmpfs). */
export function faultyDisk(forFull: boolean, sizeKb = 4096): FaultyDisk {
  const dir = mkdtempSync(join(tmpdir(), 'flightdeck-disk-'));
  const mounted = forFull && process.getuid?.() === 0 && process.env.FLIGHTDECK_TEST_NO_MOUNT !== '1' && tryExec('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir]);
  const filler = join(dir, 'filler.bin');
  // never the -shm file: it is memory-mapped, and an immutable mapping ends the process with SIGBUS
  const dbFiles = (dbFile: string) => [dbFile, `${dbFile}-wal`].filter((f) => existsSync(f));
  // chattr works on the filesystem that holds tmpdir() here, not on tmpfs: read-only is tested where the files are
  const canChattr = process.getuid?.() === 0 && (() => {
    const probe = join(tmpdir(), `flightdeck-chattr-${process.pid}`);
    try {
      closeSync(openSync(probe, 'w'));
      const ok = tryExec('chattr', ['+i', probe]) && tryExec('chattr', ['-i', probe]);
      return ok;
    } finally {
      rmSync(probe, { force: true });
    }
  })();
  return {
    dir,
    mode: (forFull ? mounted : canChattr) ? 'real' : 'simulated',
    fill(db) {
      if (!mounted) {
        const pages = db.pragma('page_count', { simple: true }) as number;
        db.pragma(`max_page_count = ${pages}`);
        return;
      }
      const fd = openSync(filler, 'w');
      const block = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, block);
      } catch {
        // ENOSPC: the disk is full
      } finally {
        closeSync(fd);
      }
      try {
        const fd2 = openSync(filler, 'a');
        try {
          for (;;) writeSync(fd2, Buffer.alloc(512));
        } catch {
          /* the last bytes */
        } finally {
          closeSync(fd2);
        }
      } catch {
        /* nothing */
      }
    },
    free(db) {
      if (!mounted) {
        if (db.open) db.pragma('max_page_count = 1073741823'); // a closed connection took its limit with it
      }
      else rmSync(filler, { force: true });
    },
    readOnly(db, dbFile) {
      if (canChattr && !mounted) for (const f of dbFiles(dbFile)) execFileSync('chattr', ['+i', f]);
      else db.pragma('query_only = 1');
    },
    writable(db, dbFile) {
      if (canChattr && !mounted) for (const f of dbFiles(dbFile)) execFileSync('chattr', ['-i', f]);
      else if (db.open) db.pragma('query_only = 0');
    },
    cleanup() {
      if (canChattr) for (const f of ['flightdeck.sqlite', 'db.sqlite']) for (const x of dbFiles(join(dir, f))) tryExec('chattr', ['-i', x]);
      if (mounted) tryExec('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** chattr +i on the files (root on a filesystem that supports it); false when not possible */
export function makeImmutable(files: string[], on: boolean): boolean {
  return files.every((f) => tryExec('chattr', [on ? '+i' : '-i', f]));
}
