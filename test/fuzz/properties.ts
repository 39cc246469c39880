/**
 * The fuzzed properties, shared by the in-suite tests (few runs, fixed seeds) and `npm run fuzz`
 * (test/fuzz/long-fuzz.ts: the same properties, many more runs). Each target builds what it needs,
 * runs `runs` cases from `seed`, and throws fast-check's report on a counterexample.
 */
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { io as connect, type Socket } from 'socket.io-client';
import type { GameCommand } from '../../server/games/game-module.ts';
import { checkCameraConfig } from '../../server/hardware/camera/config.ts';
import { LineSplitter } from '../../server/hardware/serial/line-splitter.ts';
import { decodeBoxMessage } from '../../server/hardware/serial/messages.ts';
import { formatLine, MAX_LINE, parseLine } from '../../server/hardware/serial/protocol.ts';
import { FUZZ_PIN, fuzzApp, listenLoopback, midGame, tableFingerprint, type Fixture } from './app-fixture.ts';

export interface FuzzTarget {
  name: string;
  run(runs: number, seed: number): Promise<void>;
}

const LINE_ERRORS = ['LEN', 'CHAR', 'FRAME', 'CRC', 'SEQ', 'SYNTAX'];

// ---------- serial line protocol ----------

const validLine = fc
  .record({
    seq: fc.integer({ min: 0, max: 255 }),
    verb: fc.oneof(fc.constantFrom('HELLO', 'BTN', 'ACK', 'ERR', 'PING', 'LED', 'BUZ'), fc.stringMatching(/^[A-Z]{1,8}$/)),
    args: fc.array(fc.oneof(fc.constantFrom('FDBOX', '1', 'P1', 'S', 'L', '0A', '--', 'BTN,LED'), fc.stringMatching(/^[A-Za-z0-9._=,/+\-:]{1,24}$/)), { maxLength: 6 }),
  })
  .map(({ seq, verb, args }) => {
    try {
      return formatLine(seq, verb, args).slice(0, -1);
    } catch {
      return formatLine(seq, verb, []).slice(0, -1); // too long for one line: the bare verb
    }
  });

type Mutation = { op: 'flip' | 'insert' | 'delete' | 'truncate' | 'duplicate' | 'crlf'; at: number; byte: number };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('flip', 'insert', 'delete', 'truncate', 'duplicate', 'crlf'),
  at: fc.nat(),
  byte: fc.integer({ min: 0, max: 255 }),
});

function mutate(line: string, ms: Mutation[]): string {
  let s = line;
  for (const m of ms) {
    const i = s.length === 0 ? 0 : m.at % s.length;
    const ch = String.fromCharCode(m.byte);
    if (m.op === 'flip') s = s.slice(0, i) + ch + s.slice(i + 1);
    else if (m.op === 'insert') s = s.slice(0, i) + ch + s.slice(i);
    else if (m.op === 'delete') s = s.slice(0, i) + s.slice(i + 1);
    else if (m.op === 'truncate') s = s.slice(0, i);
    else if (m.op === 'duplicate') s = s + s;
    else s = s + '\r';
  }
  return s;
}

const anyLine = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.string({ unit: 'binary-ascii', maxLength: 120 }),
  fc.tuple(validLine, fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([l, ms]) => mutate(l, ms)),
  validLine,
);

/** parseLine never throws; a rejection has a known code and a reason; anything accepted is a canonical line. */
export const serialParser: FuzzTarget = {
  name: 'serial parser',
  async run(runs, seed) {
    fc.assert(
      fc.property(anyLine, (line) => {
        const r = parseLine(line);
        if (!r.ok) {
          if (!LINE_ERRORS.includes(r.error)) throw new Error(`unknown error code ${r.error}`);
          if (typeof r.reason !== 'string' || r.reason.length === 0) throw new Error('a rejection without a reason');
          return;
        }
        const canonical = formatLine(r.message.seq, r.message.verb, r.message.args);
        if (canonical !== `${line.endsWith('\r') ? line.slice(0, -1) : line}\n`) throw new Error(`accepted a non-canonical line ${JSON.stringify(line)}`);
        const decoded = decodeBoxMessage(r.message);
        if (!decoded.ok && (typeof decoded.reason !== 'string' || decoded.reason.length === 0)) throw new Error('a decode rejection without a reason');
      }),
      { numRuns: runs, seed },
    );
  },
};

/** Byte chunks with garbage between valid lines: never throws, no line beyond the limit, every valid line still arrives in order. */
export const serialSplitter: FuzzTarget = {
  name: 'serial line splitter',
  async run(runs, seed) {
    const garbage = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1').replace(/\n/g, '') + '\n'),
      fc.constant('\n'),
      fc.constant('x'.repeat(300) + '\n'),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.option(garbage, { nil: undefined }), validLine), { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 10 }),
        (pieces, cuts) => {
          const splitter = new LineSplitter();
          const stream = Buffer.from(pieces.map(([g, l]) => (g ?? '') + l + '\n').join(''), 'latin1');
          const got: string[] = [];
          let now = 1_000_000;
          for (let pos = 0, k = 0; pos < stream.length; k++) {
            const n = cuts[k % cuts.length];
            for (const item of splitter.push(stream.subarray(pos, pos + n), now)) {
              if (item.kind === 'line') {
                if (item.line.length > MAX_LINE - 1 || item.line.includes('\n')) throw new Error(`line beyond the limit: ${item.line.length}`);
                got.push(item.line);
              } else if (!item.reason) throw new Error('dropped without a reason');
            }
            pos += n;
            now += 20; // 50 chunks a second: under the flood limit, well under the stale time
          }
          const sent = pieces.map(([, l]) => l);
          let i = 0;
          for (const line of got) if (i < sent.length && line === sent[i]) i++;
          if (i !== sent.length) throw new Error(`valid line ${JSON.stringify(sent[i])} was lost among the garbage`);
        },
      ),
      { numRuns: runs, seed },
    );
  },
};

// ---------- camera settings (node-webcam pastes them into a shell command) ----------

const SHELL_SAFE = /^[A-Za-z0-9_./+:%-]*$/;

/** Any device/folder string in a table's camera settings: either refused with a reason, or made only of shell-inert characters. */
export const cameraSettings: FuzzTarget = {
  name: 'camera settings',
  async run(runs, seed) {
    const nasty = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary-ascii', maxLength: 60 }),
      fc.constantFrom('/dev/video0; rm -rf /', '/dev/video0$(id)', 'file:/tmp/a`id`.jpg', "file:/tmp/a'b.jpg", 'file:-rf', '/dev/v4l/by-id/x y', '/dev/video0\n', 'file:/tmp/%s', '--help', '/dev/video0 && x'),
      fc.tuple(fc.constantFrom('/dev/video', 'file:/tmp/', '/dev/v4l/by-id/'), fc.string({ unit: 'binary-ascii', maxLength: 20 })).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(fc.constantFrom('fswebcam', 'ffmpeg'), nasty, fc.option(fc.integer({ min: -5, max: 5000 }), { nil: undefined }), (source, device, width) => {
        const { config, problems } = checkCameraConfig({ source, device, ...(width === undefined ? {} : { width }) });
        if (config === null || problems.length > 0) {
          if (problems.length === 0 || problems.some((p) => typeof p !== 'string' || p.length === 0)) throw new Error(`refused ${JSON.stringify(device)} without a reason`);
          return;
        }
        const dev = String((config as { device?: unknown }).device ?? '');
        if (!SHELL_SAFE.test(dev) || dev.startsWith('-') || dev.startsWith('file:-')) throw new Error(`accepted a device a shell would interpret: ${JSON.stringify(dev)}`);
      }),
      { numRuns: runs, seed },
    );
  },
};

// ---------- HTTP commands ----------

const jsonLeaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 20 }), fc.constantFrom(0, -1, 1, 2, 3, 4, 5, 6, 7, 99, 1e308, 'approach', 'move', 'attack', 'planes'));
const smallJson = fc.oneof(jsonLeaf, fc.array(jsonLeaf, { maxLength: 6 }), fc.dictionary(fc.string({ maxLength: 10 }), jsonLeaf, { maxKeys: 4 }));

type CommandMutation = { op: 'drop' | 'set' | 'add' | 'retype' | 'proto'; key: string; value: unknown };

function mutateCommand(command: GameCommand, ms: CommandMutation[], types: string[]): unknown {
  const c: Record<string, unknown> = JSON.parse(JSON.stringify(command));
  for (const m of ms) {
    const keys = Object.keys(c);
    const key = keys.length > 0 ? keys[m.key.length % keys.length] : m.key;
    if (m.op === 'drop') delete c[key];
    else if (m.op === 'set') c[key] = m.value;
    else if (m.op === 'add') c[m.key || 'x'] = m.value;
    else if (m.op === 'retype') c.type = types[m.key.length % types.length];
    else c[['__proto__', 'constructor', 'prototype'][m.key.length % 3]] = m.value;
  }
  return c;
}

function commandArbitrary(valid: GameCommand[], types: string[]): fc.Arbitrary<unknown> {
  const cm: fc.Arbitrary<CommandMutation> = fc.record({ op: fc.constantFrom('drop', 'set', 'add', 'retype', 'proto'), key: fc.string({ maxLength: 12 }), value: smallJson });
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...valid), fc.array(cm, { minLength: 1, maxLength: 3 })).map(([c, ms]) => mutateCommand(c, ms, types)) },
    { weight: 2, arbitrary: fc.record({ type: fc.oneof(fc.constantFrom(...types), fc.string({ maxLength: 50 })) }, { requiredKeys: [] }).chain((base) => fc.dictionary(fc.string({ maxLength: 8 }), smallJson, { maxKeys: 4 }).map((extra) => ({ ...extra, ...base }))) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(...valid) },
  );
}

type Req = { kind: 'json'; body: unknown; auth: string | null } | { kind: 'raw'; body: string; contentType: string; auth: string | null };

function requestArbitrary(valid: GameCommand[], types: string[]): fc.Arbitrary<Req> {
  const authHeader = fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${FUZZ_PIN}`) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.oneof(fc.constant('Bearer 0000'), fc.constant(`bearer  ${FUZZ_PIN} `), fc.constant(FUZZ_PIN), fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[\r\n\0]/g, ''))) },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('json' as const), body: commandArbitrary(valid, types), auth: authHeader }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        body: fc.oneof(fc.string({ maxLength: 200 }), fc.constant('{"type":"dice","faces":[1,2'), fc.constant('{"type": "undo", "count": 1e400}'), fc.constant('[]'), fc.constant('null')),
        contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data'),
        auth: authHeader,
      }),
    },
  );
}

/** An independent oracle: the published command schemas compiled here, to check the server applies them (no bypass). */
function schemaOracle(schemas: Record<string, Record<string, unknown>>): (body: unknown) => boolean {
  const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false });
  const compiled = new Map(Object.entries(schemas).map(([type, { $schema: _s, ...schema }]) => [type, ajv.compile(schema)]));
  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
    const type = (body as { type?: unknown }).type;
    if (typeof type !== 'string') return false;
    const check = compiled.get(type);
    return check !== undefined && check(body) === true;
  };
}

async function preparedApp(): Promise<{ fixture: Fixture; valid: GameCommand[]; types: string[] }> {
  const fixture = await fuzzApp();
  const table = fixture.built.service.first();
  const plan = midGame(60);
  for (const c of plan) table.submit(c, 'player');
  const valid = [...plan, ...midGame(200).slice(60), { type: 'undo' }, { type: 'undo', count: 2 }, { type: 'resetTable' }] as GameCommand[];
  const types = Object.keys(table.session.commandSchemas());
  return { fixture, valid, types };
}

function checkError(status: number, body: any, what: string): void {
  if (status >= 500) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
  if (status >= 400 && (typeof body?.error?.code !== 'string' || typeof body?.error?.message !== 'string' || body.error.message.length === 0)) {
    throw new Error(`${what}: HTTP ${status} without {error:{code,message}}: ${JSON.stringify(body).slice(0, 200)}`);
  }
}

/** Random and mutated commands through POST /commands: never 5xx, a rejection has {error} and changes nothing. */
export const httpCommands: FuzzTarget = {
  name: 'HTTP commands',
  async run(runs, seed) {
    const { fixture, valid, types } = await preparedApp();
    const { app } = fixture.built;
    const table = fixture.built.service.first();
    const schemaValid = schemaOracle(table.session.commandSchemas());
    const withDefaults = (c: unknown) => table.session.withDefaults(c);
    const tally = { accepted: 0, refused: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(valid, types), async (req) => {
          const before = tableFingerprint(fixture.built);
          const seqBefore = fixture.built.service.first().seq;
          const headers: Record<string, string> = {};
          if (req.auth !== null) headers.authorization = req.auth;
          const res =
            req.kind === 'json'
              ? await app.inject({ method: 'POST', url: '/api/tables/default/commands', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(req.body) })
              : await app.inject({ method: 'POST', url: '/api/tables/default/commands', headers: { ...headers, 'content-type': req.contentType }, payload: req.body });
          const body = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
          const what = `POST ${JSON.stringify(req).slice(0, 300)}`;
          checkError(res.statusCode, body, what);
          // what the server receives: the JSON text (a mutated object's prototype does not travel)
          // the adapter's documented defaults (newGame without players: 4) are filled in before validation
          const received = JSON.parse(JSON.stringify(req.body) ?? 'null');
          const wellFormed = req.kind === 'json' && schemaValid(withDefaults(received));
          if (req.kind === 'json' && req.auth === `Bearer ${FUZZ_PIN}` && !wellFormed && res.statusCode !== 400) {
            throw new Error(`${what}: a command its schema does not allow got ${res.statusCode}, not 400`);
          }
          if (res.statusCode === 200) {
            if (!wellFormed) throw new Error(`${what}: accepted a command its schema does not allow`);
            if (body.seq !== seqBefore + 1) throw new Error(`${what}: accepted with seq ${body.seq} after ${seqBefore}`);
            tally.accepted++;
          } else if (tableFingerprint(fixture.built) !== before) {
            throw new Error(`${what}: rejected (${res.statusCode} ${body?.error?.code}) but the table or its journal changed`);
          } else tally.refused++;
        }),
        { numRuns: runs, seed },
      );
      // both sides of the property were exercised
      if (runs >= 100 && (tally.accepted === 0 || tally.refused === 0)) throw new Error(`HTTP commands: ${JSON.stringify(tally)}: one side of the property never ran`);
    } finally {
      await fixture.close();
    }
  },
};

const ROUTES: [string, string][] = [
  ['GET', '/api/health'],
  ['GET', '/api/commands'],
  ['GET', '/api/tables'],
  ['GET', '/api/tables/:id/state'],
  ['POST', '/api/tables/:id/commands'],
  ['GET', '/api/tables/:id/frame.jpg'],
  ['POST', '/api/tables/:id/auth'],
  ['GET', '/api/tables/:id/stats'],
  ['GET', '/api/tables/:id/stats/games.csv'],
  ['GET', '/api/tables/:id/settings'],
  ['PUT', '/api/tables/:id/settings'],
  ['POST', '/api/tables/:id/simulator/throw'],
  ['POST', '/api/tables/:id/box/press'],
  ['POST', '/api/tables/:id/still-here'],
  ['GET', '/api/tables/:id/dice-samples'],
  ['POST', '/api/tables/:id/dice-samples/hold'],
  ['GET', '/api/tables/:id/dice-samples/held/1'],
  ['POST', '/api/tables/:id/dice-samples'],
  ['DELETE', '/api/tables/:id/dice-samples/1'],
  ['POST', '/api/tables/:id/dice-samples/evaluate'],
  ['GET', '/api/tables/:id/dice-samples/archive'],
  ['GET', '/api/tables/:id/dice-model'],
  ['POST', '/api/tables/:id/dice-model/teach'],
  ['DELETE', '/api/tables/:id/dice-model/teach'],
  ['PUT', '/api/tables/:id/dice-model'],
  ['GET', '/api/tables/:id/camera/calibration'],
  ['PUT', '/api/tables/:id/camera/calibration'],
  ['DELETE', '/api/tables/:id/camera/calibration'],
  ['POST', '/api/tables/:id/camera/calibration/estimate'],
];

/** Every route with random ids, query strings, methods and bodies: never 5xx, errors always {error:{code,message}}, state unchanged unless a command was accepted. */
export const httpRoutes: FuzzTarget = {
  name: 'HTTP routes',
  async run(runs, seed) {
    const { fixture } = await preparedApp();
    const { app } = fixture.built;
    const segment = fc.oneof(fc.constantFrom('default', 'DEFAULT', 'nope', '..', '%2e%2e', '', 'a'.repeat(40), '%00', '-x'), fc.string({ maxLength: 12 }).map(encodeURIComponent));
    const query = fc.oneof(fc.constant(''), fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 12 }), { maxKeys: 3 }).map((d) => '?' + new URLSearchParams(d).toString()), fc.constantFrom('?day=2026-13-40', '?day=2026-01-01', '?from=2026-01-01&to=2026-12-31', '?from=2026-02-30&to=2026-01-01', '?from=2025-01-01&to=2026-12-31', '?t=1', '?t=' + 'x'.repeat(40), '?a[b]=1', '?day=1&day=2'));
    const unit = fc.oneof(fc.double({ min: -0.5, max: 1.5, noNaN: false }), smallJson);
    const area = fc.oneof(fc.record({ x: unit, y: unit, w: unit, h: unit }, { requiredKeys: [] }), fc.record({ quad: fc.oneof(fc.array(fc.array(unit, { maxLength: 3 }), { maxLength: 5 }), smallJson) }));
    const method = fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') });
    const body = fc.oneof(fc.constant(undefined), smallJson, fc.record({ ruleOverrides: smallJson }), fc.record({ dice: smallJson, faces: smallJson }), fc.record({ button: fc.constantFrom('plane1', 'undo', 'x', 3), press: smallJson }), fc.record({ hold: fc.oneof(fc.constantFrom('1', 'x', ''), smallJson), dice: smallJson }), fc.record({ use: fc.oneof(fc.constantFrom('taught', 'base', 'x'), smallJson) }), fc.record({ tray: fc.oneof(smallJson, area), keptZone: fc.oneof(smallJson, area) }, { requiredKeys: [] }));
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ROUTES), segment, query, method, body, fc.boolean(), async ([m, path], id, q, overrideMethod, payload, withPin) => {
          const before = tableFingerprint(fixture.built);
          const seqBefore = fixture.built.service.first().seq;
          const url = path.replace(':id', id) + q;
          const res = await app.inject({
            method: (overrideMethod ?? m) as 'GET',
            url,
            headers: { ...(withPin ? { authorization: `Bearer ${FUZZ_PIN}` } : {}), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
            payload: payload === undefined ? undefined : JSON.stringify(payload),
          });
          const isJson = res.headers['content-type']?.toString().includes('json');
          const parsed = isJson && res.body.length > 0 ? res.json() : res.body;
          // HEAD answers carry no body by definition: only the status is checked
          checkError(res.statusCode, overrideMethod === 'HEAD' ? { error: { code: 'head', message: 'no body' } } : parsed, `${overrideMethod ?? m} ${url} ${JSON.stringify(payload)?.slice(0, 100)}`);
          if (fixture.built.service.first().seq === seqBefore && tableFingerprint(fixture.built) !== before) throw new Error(`${m} ${url}: the table changed without a command`);
        }),
        { numRuns: runs, seed },
      );
    } finally {
      await fixture.close();
    }
  },
};

// ---------- socket.io ----------

type SocketCase = { event: string; payload: unknown; withAck: boolean };

function ackOf(socket: Socket, event: string, payload: unknown): Promise<unknown> {
  return socket.timeout(5000).emitWithAck(event, payload);
}

/** Bad payloads on every socket event: an ack always comes back ({ok:true} or {ok:false, error:{code,message}}), a refused command changes nothing, the server keeps serving. */
export const socketEvents: FuzzTarget = {
  name: 'socket events',
  async run(runs, seed) {
    const { fixture, valid, types } = await preparedApp();
    const url = await listenLoopback(fixture.built);
    const socket = connect(url, { auth: { table: 'default', pin: FUZZ_PIN }, transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const payload = fc.oneof(commandArbitrary(valid, types), fc.record({ table: smallJson, pin: smallJson }, { requiredKeys: [] }), fc.record({ pin: fc.oneof(fc.constant(FUZZ_PIN), smallJson) }), fc.record({ dice: smallJson, faces: smallJson }), fc.record({ button: smallJson, press: smallJson }), smallJson);
    const socketCase: fc.Arbitrary<SocketCase> = fc.record({
      event: fc.oneof({ weight: 10, arbitrary: fc.constantFrom('command', 'watch', 'auth', 'throw', 'press') }, { weight: 1, arbitrary: fc.constantFrom('state', 'error', 'vision', 'x', 'constructor', '__proto__', 'toString') }),
      payload,
      withAck: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    });
    try {
      await fc.assert(
        fc.asyncProperty(socketCase, async ({ event, payload: p, withAck }) => {
          const before = tableFingerprint(fixture.built);
          const known = ['command', 'watch', 'auth', 'throw', 'press'].includes(event);
          const what = `${event} ${JSON.stringify(p)?.slice(0, 200)}`;
          if (known && withAck) {
            const ack = (await ackOf(socket, event, p)) as any;
            if (typeof ack !== 'object' || ack === null || typeof ack.ok !== 'boolean') throw new Error(`${what}: ack ${JSON.stringify(ack)}`);
            if (!ack.ok && (typeof ack.error?.code !== 'string' || typeof ack.error?.message !== 'string')) throw new Error(`${what}: refusal without {code,message}`);
            if (!(event === 'command' && ack.ok) && tableFingerprint(fixture.built) !== before) throw new Error(`${what}: changed the table without an accepted command`);
          } else {
            socket.emit(event, p);
          }
          // whatever came before, the client can still authorise, watch the table and get answers
          const back = (await ackOf(socket, 'watch', { table: 'default', pin: FUZZ_PIN })) as any;
          if (!back?.ok) throw new Error(`${what}: the connection no longer works: ${JSON.stringify(back)}`);
          if (!socket.connected) throw new Error(`${what}: the server dropped the client`);
        }),
        { numRuns: runs, seed },
      );
      // odd handshakes: the server answers each with a state or an error, and stays up
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.record({ table: smallJson, pin: smallJson }, { requiredKeys: [] }), smallJson), async (auth) => {
          const s = connect(url, { auth: auth as Record<string, unknown>, transports: ['websocket'], forceNew: true, reconnection: false });
          try {
            const first = await new Promise<string>((resolve) => {
              const timer = setTimeout(() => resolve('timeout'), 5000);
              for (const ev of ['state', 'error', 'connect_error', 'disconnect']) s.once(ev, () => (clearTimeout(timer), resolve(ev)));
            });
            if (first === 'timeout') throw new Error(`handshake ${JSON.stringify(auth)}: no answer`);
          } finally {
            s.close();
          }
        }),
        { numRuns: Math.max(5, Math.floor(runs / 10)), seed },
      );
      const health = await fetch(`${url}/api/health`);
      if (health.status !== 200) throw new Error(`health ${health.status} after the socket fuzz`);
    } finally {
      socket.close();
      await fixture.close();
    }
  },
};

export const ALL_TARGETS: FuzzTarget[] = [serialParser, serialSplitter, cameraSettings, httpCommands, httpRoutes, socketEvents];
