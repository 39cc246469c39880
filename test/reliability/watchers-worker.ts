/**
 * Watching socket.io clients in a worker thread of the load driver (test/reliability/load-driver.ts), so
 * that decoding their state pushes does not queue behind the controllers' commands on one event loop.
 * Gets {url, tables, count}; answers 'ready' once all are connected, and its figures on 'stop'.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { io as connect, type Socket } from 'socket.io-client';

const { url, tables, count } = workerData as { url: string; tables: string[]; count: number };
const CAP = 200_000;
const latencies: number[] = [];
let pushes = 0;
let lost = 0;
let snapshotBytes = 0;
const sockets: Socket[] = [];

function record(ms: number): void {
  pushes++;
  if (latencies.length < CAP) latencies.push(ms);
  else {
    const j = Math.floor(Math.random() * pushes);
    if (j < CAP) latencies[j] = ms;
  }
}

for (let i = 0; i < count; i++) {
  const s = connect(url, { auth: { table: tables[i % tables.length] }, transports: ['websocket'], forceNew: true, reconnection: false });
  let last: number | null = null;
  s.on('state', (snap: { seq: number; serverTime: number }) => {
    const now = Date.now();
    if (snapshotBytes === 0 && snap.seq > 0) snapshotBytes = JSON.stringify(snap).length;
    if (last !== null) {
      record(now - snap.serverTime);
      if (snap.seq > last + 1) lost += snap.seq - last - 1;
    }
    last = snap.seq;
  });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  sockets.push(s);
}
parentPort!.postMessage({ ready: true });
parentPort!.on('message', (m: { stop?: boolean }) => {
  if (!m.stop) return;
  for (const s of sockets) s.close();
  parentPort!.postMessage({ pushes, lost, snapshotBytes, latencies });
});
