import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import type { BuiltApp } from '../../server/http/app.ts';
import type { TableSnapshot } from '../../server/http/protocol.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { PIN, auth, emitAck, listen, nextEvent, socketClient, tempDir, testApp, type TestAppOptions } from './helpers.ts';

const games = { tally: tallyAdapter };
let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;
const sockets: Socket[] = [];

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await built?.app.close();
  built = null;
  dir.cleanup();
});

async function start(extra: Partial<TestAppOptions> = {}): Promise<BuiltApp> {
  built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games, tables: [{ game: 'tally' }], ...extra });
  return built;
}

function client(url: string, authData: Record<string, unknown>): Socket {
  const s = socketClient(url, authData);
  sockets.push(s);
  return s;
}

const command = (b: BuiltApp, payload: unknown, headers: Record<string, string>) =>
  b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: payload as object, headers });

describe('PIN over HTTP', () => {
  it('needs the PIN to control: missing 401, wrong 403, right 200', async () => {
    const b = await start();
    const missing = await command(b, { type: 'newGame' }, {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.code).toBe('pinRequired');
    const wrong = await command(b, { type: 'newGame' }, auth('9999'));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('badPin');
    const notBearer = await command(b, { type: 'newGame' }, { authorization: `Basic ${PIN}` });
    expect(notBearer.statusCode).toBe(403);
    expect((await b.app.inject({ url: '/api/tables/default/state' })).json().seq).toBe(0);
    const right = await command(b, { type: 'newGame' }, auth());
    expect(right.statusCode).toBe(200);
    expect(right.json().seq).toBe(1);
  });

  it('rate-limits wrong PINs per client, refusing even the right PIN while blocked', async () => {
    const b = await start({ pinLimits: { maxFailures: 3, windowMs: 60_000, blockMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await command(b, { type: 'newGame' }, auth(`00${i}0`))).statusCode).toBe(403);
    const blocked = await command(b, { type: 'newGame' }, auth());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('tooManyAttempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const other = await b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: { type: 'newGame' }, headers: auth(), remoteAddress: '10.0.0.9' });
    expect(other.statusCode).toBe(200);
  });

  it('watching needs no PIN and shows neither control nor the PIN to remote clients', async () => {
    const b = await start();
    const remote = await b.app.inject({ url: '/api/tables/default/state', remoteAddress: '192.168.1.20' });
    expect(remote.statusCode).toBe(200);
    expect(remote.json().canControl).toBe(false);
    expect(remote.json().pin).toBeUndefined();
    const authorised = await b.app.inject({ url: '/api/tables/default/state', remoteAddress: '192.168.1.20', headers: auth() });
    expect(authorised.json()).toMatchObject({ canControl: true, pin: PIN });
    const local = await b.app.inject({ url: '/api/tables/default/state', remoteAddress: '127.0.0.1' });
    expect(local.json()).toMatchObject({ canControl: false, pin: PIN });
  });

  it('shows the PIN to a configured table-side screen on the network', async () => {
    const b = await start({ tables: [{ game: 'tally', tableDisplays: ['192.168.1.50'] }] });
    expect((await b.app.inject({ url: '/api/tables/default/state', remoteAddress: '192.168.1.50' })).json().pin).toBe(PIN);
    expect((await b.app.inject({ url: '/api/tables/default/state', remoteAddress: '192.168.1.51' })).json().pin).toBeUndefined();
  });

  it('keeps the PIN off local displays when the table config says so', async () => {
    const b = await start({ tables: [{ game: 'tally', showPinOnLocalDisplay: false }] });
    const local = await b.app.inject({ url: '/api/tables/default/state', remoteAddress: '127.0.0.1' });
    expect(local.json().pin).toBeUndefined();
  });

  it('generates a 4-6 digit PIN per table when TABLE_PIN is not set, and keeps it across restarts', async () => {
    const tables = [{ id: 'a', game: 'tally' }, { id: 'b', game: 'tally' }];
    let b = await start({ pin: null, tables });
    const pinA = b.service.get('a')!.pin;
    const pinB = b.service.get('b')!.pin;
    expect(pinA).toMatch(/^[0-9]{4,6}$/);
    expect(pinB).toMatch(/^[0-9]{4,6}$/);
    await b.app.close();
    b = await start({ pin: null, tables });
    expect(b.service.get('a')!.pin).toBe(pinA);
    expect(b.service.get('b')!.pin).toBe(pinB);
  });
});

describe('PIN over socket.io', () => {
  it('a watcher gets state pushes but its commands are refused; a PIN holder controls', async () => {
    const b = await start();
    const url = await listen(b);
    const watcher = client(url, {});
    const first = await nextEvent<TableSnapshot>(watcher, 'state');
    expect(first.canControl).toBe(false);
    const refused = await emitAck<{ ok: boolean; error?: { code: string } }>(watcher, 'command', { type: 'newGame' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
    expect(await emitAck(watcher, 'throw', { dice: 3 })).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
    expect(await emitAck(watcher, 'press', { button: 'confirm' })).toMatchObject({ ok: false, error: { code: 'pinRequired' } });

    const player = client(url, { pin: PIN });
    expect((await nextEvent<TableSnapshot>(player, 'state')).canControl).toBe(true);
    const pushed = nextEvent<TableSnapshot>(watcher, 'state', (s) => s.seq === 1);
    const ack = await emitAck<{ ok: boolean; seq: number }>(player, 'command', { type: 'newGame' });
    expect(ack).toMatchObject({ ok: true, seq: 1 });
    const seen = await pushed;
    expect(seen.canControl).toBe(false);
    expect((seen.state as { started: number }).started).toBeTypeOf('number');
  });

  it('a wrong handshake PIN leaves the client watching with an error; auth later with the right one', async () => {
    const b = await start();
    const url = await listen(b);
    const s = client(url, { pin: '0000' });
    const error = nextEvent<{ code: string }>(s, 'error');
    expect((await nextEvent<TableSnapshot>(s, 'state')).canControl).toBe(false);
    expect((await error).code).toBe('badPin');
    expect(await emitAck(s, 'auth', { pin: PIN })).toEqual({ ok: true });
    expect(await emitAck(s, 'command', { type: 'newGame' })).toMatchObject({ ok: true, seq: 1 });
  });

  it('rate-limits wrong PINs on the socket too', async () => {
    const b = await start({ pinLimits: { maxFailures: 2, windowMs: 60_000, blockMs: 60_000 } });
    const url = await listen(b);
    const s = client(url, {});
    await nextEvent(s, 'state');
    expect(await emitAck(s, 'auth', { pin: '1111' })).toMatchObject({ ok: false, error: { code: 'badPin' } });
    expect(await emitAck(s, 'auth', { pin: '2222' })).toMatchObject({ ok: false, error: { code: 'badPin' } });
    expect(await emitAck(s, 'auth', { pin: PIN })).toMatchObject({ ok: false, error: { code: 'tooManyAttempts' } });
    expect(await emitAck(s, 'command', { type: 'newGame' })).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
    // the same address over HTTP is blocked as well
    expect((await command(b, { type: 'newGame' }, auth())).statusCode).toBe(429);
  });

  it('validates socket commands like HTTP ones', async () => {
    const b = await start();
    const url = await listen(b);
    const s = client(url, { pin: PIN });
    await nextEvent(s, 'state');
    expect(await emitAck(s, 'command', { type: 'fly' })).toMatchObject({ ok: false, error: { code: 'unknownCommand' } });
    expect(await emitAck(s, 'command', { type: 'add', n: '3' })).toMatchObject({ ok: false, error: { code: 'badCommand' } });
    expect(await emitAck(s, 'command', 'newGame')).toMatchObject({ ok: false, error: { code: 'badCommand' } });
    expect(await emitAck(s, 'command', { type: 'add', n: 3 })).toMatchObject({ ok: false, error: { code: 'noGame' } });
  });

  it('pushes vision updates to the table\'s room and switches tables with "watch"', async () => {
    const b = await start({ tables: [{ id: 'one', game: 'tally' }, { id: 'two', game: 'tally' }] });
    const url = await listen(b);
    const s = client(url, { table: 'one' });
    expect((await nextEvent<TableSnapshot>(s, 'state')).tableId).toBe('one');
    const update = { tableId: 'one', at: 1, width: 640, height: 480, settled: true, dice: [{ x: 10, y: 10, w: 20, h: 20, face: 5, score: 0.9 }], frameUrl: '/api/tables/one/frame.jpg' };
    const seen = nextEvent(s, 'vision');
    b.service.get('one')!.publishVision(update);
    expect(await seen).toEqual(update);
    const switched = nextEvent<TableSnapshot>(s, 'state');
    expect(await emitAck(s, 'watch', { table: 'two' })).toEqual({ ok: true });
    expect((await switched).tableId).toBe('two');
    expect(await emitAck(s, 'watch', { table: 'nope' })).toMatchObject({ ok: false, error: { code: 'unknownTable' } });
    const unknown = client(url, { table: 'nope' });
    expect((await nextEvent<{ code: string }>(unknown, 'error')).code).toBe('unknownTable');
    expect((await b.app.inject({ url: '/api/tables/one/frame.jpg' })).statusCode).toBe(404);
  });
});
