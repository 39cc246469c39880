/**
 * Checks a table's journal, read straight from the SQLite file, against what clients were told:
 * every acknowledged command is there with the state it was acknowledged with, every other entry
 * is a whole command that was really sent, and the journal replays without a skipped entry.
 */
import Database from 'better-sqlite3';
import { isDeepStrictEqual } from 'node:util';
import type { GameCommand } from '../../server/games/game-module.ts';
import type { GameAdapter } from '../../server/table/game-adapter.ts';
import { GameSession } from '../../server/table/game-session.ts';

export interface StoredRow {
  seq: number;
  at: number;
  origin: string;
  command: GameCommand;
}

export interface Ack {
  seq: number;
  /** the public state the server answered with */
  state: unknown;
  command: GameCommand;
}

/** The journal rows of one table, through a read-only connection (the server may be running). */
export function readJournal(dbFile: string, tableId: string): StoredRow[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT seq, at, origin, command FROM journal WHERE table_id = ? ORDER BY seq').all(tableId) as {
      seq: number;
      at: number;
      origin: string;
      command: string;
    }[];
    return rows.map((r) => ({ seq: r.seq, at: r.at, origin: r.origin, command: JSON.parse(r.command) as GameCommand }));
  } finally {
    db.close();
  }
}

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

export interface JournalVerdict {
  problems: string[];
  /** public state after replaying the whole journal */
  finalState: unknown;
  lastSeq: number;
}

/**
 * @param acks every acknowledged command of the table, over the whole test
 * @param unacked commands sent whose answer never came (killed in flight): each may be in the journal or not
 */
export function checkJournal(rows: StoredRow[], adapter: GameAdapter<any>, acks: Ack[], unacked: GameCommand[]): JournalVerdict {
  const problems: string[] = [];
  const ackBySeq = new Map(acks.map((a) => [a.seq, a]));
  const session = new GameSession(adapter.module);
  let expectSeq = rows[0]?.seq ?? 1;
  const unackedLeft = [...unacked];
  for (const row of rows) {
    if (row.seq !== expectSeq) problems.push(`seq ${row.seq} follows ${expectSeq - 1}: a gap in the journal`);
    expectSeq = row.seq + 1;
    const applied = session.apply({ seq: row.seq, at: row.at, command: row.command });
    if (!applied.ok) problems.push(`seq ${row.seq} (${row.command.type}) no longer applies on replay: ${applied.error.code}`);
    const ack = ackBySeq.get(row.seq);
    if (ack) {
      if (!isDeepStrictEqual(plain(row.command), plain(ack.command))) {
        problems.push(`seq ${row.seq}: journal has ${JSON.stringify(row.command)}, the client was acknowledged ${JSON.stringify(ack.command)}`);
      }
      const replayed = plain(adapter.publicView(session.state));
      if (!isDeepStrictEqual(replayed, plain(ack.state))) problems.push(`seq ${row.seq} (${row.command.type}): the replayed state differs from the acknowledged one`);
      ackBySeq.delete(row.seq);
    } else if (row.origin === 'player') {
      const i = unackedLeft.findIndex((c) => isDeepStrictEqual(plain(c), plain(row.command)));
      if (i < 0) problems.push(`seq ${row.seq}: ${JSON.stringify(row.command)} was never sent, or was acknowledged under another seq`);
      else unackedLeft.splice(i, 1);
    }
  }
  for (const lost of ackBySeq.values()) problems.push(`acknowledged seq ${lost.seq} (${lost.command.type}) is missing from the journal`);
  return { problems, finalState: plain(adapter.publicView(session.state)), lastSeq: rows.length > 0 ? rows[rows.length - 1].seq : 0 };
}
