/**
 * Who may do what, and what the browser is told: PIN checks and their rate limit over HTTP and
 * socket.io, watch-only clients, where the PIN is shown, body limits, static files confined to the
 * dashboard folder, the browser safety headers, and where the service listens.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tcpConnect } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { DEFAULT_HOST, loadServiceConfig } from '../../server/config/service-config.ts';
import { PinLimiter } from '../../server/http/pin-limiter.ts';
import { FUZZ_PIN, fuzzApp, listenLoopback, midGame, tableFingerprint, type Fixture } from '../fuzz/app-fixture.ts';
import { startServer, tempSetup } from './server-process.ts';

const SECRET = 'TOP-SECRET-CONTENT-outside-web-root';

/** A GET with the path sent byte for byte (fetch and URL would normalise "..") */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function socketTo(url: string, auth: Record<string, unknown>, extraHeaders?: Record<string, string>): Promise<Socket> {
  const s = connect(url, { auth, transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

describe('static files stay inside the dashboard folder', () => {
  let root: string;
  let fixture: Fixture;
  let url: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'flightdeck-static-'));
    const web = join(root, 'web', 'dist');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>dash</title>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(web, '.env'), SECRET);
    writeFileSync(join(root, 'secret.txt'), SECRET);
    writeFileSync(join(root, 'web', 'secret.txt'), SECRET);
    symlinkSync(join(root, 'secret.txt'), join(web, 'linked.txt'));
    symlinkSync(root, join(web, 'linkdir'));
    fixture = await fuzzApp({ webRoot: web });
    url = await listenLoopback(fixture.built);
  });
  afterAll(async () => {
    await fixture.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the dashboard', async () => {
    expect((await rawGet(url, '/')).body).toContain('<title>dash</title>');
    expect((await rawGet(url, '/assets/app.js')).status).toBe(200);
  });

  const attempts = [
    '/../secret.txt',
    '/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/..%2f..%2fsecret.txt',
    '/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/assets/../../secret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/....//....//secret.txt',
    '/%252e%252e/secret.txt',
    '/.%2e/.%2e/secret.txt',
    '//etc/passwd',
    '/%2fetc%2fpasswd',
    '/..%00/secret.txt',
    '/.env',
    '/%2eenv',
    `/${encodeURIComponent(join(tmpdir(), 'x'))}`,
  ];
  for (const path of attempts) {
    it(`refuses ${path}`, async () => {
      const r = await rawGet(url, path);
      expect(r.body).not.toContain(SECRET);
      expect(r.body).not.toContain('root:x:0:0');
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    });
  }

  // Once a defect: symbolic links inside web/dist were followed, so a link (left by a build step or a careless
  // copy) served any file the service can read. Now the real path of every served file must lie in the root.
  it('a symbolic link inside web/dist does not serve a file outside it (404)', async () => {
    const r = await rawGet(url, '/linked.txt');
    expect(r.body).not.toContain(SECRET);
    expect(r.status).toBe(404);
  });
  it('a symbolic link to a folder outside web/dist does not serve its files (404)', async () => {
    const r = await rawGet(url, '/linkdir/secret.txt');
    expect(r.body).not.toContain(SECRET);
    expect(r.status).toBe(404);
    expect((await rawGet(url, '/linkdir/')).status).toBe(404);
  });
});

describe('controls need the table PIN; wrong PINs are rate-limited; watching is read-only', () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.close());

  it('every controlling route answers 401 without a PIN and 403 with a wrong one, and changes nothing', async () => {
    fixture = await fuzzApp();
    const { app } = fixture.built;
    for (const c of midGame(20)) fixture.built.service.first().submit(c, 'player');
    const before = tableFingerprint(fixture.built);
    const controls: [string, string, unknown][] = [
      ['POST', '/api/tables/default/commands', { type: 'undo' }],
      ['POST', '/api/tables/default/commands', { type: 'resetTable' }],
      ['POST', '/api/tables/default/auth', undefined],
      ['PUT', '/api/tables/default/settings', { ruleOverrides: { 'fuel.max': 1 } }],
      ['POST', '/api/tables/default/simulator/throw', { faces: [6, 6, 6] }],
      ['POST', '/api/tables/default/box/press', { button: 'confirm' }],
      ['POST', '/api/tables/default/still-here', undefined],
      ['GET', '/api/tables/default/dice-samples', undefined],
      ['POST', '/api/tables/default/dice-samples/hold', undefined],
      ['POST', '/api/tables/default/dice-samples', { hold: '1', dice: [] }],
      ['DELETE', '/api/tables/default/dice-samples/1', undefined],
      ['POST', '/api/tables/default/dice-samples/evaluate', undefined],
      ['GET', '/api/tables/default/dice-samples/archive', undefined],
      ['GET', '/api/tables/default/dice-model', undefined],
      ['POST', '/api/tables/default/dice-model/teach', undefined],
      ['DELETE', '/api/tables/default/dice-model/teach', undefined],
      ['PUT', '/api/tables/default/dice-model', { use: 'base' }],
    ];
    for (const [method, url, payload] of controls) {
      const none = await app.inject({ method: method as 'POST', url, payload: payload as object });
      expect(none.statusCode, `${method} ${url}`).toBe(401);
      expect(none.json().error.code).toBe('pinRequired');
      const wrong = await app.inject({ method: method as 'POST', url, payload: payload as object, headers: { authorization: 'Bearer 0000' }, remoteAddress: `10.0.0.${controls.findIndex((c) => c[1] === url) + 10}` });
      expect(wrong.statusCode, `${method} ${url}`).toBe(403);
      expect(wrong.json().error.code).toBe('badPin');
    }
    expect(tableFingerprint(fixture.built)).toBe(before);
    expect((await app.inject({ url: '/api/tables/default/settings' })).json().settings.ruleOverrides).toEqual({});
  });

  it('after 5 wrong PINs a client is refused (429, Retry-After) even with the right PIN; other clients are not', async () => {
    fixture = await fuzzApp({ pinLimits: { maxFailures: 5, windowMs: 60_000, blockMs: 60_000 } });
    const { app } = fixture.built;
    const attempt = (pin: string, ip: string) => app.inject({ method: 'POST', url: '/api/tables/default/auth', headers: { authorization: `Bearer ${pin}` }, remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await attempt(String(1000 + i), '192.168.1.66')).statusCode).toBe(403);
    const blocked = await attempt(FUZZ_PIN, '192.168.1.66');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('tooManyAttempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(FUZZ_PIN, '192.168.1.67')).statusCode).toBe(200);
  });

  it('wrong PINs over socket.io count against the same limit, and a watcher cannot control', async () => {
    fixture = await fuzzApp({ pinLimits: { maxFailures: 3, windowMs: 60_000, blockMs: 60_000 } });
    const url = await listenLoopback(fixture.built);
    const watcher = await socketTo(url, { table: 'default' });
    try {
      const ack = await watcher.timeout(5000).emitWithAck('command', { type: 'newGame', players: 2 });
      expect(ack).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
      expect(await watcher.timeout(5000).emitWithAck('throw', {})).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
      expect(await watcher.timeout(5000).emitWithAck('press', { button: 'confirm' })).toMatchObject({ ok: false, error: { code: 'pinRequired' } });
      for (let i = 0; i < 3; i++) expect(await watcher.timeout(5000).emitWithAck('auth', { pin: '0000' })).toMatchObject({ ok: false, error: { code: 'badPin' } });
      expect(await watcher.timeout(5000).emitWithAck('auth', { pin: FUZZ_PIN })).toMatchObject({ ok: false, error: { code: 'tooManyAttempts' } });
      expect((await fixture.built.app.inject({ method: 'POST', url: '/api/tables/default/auth', headers: { authorization: `Bearer ${FUZZ_PIN}` }, remoteAddress: '127.0.0.1' })).statusCode).toBe(429);
      expect(fixture.built.service.first().seq).toBe(0);
    } finally {
      watcher.close();
    }
  });

  it('the PIN is never in a snapshot for a client on the network that did not give it', async () => {
    fixture = await fuzzApp();
    const { app } = fixture.built;
    const remote = (await app.inject({ url: '/api/tables/default/state', remoteAddress: '192.168.1.50' })).json();
    expect(remote.pin).toBeUndefined();
    expect(remote.canControl).toBe(false);
    expect(JSON.stringify(remote)).not.toContain(FUZZ_PIN);
    const local = (await app.inject({ url: '/api/tables/default/state', remoteAddress: '127.0.0.1' })).json();
    expect(local.pin).toBe(FUZZ_PIN); // the table-side screen shows it (showPinOnLocalDisplay)
    const health = await app.inject({ url: '/api/health', remoteAddress: '192.168.1.50' });
    expect(health.body).not.toContain(FUZZ_PIN);
  });

  it('bodies over 64 KiB are refused with an error, and so are socket messages over 64 KiB', async () => {
    fixture = await fuzzApp();
    const big = JSON.stringify({ type: 'dice', faces: new Array(40_000).fill(1) });
    const r = await fixture.built.app.inject({ method: 'POST', url: '/api/tables/default/commands', headers: { authorization: `Bearer ${FUZZ_PIN}`, 'content-type': 'application/json' }, payload: big });
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toMatchObject({ code: 'bodyTooLarge', message: expect.any(String) });
    const url = await listenLoopback(fixture.built);
    const s = await socketTo(url, { table: 'default', pin: FUZZ_PIN });
    const closed = new Promise<string>((resolve) => s.once('disconnect', (reason) => resolve(reason)));
    s.emit('command', { type: 'dice', faces: new Array(40_000).fill(1) });
    expect(await closed).toBe('transport close');
    expect(fixture.built.service.first().seq).toBe(0);
  });
});

describe('the wrong-PIN limiter under many addresses', () => {
  it('blocks each address on its own, and a block expires', () => {
    let now = 1_000_000;
    const limiter = new PinLimiter({ maxFailures: 3, windowMs: 60_000, blockMs: 30_000, now: () => now });
    for (let i = 0; i < 3; i++) limiter.recordFailure('a');
    expect(limiter.retryAfter('a')).toBe(30_000);
    expect(limiter.retryAfter('b')).toBe(0);
    now += 30_001;
    expect(limiter.retryAfter('a')).toBe(0);
  });

  // Once a defect: blocked addresses were only forgotten when the same address asked again, so an attacker
  // with many addresses (an IPv6 /64 holds 2^64) grew `blockedUntil` without bound. The test reads the map
  // because nothing else shows its size.
  it('expired blocks of addresses that never come back are forgotten (memory stays bounded)', () => {
    let now = 1_000_000;
    const limiter = new PinLimiter({ maxFailures: 1, windowMs: 60_000, blockMs: 1_000, now: () => now });
    for (let i = 0; i < 50_000; i++) {
      limiter.recordFailure(`2001:db8::${i.toString(16)}`);
      now += 10; // each block has long expired when the last address is blocked
    }
    expect((limiter as unknown as { blockedUntil: Map<string, number> }).blockedUntil.size).toBeLessThan(20_000);
  });

  it('live blocks past the cap: the oldest are forgotten first, the newest stay blocked', () => {
    let now = 1_000_000;
    const limiter = new PinLimiter({ maxFailures: 1, windowMs: 60_000, blockMs: 3_600_000, maxEntries: 1_000, now: () => now });
    for (let i = 0; i < 5_000; i++) {
      limiter.recordFailure(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
      now += 1;
    }
    expect(limiter.blockedUntil.size).toBeLessThanOrEqual(1_000);
    expect(limiter.retryAfter('10.0.0.0')).toBe(0);
    expect(limiter.retryAfter(`10.0.${(4_999 >> 8) & 255}.${4_999 & 255}`)).toBeGreaterThan(0);
  });

  it('counts of wrong PINs from many addresses stay bounded, and a count inside its window is kept', () => {
    let now = 1_000_000;
    const limiter = new PinLimiter({ maxFailures: 3, windowMs: 1_000, blockMs: 60_000, now: () => now });
    limiter.recordFailure('keep');
    for (let i = 0; i < 50_000; i++) {
      limiter.recordFailure(`2001:db8::${i.toString(16)}`);
      if (i === 49_990) limiter.recordFailure('keep');
      now += 10;
    }
    limiter.recordFailure('keep');
    expect((limiter as unknown as { failures: { entries: Map<string, number[]> } }).failures.entries.size).toBeLessThan(20_000);
    expect(limiter.retryAfter('keep')).toBe(0); // the first failure has left the window: two of three
    limiter.recordFailure('keep');
    expect(limiter.retryAfter('keep')).toBeGreaterThan(0);
  });
});

describe('browser safety headers', () => {
  let fixture: Fixture;
  let headers: Record<string, unknown>;
  beforeAll(async () => {
    fixture = await fuzzApp();
    headers = (await fixture.built.app.inject({ url: '/' })).headers;
  });
  afterAll(async () => fixture.close());

  it('answers JSON errors as JSON (no HTML reflection of the URL)', async () => {
    const r = await fixture.built.app.inject({ url: '/api/<script>alert(1)</script>' });
    expect(r.headers['content-type']).toContain('application/json');
  });
  // Once a defect: no browser safety headers at all. An onSend hook now sets them on every answer.
  it('Content-Security-Policy is set', () => expect(headers['content-security-policy']).toBeTruthy());
  it('X-Content-Type-Options: nosniff is set', () => expect(headers['x-content-type-options']).toBe('nosniff'));
  it('framing is refused (X-Frame-Options or CSP frame-ancestors)', () =>
    expect(headers['x-frame-options'] ?? String(headers['content-security-policy'] ?? '').match(/frame-ancestors[^;]*/)?.[0]).toBeTruthy());
  it('Referrer-Policy is set', () => expect(headers['referrer-policy']).toBeTruthy());
  it('the policy keeps scripts, styles and connections to the page\'s own host; a forged Host cannot widen it', async () => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/style-src 'self'(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    const own = await fixture.built.app.inject({ url: '/api/health', headers: { host: 'table.local:3000' } });
    expect(own.headers['content-security-policy']).toMatch(/connect-src 'self' ws:\/\/table\.local:3000 wss:\/\/table\.local:3000;/);
    for (const host of ["x; script-src 'unsafe-inline' *", 'evil.example/ *', '*']) {
      const r = await fixture.built.app.inject({ url: '/api/health', headers: { host } });
      expect(String(r.headers['content-security-policy']), host).toMatch(/connect-src 'self';/);
      expect(String(r.headers['content-security-policy']), host).not.toContain('unsafe-inline');
    }
    const missing = await fixture.built.app.inject({ url: '/nothing/here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('cross-site WebSocket', () => {
  // Once a defect: the socket.io server accepted a WebSocket from any Origin. A web page from another site
  // opened on the table-side machine (a loopback client) was given the table's PIN in its snapshot
  // (showPinOnLocalDisplay) and could then control the table. socket.io's `allowRequest` now refuses a
  // handshake whose Origin header is present and is not the service's own host.
  it('a handshake from a foreign Origin is refused', async () => {
    const fixture = await fuzzApp();
    try {
      const url = await listenLoopback(fixture.built);
      const s = connect(url, { auth: { table: 'default' }, transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: { origin: 'http://evil.example' } });
      const got = await new Promise<{ pin?: string } | null>((resolve) => {
        s.once('state', resolve);
        s.once('connect_error', () => resolve(null));
        setTimeout(() => resolve(null), 3000);
      });
      s.close();
      expect(got?.pin).toBeUndefined();
      expect(got).toBeNull();
    } finally {
      await fixture.close();
    }
  });

  it('a page from the service\'s own host, a configured origin, and a client without Origin (Node, the box bridge) may connect', async () => {
    const fixture = await fuzzApp({ allowedOrigins: ['https://table.example'] });
    try {
      const url = await listenLoopback(fixture.built);
      for (const origin of [url, 'https://table.example', undefined]) {
        const s = await socketTo(url, { table: 'default' }, origin === undefined ? undefined : { origin });
        s.close();
      }
      await expect(socketTo(url, { table: 'default' }, { origin: 'https://table.example.evil' })).rejects.toThrow();
      await expect(socketTo(url, { table: 'default' }, { origin: 'null' })).rejects.toThrow();
    } finally {
      await fixture.close();
    }
  });
});

describe('where the service listens', () => {
  it('defaults to every interface (phones must reach it) and HOST narrows it', () => {
    expect(DEFAULT_HOST).toBe('0.0.0.0');
    expect(loadServiceConfig({ FLIGHTDECK_DATA: tmpdir() }).host).toBe('0.0.0.0');
    expect(loadServiceConfig({ FLIGHTDECK_DATA: tmpdir(), HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(() => loadServiceConfig({ FLIGHTDECK_DATA: tmpdir(), TABLE_PIN: '12' })).toThrow(/TABLE_PIN/);
  });

  it('with HOST=127.0.0.1 the real server cannot be reached on the machine\'s network address', async () => {
    const lan = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    const setup = tempSetup([{ id: 'default' }]);
    const server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
    try {
      const port = Number(new URL(server.url).port);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      if (!lan) return console.warn('no non-loopback IPv4 address on this machine: the LAN half of this check is skipped');
      const reached = await new Promise<boolean>((resolve) => {
        const sock = tcpConnect({ host: lan, port }, () => (sock.destroy(), resolve(true)));
        sock.on('error', () => resolve(false));
      });
      expect(reached).toBe(false);
    } finally {
      await server.kill('SIGTERM');
      setup.cleanup();
    }
  }, 60_000);
});
