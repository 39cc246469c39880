import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { auth, tempDir, testApp } from './helpers.ts';

const games = { tally: tallyAdapter };
let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;
let webParent: string;
let webRoot: string;

beforeAll(() => {
  // a dashboard build folder with a secret file right beside it (outside the served root)
  webParent = mkdtempSync(join(tmpdir(), 'flightdeck-web-'));
  webRoot = join(webParent, 'dist');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>dash</title>');
  writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(webParent, 'secret.json'), '{"secret":true}');
});
afterAll(() => rmSync(webParent, { recursive: true, force: true }));
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await built?.app.close();
  built = null;
  dir.cleanup();
});

async function start(): Promise<BuiltApp> {
  built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games, tables: [{ id: 'one', name: 'One', game: 'tally' }, { id: 'two', name: 'Two', game: 'tally' }], webRoot });
  return built;
}

const post = (b: BuiltApp, url: string, payload: unknown, headers: Record<string, string> = auth()) =>
  b.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('routes validate every input', () => {
  it('commands: bad bodies, unknown commands, wrong types, extra fields', async () => {
    const b = await start();
    const url = '/api/tables/one/commands';
    const cases: [unknown, string][] = [
      [{}, 'badRequest'],
      [{ type: 5 }, 'badRequest'],
      [[{ type: 'newGame' }], 'badRequest'],
      [{ type: 'fly' }, 'unknownCommand'],
      [{ type: 'add' }, 'badCommand'],
      [{ type: 'add', n: '3' }, 'badCommand'],
      [{ type: 'add', n: 3.5 }, 'badCommand'],
      [{ type: 'add', n: 3, extra: true }, 'badCommand'],
      [{ type: 'newGame', minutes: 'ten' }, 'badCommand'],
    ];
    for (const [payload, code] of cases) {
      const r = await post(b, url, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error.code, JSON.stringify(payload)).toBe(code);
      expect(r.json().error.message).toBeTypeOf('string');
    }
    const notJson = await b.app.inject({ method: 'POST', url, payload: '{"type":', headers: { ...auth(), 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toMatchObject({ code: 'badRequest', message: expect.stringMatching(/JSON/) });
    // the codes the API documents, not fastify's own (FST_ERR_…)
    const text = await b.app.inject({ method: 'POST', url, payload: 'newGame', headers: { ...auth(), 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('unsupportedMediaType');
    expect((await b.app.inject({ url: '/api/tables/one/state' })).json().seq).toBe(0);
  });

  it('params and querystrings', async () => {
    const b = await start();
    expect((await b.app.inject({ url: '/api/tables/nope/state' })).statusCode).toBe(404);
    expect((await b.app.inject({ url: '/api/tables/nope/state' })).json().error.code).toBe('unknownTable');
    expect((await b.app.inject({ url: '/api/tables/BAD%20ID/state' })).statusCode).toBe(400);
    expect((await b.app.inject({ url: '/api/tables/one/state?x=1' })).statusCode).toBe(400);
    expect((await b.app.inject({ url: '/api/tables/one/stats?day=2024-13-01' })).statusCode).toBe(400);
    expect((await b.app.inject({ url: '/api/tables/one/stats?day=yesterday' })).statusCode).toBe(400);
    expect((await b.app.inject({ url: '/api/tables/one/stats?day=2024-05-01' })).statusCode).toBe(200);
    expect((await post(b, '/api/tables/nope/commands', { type: 'newGame' })).statusCode).toBe(404);
  });

  it('settings, simulator and box routes check their bodies and the PIN', async () => {
    const b = await start();
    const put = (payload: unknown, headers: Record<string, string> = auth()) => b.app.inject({ method: 'PUT', url: '/api/tables/one/settings', payload: payload as object, headers });
    expect((await put({ ruleOverrides: {} }, {})).statusCode).toBe(401);
    expect((await put({ ruleOverrides: 5 })).statusCode).toBe(400);
    expect((await put({ ruleOverrides: {}, other: 1 })).statusCode).toBe(400);
    expect((await put({ ruleOverrides: { 'time.minutes': 20 } })).json()).toEqual({ settings: { ruleOverrides: { 'time.minutes': 20 } } });
    expect((await b.app.inject({ url: '/api/tables/one/settings' })).json().settings).toEqual({ ruleOverrides: { 'time.minutes': 20 } });
    expect((await post(b, '/api/tables/one/simulator/throw', { dice: 0 })).statusCode).toBe(400);
    expect((await post(b, '/api/tables/one/simulator/throw', { faces: [7] })).statusCode).toBe(400);
    expect((await post(b, '/api/tables/one/simulator/throw', { dice: 2, leaning: 4 })).statusCode).toBe(400);
    expect((await post(b, '/api/tables/one/simulator/throw', { dice: 3 }, {})).statusCode).toBe(401);
    expect((await post(b, '/api/tables/one/box/press', { button: 'eject' })).statusCode).toBe(400);
    expect((await post(b, '/api/tables/one/box/press', { button: 'confirm', press: 'double' })).statusCode).toBe(400);
    // these tables have no simulated hardware
    expect((await post(b, '/api/tables/one/simulator/throw', { dice: 3 })).statusCode).toBe(409);
    expect((await post(b, '/api/tables/one/box/press', { button: 'confirm' })).statusCode).toBe(409);
  });

  it('settings rule overrides go into the next newGame', async () => {
    const b = await start();
    await b.app.inject({ method: 'PUT', url: '/api/tables/one/settings', payload: { ruleOverrides: { 'time.minutes': 20 } }, headers: auth() });
    expect((await post(b, '/api/tables/one/commands', { type: 'newGame' })).statusCode).toBe(200);
    const row = b.service.journal.load('one').at(-1)!;
    expect(row.command).toMatchObject({ type: 'newGame', ruleOverrides: { 'time.minutes': 20 } });
    expect(row.command.seed).toBeTypeOf('number');
  });
});

describe('several tables', () => {
  it('keeps tables apart; default means the first table', async () => {
    const b = await start();
    expect((await b.app.inject({ url: '/api/tables' })).json()).toEqual([
      { id: 'one', name: 'One', game: 'tally', kiosk: false },
      { id: 'two', name: 'Two', game: 'tally', kiosk: false },
    ]);
    await post(b, '/api/tables/one/commands', { type: 'newGame' });
    await post(b, '/api/tables/one/commands', { type: 'add', n: 2 });
    await post(b, '/api/tables/two/commands', { type: 'newGame' });
    expect((await b.app.inject({ url: '/api/tables/one/state' })).json()).toMatchObject({ tableId: 'one', seq: 2, state: { tally: 2 } });
    expect((await b.app.inject({ url: '/api/tables/two/state' })).json()).toMatchObject({ tableId: 'two', seq: 1, state: { tally: 0 } });
    expect((await b.app.inject({ url: '/api/tables/default/state' })).json().tableId).toBe('one');
  });
});

describe('health and command list', () => {
  it('/api/health reports ok, vision and each table\'s devices', async () => {
    const b = await start();
    const h = (await b.app.inject({ url: '/api/health' })).json();
    expect(h.ok).toBe(true);
    expect(h.vision).toHaveProperty('backend');
    expect(h.tables.map((t: { id: string }) => t.id)).toEqual(['one', 'two']);
    for (const t of h.tables) {
      expect(t.camera).toMatchObject({ kind: expect.any(String), state: expect.any(String) });
      expect(t.serial).toMatchObject({ kind: expect.any(String), state: expect.any(String) });
    }
  });

  it('/api/commands lists every command with its schema', async () => {
    const b = await start();
    const c = (await b.app.inject({ url: '/api/commands' })).json();
    expect(Object.keys(c.commands).sort()).toEqual(['add', 'crash', 'dice', 'newGame', 'resetTable', 'roll', 'timeUp', 'undo', 'win']);
    expect(c.commands.add).toMatchObject({ type: 'object', required: ['type', 'n'] });
  });
});

describe('short addresses for phones', () => {
  it('/phone and /phone/:seat redirect to the phone view, keeping the table, language and PIN', async () => {
    const b = await start();
    const cases: [string, Record<string, string>][] = [
      ['/phone', { view: 'phone' }],
      ['/phone/', { view: 'phone' }],
      ['/phone/2', { view: 'phone', seat: '2' }],
      ['/phone/4?table=two', { view: 'phone', seat: '4', table: 'two' }],
      ['/phone?table=one&lang=es&pin=1234', { view: 'phone', table: 'one', lang: 'es', pin: '1234' }],
    ];
    for (const [url, expected] of cases) {
      const r = await b.app.inject({ url });
      expect(r.statusCode, url).toBe(302);
      const location = new URL(String(r.headers.location), 'http://table.local');
      expect(location.origin + location.pathname, url).toBe('http://table.local/');
      expect(Object.fromEntries(location.searchParams), url).toEqual(expected);
      expect(r.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('a seat outside 1-4 or an unknown query parameter is refused with an error, never redirected', async () => {
    const b = await start();
    for (const url of ['/phone/0', '/phone/5', '/phone/12', '/phone/x', '/phone?table=..%2Fetc', '/phone?evil=1', '/phone/2?table=%2F%2Fevil.example']) {
      const r = await b.app.inject({ url });
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, url).toBeLessThan(500);
      expect(r.headers.location, url).toBeUndefined();
      expect(r.json().error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });
});

describe('static dashboard', () => {
  it('serves web/dist and nothing outside it', async () => {
    const b = await start();
    const index = await b.app.inject({ url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('dash');
    expect((await b.app.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    const attempts = [
      '/../secret.json',
      '/..%2fsecret.json',
      '/%2e%2e/secret.json',
      '/%2e%2e%2fsecret.json',
      '/assets/..%2f..%2fsecret.json',
      '/assets/%2e%2e/%2e%2e/secret.json',
      '/..%5csecret.json',
      '/%252e%252e/secret.json',
      '/..%00/secret.json',
      '//../secret.json',
      '/../package.json',
      '/%2e%2e/%2e%2e/package.json',
    ];
    for (const url of attempts) {
      const r = await b.app.inject({ url });
      expect(r.body, url).not.toContain('"secret":true');
      expect(r.body, url).not.toContain('"private": true');
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
    }
  });
});
