/**
 * Socket payloads that once brought the whole service down (found by `npm run fuzz`): each is sent to
 * the real server in a child process, which must still answer afterwards.
 *
 * Once a defect (server/http/socket-hub.ts): `String(value)` on client-supplied values. `authorise()` did
 * `String(pin)` for a non-string PIN and `watch()` did `String(id)` for a non-string table id; a JSON
 * object such as {"toString": 1} (or an array holding one) made String() throw "Cannot convert object
 * to primitive value" inside a socket.io event handler: an uncaught exception that ended the process.
 * Anyone on the network could send it, no PIN needed. Now only strings are accepted (a PIN of another
 * type is a wrong PIN; a bad table id is described by its type), and a handler that throws is answered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { call, startServer, tempSetup, TEST_PIN, type ServerProcess } from '../reliability/server-process.ts';

const setup = tempSetup([{ id: 'default', name: 'Table 1' }]);
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill('SIGKILL');
  setup.cleanup();
});

async function liveServer(): Promise<ServerProcess> {
  if (server && server.child.exitCode === null && server.child.signalCode === null) return server;
  server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
  return server;
}

function open(url: string, auth: Record<string, unknown>): Promise<Socket> {
  const s = connect(url, { auth, transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/** true when the server still answers 300 ms after the payload */
async function survives(send: (url: string) => Promise<void>): Promise<boolean> {
  const s = await liveServer();
  await send(s.url).catch(() => {});
  await new Promise((r) => setTimeout(r, 300));
  try {
    return (await call(s.url, 'GET', '/api/health')).status === 200;
  } catch {
    return false;
  }
}

const emitOnce = (event: string, payload: unknown) => async (url: string) => {
  const s = await open(url, { table: 'default' });
  s.emit(event, payload, () => {});
  await new Promise((r) => setTimeout(r, 100));
  s.close();
};

describe('socket payloads that must not end the process', () => {
  it('a PIN of the wrong type in "auth" is a wrong PIN, never a crash (baseline: numbers and arrays of strings)', async () => {
    expect(await survives(emitOnce('auth', { pin: 1234 }))).toBe(true);
    expect(await survives(emitOnce('auth', { pin: ['1', '2'] }))).toBe(true);
    expect(await survives(emitOnce('auth', { pin: TEST_PIN }))).toBe(true);
  }, 60_000);

  it('"auth" with {pin: {toString: 1}} is a wrong PIN, never a crash', async () => {
    expect(await survives(emitOnce('auth', { pin: { toString: 1 } }))).toBe(true);
  }, 60_000);

  it('"auth" with {pin: [{toString: 1}]} is a wrong PIN, never a crash', async () => {
    expect(await survives(emitOnce('auth', { pin: [{ toString: 1 }] }))).toBe(true);
  }, 60_000);

  it('"watch" with {table: {toString: 1}} is an unknown table, never a crash', async () => {
    expect(await survives(emitOnce('watch', { table: { toString: 1 } }))).toBe(true);
  }, 60_000);

  it('a handshake with auth {pin: {toString: 1}} is a wrong PIN, never a crash', async () => {
    expect(await survives(async (url) => void (await open(url, { table: 'default', pin: { toString: 1 } }).then((s) => s.close())))).toBe(true);
  }, 60_000);

  it('such values are answered with a clear error ack, and the connection keeps working', async () => {
    const { url } = await liveServer();
    const s = await open(url, { table: 'default' });
    try {
      const badPin = await s.timeout(5000).emitWithAck('auth', { pin: { toString: 1 } });
      expect(badPin).toMatchObject({ ok: false, error: { code: 'badPin', message: expect.stringMatching(/string/) } });
      const badTable = await s.timeout(5000).emitWithAck('watch', { table: { toString: 1 } });
      expect(badTable).toMatchObject({ ok: false, error: { code: 'unknownTable', message: expect.stringMatching(/object/) } });
      expect(await s.timeout(5000).emitWithAck('watch', { table: 'default' })).toEqual({ ok: true });
      expect(await s.timeout(5000).emitWithAck('command', { type: { toString: 1 } })).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
    } finally {
      s.close();
    }
    const errors: unknown[] = [];
    const handshake = connect(url, { auth: { table: { toString: 1 } }, transports: ['websocket'], forceNew: true, reconnection: false });
    handshake.on('error', (e: unknown) => errors.push(e));
    await new Promise((r) => handshake.once('disconnect', r));
    expect(errors).toEqual([expect.objectContaining({ code: 'unknownTable' })]);
    expect((await call(url, 'GET', '/api/health')).status).toBe(200);
  }, 60_000);
});
