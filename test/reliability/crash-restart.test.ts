/**
 * The real service killed with SIGKILL at random moments of real games (in the middle of a roll,
 * while a burst of commands is in flight, between commands), restarted each time on the same data
 * folder. After every restart each table must be exactly where its journal says, the journal must
 * hold every acknowledged command with the state it was acknowledged with, no entry may be half
 * written or invented, and the stopwatch's deadline must be the same wall-clock instant as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { GameCommand } from '../../server/games/game-module.ts';
import { yorktownAdapter } from '../../server/table/yorktown-adapter.ts';
import { checkJournal, readJournal, type Ack } from './journal-check.ts';
import { call, startServer, tempSetup, type ServerProcess } from './server-process.ts';

/** small seeded PRNG (mulberry32): the kill points are random but the same on every run */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface TablePlay {
  id: string;
  plan: GameCommand[];
  next: number;
  planSeed: number;
  acks: Ack[];
  unacked: GameCommand[];
  /** the deadline of the game when the server was killed, from the last acknowledged state */
  deadlineBefore: number | null;
  /** rejections in a row: a burst that arrived out of order derails the plan, so a new game starts */
  rejectedInARow: number;
}

const setup = tempSetup([{ id: 't1', name: 'Table 1' }, { id: 't2', name: 'Table 2' }]);
afterAll(() => setup.cleanup());

let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill('SIGKILL');
});

function nextCommand(t: TablePlay): GameCommand {
  if (t.next >= t.plan.length || t.rejectedInARow >= 3) {
    t.rejectedInARow = 0;
    t.planSeed += 100;
    t.plan = yorktownAdapter.attractPlan(t.planSeed);
    t.next = 0;
  }
  return t.plan[t.next++];
}

type Outcome = 'acked' | 'rejected' | 'lost';

async function send(url: string, t: TablePlay, command: GameCommand): Promise<Outcome> {
  try {
    const r = await call(url, 'POST', `/api/tables/${t.id}/commands`, command);
    if (r.status === 200) {
      t.acks.push({ seq: r.json.seq, state: r.json.state, command });
      t.rejectedInARow = 0;
      return 'acked';
    }
    if (r.status >= 500) throw new Error(`HTTP ${r.status} for ${JSON.stringify(command)}: ${JSON.stringify(r.json)}`);
    expect(r.json.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    t.rejectedInARow++;
    return 'rejected';
  } catch (err) {
    if (String((err as Error).message).startsWith('HTTP ')) throw err;
    t.unacked.push(command);
    return 'lost';
  }
}

function lastAckedState(t: TablePlay): any {
  return t.acks.length > 0 ? t.acks[t.acks.length - 1].state : null;
}

async function verify(url: string, tables: TablePlay[], killedAt: number): Promise<void> {
  const dbFile = join(setup.dataDir, 'flightdeck.sqlite');
  for (const t of tables) {
    const snap = (await call(url, 'GET', `/api/tables/${t.id}/state`)).json;
    const rows = readJournal(dbFile, t.id);
    const verdict = checkJournal(rows, yorktownAdapter, t.acks, t.unacked);
    expect(verdict.problems, `table ${t.id}`).toEqual([]);
    const lastAck = t.acks.length > 0 ? Math.max(...t.acks.map((a) => a.seq)) : 0;
    expect(snap.seq).toBe(verdict.lastSeq);
    expect(snap.seq).toBeGreaterThanOrEqual(lastAck);
    expect(isDeepStrictEqual(snap.state, verdict.finalState), `table ${t.id}: the served state is not the journal's`).toBe(true);
    // the stopwatch: same wall-clock deadline as before the kill, and the server's clock has moved on
    const newGameAfterAck = rows.some((r) => r.seq > lastAck && r.command.type === 'newGame');
    if (t.deadlineBefore !== null && !newGameAfterAck) expect(snap.state.deadline).toBe(t.deadlineBefore);
    expect(snap.serverTime).toBeGreaterThanOrEqual(killedAt);
    if (snap.state.deadline !== null && snap.state.outcome === null) expect(snap.state.deadline).toBeGreaterThan(snap.serverTime);
  }
}

describe('SIGKILL at random moments, restart, resume', () => {
  it('keeps every acknowledged command, never half of one, and the wall-clock stopwatch', async () => {
    const rand = prng(20261122);
    const tables: TablePlay[] = ['t1', 't2'].map((id, i) => {
      const planSeed = 11 + i;
      return { id, plan: yorktownAdapter.attractPlan(planSeed), next: 0, planSeed, acks: [], unacked: [], deadlineBefore: null, rejectedInARow: 0 };
    });
    const kinds = ['midRoll', 'burst', 'between', 'burst', 'midRoll', 'burst'] as const;
    const tally = { acked: 0, rejected: 0, lost: 0, kills: 0 };
    let killedAt = 0;
    for (const kind of kinds) {
      server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
      await verify(server.url, tables, killedAt);
      const url = server.url;
      // steady play on both tables, with an undo-and-redo now and then
      const steps = 8 + Math.floor(rand() * 25);
      for (let i = 0; i < steps; i++) {
        const t = tables[i % 2];
        const command = nextCommand(t);
        const outcome = await send(url, t, command);
        tally[outcome]++;
        if (outcome === 'acked' && rand() < 0.08) {
          tally[await send(url, t, { type: 'undo' })]++;
          tally[await send(url, t, command)]++;
        }
      }
      if (kind === 'midRoll') {
        // play on until a roll is under way on t1 (dice on the table, not confirmed)
        const t = tables[0];
        for (let i = 0; i < 200 && !(lastAckedState(t)?.roll && t.plan[t.next - 1]?.type === 'dice'); i++) tally[await send(url, t, nextCommand(t))]++;
        expect(lastAckedState(t)?.roll, 'a roll is in progress when killed').toBeTruthy();
      }
      for (const t of tables) t.deadlineBefore = lastAckedState(t)?.deadline ?? null;
      if (kind === 'burst') {
        // several commands on both tables in flight at once, killed a few ms into them
        const inFlight: Promise<Outcome>[] = [];
        for (let i = 0; i < 12; i++) {
          const t = tables[i % 2];
          inFlight.push(send(url, t, nextCommand(t)));
        }
        await new Promise((r) => setTimeout(r, Math.floor(rand() * 12)));
        killedAt = Date.now();
        await server.kill('SIGKILL');
        for (const o of await Promise.all(inFlight)) tally[o]++;
        // acks that did arrive before the kill move the deadline the game had
        for (const t of tables) t.deadlineBefore = lastAckedState(t)?.deadline ?? null;
      } else {
        killedAt = Date.now();
        await server.kill('SIGKILL');
      }
      tally.kills++;
      server = null;
    }
    server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
    await verify(server.url, tables, killedAt);
    // the tables still take commands after all that
    for (const t of tables) expect(['acked', 'rejected']).toContain(await send(server.url, t, nextCommand(t)));
    await server.kill('SIGTERM');
    server = null;
    expect(tally.kills).toBe(kinds.length);
    expect(tally.acked).toBeGreaterThan(40);
    console.log(`crash-restart: ${JSON.stringify(tally)}`);
  }, 240_000);
});
