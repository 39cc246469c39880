/** The crash test's journal checker must itself catch what it is there to catch. */
import { describe, expect, it } from 'vitest';
import type { GameCommand } from '../../server/games/game-module.ts';
import { GameSession } from '../../server/table/game-session.ts';
import { yorktownAdapter } from '../../server/table/yorktown-adapter.ts';
import { checkJournal, type Ack, type StoredRow } from './journal-check.ts';

function played(count: number): { rows: StoredRow[]; acks: Ack[] } {
  const session = new GameSession(yorktownAdapter.module);
  const rows: StoredRow[] = [];
  const acks: Ack[] = [];
  for (const command of yorktownAdapter.attractPlan(5)) {
    if (rows.length === count) break;
    const entry = { seq: rows.length + 1, at: 1_800_000_000_000 + rows.length * 1000, command };
    if (!session.apply(entry).ok) continue;
    rows.push({ ...entry, origin: 'player' });
    acks.push({ seq: entry.seq, command, state: JSON.parse(JSON.stringify(yorktownAdapter.publicView(session.state))) });
  }
  return { rows, acks };
}

describe('checkJournal', () => {
  it('accepts a journal that holds exactly what was acknowledged', () => {
    const { rows, acks } = played(30);
    expect(checkJournal(rows, yorktownAdapter, acks, []).problems).toEqual([]);
  });

  it('finds a lost acknowledged entry, a changed command, a changed state and an invented entry', () => {
    const { rows, acks } = played(30);
    expect(checkJournal(rows.slice(0, 29), yorktownAdapter, acks, []).problems.join('\n')).toMatch(/acknowledged seq 30 .* missing/);
    const changed = rows.map((r) => (r.seq === 9 ? { ...r, command: { ...r.command, extra: 1 } as GameCommand } : r));
    expect(checkJournal(changed, yorktownAdapter, acks, []).problems.join('\n')).toMatch(/seq 9: journal has/);
    const badAcks = acks.map((a) => (a.seq === 12 ? { ...a, state: { ...(a.state as object), turn: 99 } } : a));
    expect(checkJournal(rows, yorktownAdapter, badAcks, []).problems.join('\n')).toMatch(/seq 12 .* differs/);
    expect(checkJournal(rows, yorktownAdapter, acks.slice(0, 28), []).problems.join('\n')).toMatch(/seq 29: .* never sent/);
    expect(checkJournal(rows, yorktownAdapter, acks.slice(0, 28), [rows[28].command, rows[29].command]).problems).toEqual([]);
  });
});
