/**
 * Browsers come and go: a client that drops its connection and comes back gets the current state at
 * once; many watching clients all get every change, and a watcher that vanishes mid-push harms nobody.
 * (How fast pushes are with many watchers is measured by bench/load.bench.ts, not asserted here.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { FUZZ_PIN, fuzzApp, listenLoopback, midGame, type Fixture } from '../fuzz/app-fixture.ts';

let fixture: Fixture | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await fixture?.close();
  fixture = null;
});

function client(url: string, auth: Record<string, unknown>, reconnection = false): Socket {
  const s = connect(url, { auth, transports: ['websocket'], forceNew: true, reconnection, reconnectionDelay: 50, reconnectionDelayMax: 200 });
  sockets.push(s);
  return s;
}
function nextState(s: Socket, accept: (x: any) => boolean = () => true, timeoutMs = 15_000): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching state')), timeoutMs);
    const on = (x: any) => {
      if (!accept(x)) return;
      clearTimeout(timer);
      s.off('state', on);
      resolve(x);
    };
    s.on('state', on);
  });
}

describe('reconnecting browsers and many watchers', () => {
  it('a client whose connection drops gets the current state when it comes back', async () => {
    fixture = await fuzzApp();
    const url = await listenLoopback(fixture.built);
    const table = fixture.built.service.first();
    const s = client(url, { table: 'default' }, true);
    await nextState(s);
    const plan = midGame(40);
    for (const c of plan.slice(0, 10)) table.submit(c, 'player');
    const dropped = new Promise((r) => s.once('disconnect', r));
    s.io.engine.close(); // the network goes away under the client
    await dropped;
    for (const c of plan.slice(10, 25)) table.submit(c, 'player'); // play goes on meanwhile
    const first = await nextState(s); // the first state after reconnecting
    expect(first.seq).toBe(table.seq);
    expect(first.state.turn).toBe((table.state as { turn: number }).turn);
    // and a fresh page load with the PIN gets control back
    const again = client(url, { table: 'default', pin: FUZZ_PIN });
    const snap = await nextState(again);
    expect(snap.canControl).toBe(true);
    expect(snap.seq).toBe(table.seq);
  });

  it('120 watchers all receive every change, even while some of them disconnect mid-stream', async () => {
    fixture = await fuzzApp();
    const url = await listenLoopback(fixture.built);
    const table = fixture.built.service.first();
    const watchers = Array.from({ length: 120 }, () => client(url, { table: 'default' }));
    await Promise.all(watchers.map((w) => nextState(w)));
    const seen = watchers.map(() => [] as number[]);
    watchers.forEach((w, i) => w.on('state', (x: { seq: number }) => seen[i].push(x.seq)));
    const controller = client(url, { table: 'default', pin: FUZZ_PIN });
    await nextState(controller);
    const plan = midGame(60);
    const acked: number[] = [];
    for (const [i, c] of plan.entries()) {
      const ack = await controller.timeout(10_000).emitWithAck('command', c);
      if (ack.ok) acked.push(ack.seq);
      if (i === 20) for (const w of watchers.slice(100)) w.disconnect(); // 20 leave in the middle
    }
    const finalSeq = table.seq;
    expect(acked.length).toBeGreaterThan(30);
    await Promise.all(watchers.slice(0, 100).map((w, i) => (seen[i].at(-1) === finalSeq ? null : nextState(w, (x) => x.seq === finalSeq))));
    for (let i = 0; i < 100; i++) {
      // every acknowledged change reached every remaining watcher, in order
      expect([...new Set(seen[i])].filter((q) => acked.includes(q))).toEqual(acked); // a device refresh may repeat a seq
    }
  }, 60_000);
});
