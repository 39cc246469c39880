/**
 * The HTTP service: fastify routes (JSON-schema validated), socket.io on the same server,
 * and the dashboard's static files from web/dist (nothing outside it can be read, links included).
 * Every answer carries the browser safety headers; socket.io refuses handshakes from foreign pages.
 */
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import type { GameCommand, RejectionParams } from '../games/game-module.ts';
import type { DiceReader } from '../hardware/ports.ts';
import type { DiceSampleStore } from '../store/dice-sample-store.ts';
import type { DiceModels } from '../vision/dice-models.ts';
import type { TableService } from '../table/table-service.ts';
import { hasDefaultName } from '../config/service-config.ts';
import { SimulatorRequestError, type Table, type TableLog } from '../table/table.ts';
import { bearerPin, checkPin, mayShowPin } from './access.ts';
import { insideWebRoot, originCheck, securityHeaders } from './browser-safety.ts';
import { CommandValidator } from './command-validator.ts';
import { PinLimiter, type PinLimiterOptions } from './pin-limiter.ts';
import { registerCameraRoutes } from './camera-routes.ts';
import { registerModelRoutes } from './model-routes.ts';
import { registerSampleRoutes } from './sample-routes.ts';
import { registerStatsRoutes } from './stats-routes.ts';
import * as S from './schemas.ts';
import { SocketHub } from './socket-hub.ts';

export const DEFAULT_WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Hardware started for the tables (cameras, vision, button boxes); stopped when the app closes. */
export interface HardwareHandle {
  close(): Promise<void>;
  /** extra /api/health fields */
  health(): Record<string, unknown>;
  /** the dice reader the cameras use, when it is running (the Dice photos page measures it on the saved photos) */
  diceReader?(): DiceReader | null;
}

export interface AppOptions {
  /** the tables, or how to build them with the app's logger */
  service: TableService | ((log: TableLog) => TableService);
  /** starts the tables' hardware once they exist */
  hardware?: (service: TableService, log: TableLog) => Promise<HardwareHandle>;
  /** the dashboard's built files (default web/dist) */
  webRoot?: string;
  logger?: boolean | Record<string, unknown>;
  pinLimits?: PinLimiterOptions;
  /** origins besides the service's own host whose pages may open a socket.io connection (e.g. a proxy's https address) */
  allowedOrigins?: readonly string[];
  /** where photos of the players' dice labelled on the dashboard are saved (none: the routes answer 'samplesOff') */
  samples?: DiceSampleStore;
  /** the dice model read and taught from the dashboard, or how to make it with the app's logger (none: the model routes answer 'modelsOff'); made before the hardware starts */
  models?: DiceModels | ((log: TableLog) => DiceModels);
}

export interface BuiltApp {
  app: FastifyInstance;
  io: Server;
  service: TableService;
}

type IdParams = { Params: { id: string } };

/** The codes the API documents (server/http/README.md) for a request fastify itself refuses (its body, a file path), not fastify's own. */
function requestErrorCode(status: number): string {
  if (status === 413) return 'bodyTooLarge';
  if (status === 415) return 'unsupportedMediaType';
  return 'badRequest';
}

/** `params`: a refusal's specifics (CommandRejection), passed on as they are for the page's words. */
function sendError(reply: FastifyReply, status: number, code: string, message: string, params?: RejectionParams): FastifyReply {
  return reply.code(status).send({ error: { code, message, ...(params ? { params } : {}) } });
}

export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 64 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
  });
  const service = typeof options.service === 'function' ? options.service(app.log) : options.service;
  const models = typeof options.models === 'function' ? options.models(app.log) : (options.models ?? null);
  let hardware: HardwareHandle | null = null;
  try {
    hardware = options.hardware ? await options.hardware(service, app.log) : null;
  } catch (err) {
    service.close();
    throw err;
  }
  const limiter = new PinLimiter(options.pinLimits);
  const validators = new Map<string, CommandValidator>();
  for (const table of service.tables.values()) {
    const id = table.adapter.module.id;
    if (!validators.has(id)) validators.set(id, new CommandValidator(table.session.commandSchemas()));
  }

  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(securityHeaders(request.headers.host));
    return payload;
  });

  const io = new Server(app.server, {
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    cors: { origin: false },
    allowRequest: originCheck(options.allowedOrigins ?? []),
  });
  new SocketHub({ io, service, validators, limiter, log: app.log });
  app.addHook('preClose', async () => {
    // the connections closed under the clients, not a "leave" the server says: a client's socket.io retries
    // a closed transport by itself and finds the service again once it is back (after a server-side
    // disconnect it would not)
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await io.close();
    await models?.close().catch((err) => app.log.warn({ err }, 'stopping the dice model teaching failed'));
    try {
      await hardware?.close();
    } finally {
      service.close();
    }
  });

  // bodies are JSON: fastify's own plain-text parser would pass a text body on to the schemas as a string
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.validation) return sendError(reply, 400, 'badRequest', `${err.validationContext ?? 'request'}: ${err.message}`);
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'request failed');
    return sendError(reply, status, status === 500 ? 'internal' : requestErrorCode(status), status === 500 ? 'Internal error.' : err.message);
  });

  const table = (request: FastifyRequest<IdParams>, reply: FastifyReply): Table<any> | null => {
    const found = service.resolve(request.params.id);
    if (!found) sendError(reply, 404, 'unknownTable', `No table "${request.params.id}".`);
    return found ?? null;
  };

  /** The PIN check for controlling routes; sends the refusal and returns false when refused. */
  const control = (t: Table<any>, request: FastifyRequest, reply: FastifyReply): boolean => {
    const result = checkPin(t, bearerPin(request.headers.authorization), request.ip, limiter);
    if (result.ok) return true;
    if (result.retryAfterMs) reply.header('retry-after', Math.ceil(result.retryAfterMs / 1000));
    sendError(reply, result.status, result.error.code, result.error.message);
    return false;
  };

  /** Watching routes: a PIN is optional; a wrong one still counts against the client. */
  const authorisedIfPin = (t: Table<any>, request: FastifyRequest): boolean => {
    const pin = bearerPin(request.headers.authorization);
    return pin !== undefined && checkPin(t, pin, request.ip, limiter).ok;
  };

  const startedAt = Date.now();
  app.get('/api/health', { schema: { querystring: S.noQuery } }, async () => ({
    ok: true,
    uptimeS: Math.round((Date.now() - startedAt) / 1000),
    vision: { backend: null, ready: false },
    ...(hardware?.health() ?? {}),
    tables: [...service.tables.values()].map((t) => {
      const hw = t.hardware();
      return { id: t.id, name: t.name, seq: t.seq, camera: hw.camera, serial: hw.serial, vision: hw.vision, alerts: t.alerts() };
    }),
  }));

  app.get('/api/commands', { schema: { querystring: S.noQuery } }, async () => {
    const games: Record<string, Record<string, unknown>> = {};
    for (const [game, v] of validators) games[game] = v.schemas;
    return { commands: validators.get(service.first().adapter.module.id)?.schemas ?? {}, games };
  });

  app.get('/api/tables', { schema: { querystring: S.noQuery } }, async () =>
    [...service.tables.values()].map((t) => ({ id: t.id, name: t.name, ...(hasDefaultName(t.config) ? { defaultName: true } : {}), game: t.adapter.module.id, kiosk: t.config.kiosk !== null })),
  );

  app.get<IdParams>('/api/tables/:id/state', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t) return reply;
    const authorised = authorisedIfPin(t, request);
    return t.snapshot({ canControl: authorised, showPin: mayShowPin(t, authorised, request.ip) });
  });

  // the events of the last commands, for a page opened mid-game (watching: no PIN)
  app.get<IdParams>('/api/tables/:id/events', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t) return reply;
    return t.recentEvents();
  });

  app.post<IdParams & { Body: GameCommand }>(
    '/api/tables/:id/commands',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.commandBody } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t || !control(t, request, reply)) return reply;
      const checked = validators.get(t.adapter.module.id)!.validate(t.session.withDefaults(request.body));
      if (!checked.ok) return sendError(reply, 400, checked.error.code, checked.error.message, checked.error.params);
      const ack = t.submit(checked.command, 'player');
      if (!ack.ok) return sendError(reply, 409, ack.error.code, ack.error.message, ack.error.params);
      return { state: ack.state, events: ack.events, seq: ack.seq };
    },
  );

  // one seat's hidden information (the dealt expert manoeuvre tiles), for that player's phone; needs the PIN
  app.get<{ Params: { id: string; seat: string } }>(
    '/api/tables/:id/seats/:seat/secrets',
    {
      schema: {
        params: { type: 'object', additionalProperties: false, required: ['id', 'seat'], properties: { ...S.tableParams.properties, ...S.seatParams.properties } },
        querystring: S.noQuery,
      },
    },
    async (request, reply) => {
      const t = table(request as FastifyRequest<IdParams>, reply);
      if (!t || !control(t, request, reply)) return reply;
      const seat = Number(request.params.seat);
      return { tableId: t.id, seat, secrets: t.adapter.seatSecrets?.(t.state, seat) ?? null };
    },
  );

  app.post<IdParams>('/api/tables/:id/auth', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t || !control(t, request, reply)) return reply;
    return { ok: true, tableId: t.id };
  });

  registerStatsRoutes(app, { stats: service.stats, table, sendError });

  app.get<IdParams>('/api/tables/:id/settings', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t) return reply;
    return { settings: t.settings(), kiosk: t.config.kiosk };
  });

  app.put<IdParams & { Body: { ruleOverrides: Record<string, unknown> } }>(
    '/api/tables/:id/settings',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.settingsBody } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t || !control(t, request, reply)) return reply;
      // checked now, not at the next game's start: a correction no game can be played with is never kept
      const wrong = t.adapter.checkRuleOverrides?.(request.body.ruleOverrides) ?? null;
      if (wrong) return sendError(reply, 400, 'badRuleOverride', wrong);
      try {
        t.saveSettings({ ruleOverrides: request.body.ruleOverrides });
      } catch (err) {
        request.log.error({ err }, 'saving settings failed');
        return sendError(reply, 503, 'storageFailed', 'The settings could not be saved (database not writable).');
      }
      return { settings: t.settings() };
    },
  );

  app.post<IdParams & { Body: { dice?: number; faces?: number[]; leaning?: number; keep?: number[] } }>(
    '/api/tables/:id/simulator/throw',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.throwBody } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t || !control(t, request, reply)) return reply;
      if (!t.simulator.throwDice) return sendError(reply, 409, 'noSimulator', 'This table has no simulated camera.');
      try {
        return { ok: true, ...(await t.simulator.throwDice(request.body ?? {})) };
      } catch (err) {
        if (err instanceof SimulatorRequestError) return sendError(reply, 400, 'badRequest', err.message);
        throw err;
      }
    },
  );

  app.post<IdParams & { Body: { faces: number[] } }>(
    '/api/tables/:id/simulator/keep',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.keepBody } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t || !control(t, request, reply)) return reply;
      if (!t.simulator.keep) return sendError(reply, 409, 'noSimulator', 'This table has no simulated camera.');
      try {
        return { ok: true, kept: t.simulator.keep(request.body.faces) };
      } catch (err) {
        if (err instanceof SimulatorRequestError) return sendError(reply, 400, 'badRequest', err.message);
        throw err;
      }
    },
  );

  app.post<IdParams & { Body: { button: string; press?: 'short' | 'long' } }>(
    '/api/tables/:id/box/press',
    { schema: { params: S.tableParams, querystring: S.noQuery, body: S.pressBody } },
    async (request, reply) => {
      const t = table(request, reply);
      if (!t || !control(t, request, reply)) return reply;
      if (!t.simulator.press) return sendError(reply, 409, 'noVirtualBox', 'This table has no virtual button box.');
      try {
        t.simulator.press(request.body.button, request.body.press ?? 'short');
      } catch (err) {
        return sendError(reply, 409, 'boxUnavailable', String((err as Error).message ?? err));
      }
      const last = t.simulator.lastNote?.() ?? null;
      return { ok: true, note: last?.note ?? null, refused: last?.refused ?? false };
    },
  );

  // the dice the camera sees at rest read into the roll in progress, at the players' asking (after an Undo of a reading)
  app.post<IdParams>('/api/tables/:id/read-tray', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t || !control(t, request, reply)) return reply;
    const ack = t.readTray();
    if (!ack.ok) return sendError(reply, 409, ack.error.code, ack.error.message, ack.error.params);
    return { state: ack.state, events: ack.events, seq: ack.seq };
  });

  // a visitor at a demo station says they are still playing: its idle reset waits again
  app.post<IdParams>('/api/tables/:id/still-here', { schema: { params: S.tableParams, querystring: S.noQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t || !control(t, request, reply)) return reply;
    t.noteActivity();
    return { ok: true, resetAt: t.resetAt(), resetWarnAt: t.resetWarnAt() };
  });

  registerSampleRoutes(app, { store: options.samples ?? null, reader: () => hardware?.diceReader?.() ?? null, table, control, sendError });
  registerModelRoutes(app, { models, store: options.samples ?? null, table, control, sendError });
  registerCameraRoutes(app, { table, control, sendError });

  app.get<IdParams>('/api/tables/:id/frame.jpg', { schema: { params: S.tableParams, querystring: S.frameQuery } }, async (request, reply) => {
    const t = table(request, reply);
    if (!t) return reply;
    const frame = t.latestFrame();
    if (!frame) return sendError(reply, 404, 'noFrame', 'No camera frame yet.');
    return reply.header('cache-control', 'no-store').type(frame.mime).send(frame.data);
  });

  // short addresses to type on a phone: /phone, /phone/2 (seat 2), ?table=... kept
  const phoneRedirect = (seat: string | null, query: Record<string, string>, reply: FastifyReply) => {
    const target = new URLSearchParams({ view: 'phone', ...(seat ? { seat } : {}) });
    for (const key of ['table', 'lang', 'pin']) if (typeof query[key] === 'string') target.set(key, query[key]);
    return reply.redirect(`/?${target}`, 302);
  };
  for (const path of ['/phone', '/phone/']) {
    app.get<{ Querystring: Record<string, string> }>(path, { schema: { querystring: S.phoneQuery } }, async (request, reply) =>
      phoneRedirect(null, request.query, reply),
    );
  }
  app.get<{ Params: { seat: string }; Querystring: Record<string, string> }>(
    '/phone/:seat',
    { schema: { params: S.seatParams, querystring: S.phoneQuery } },
    async (request, reply) => phoneRedirect(request.params.seat, request.query, reply),
  );

  const webRoot = resolve(options.webRoot ?? DEFAULT_WEB_ROOT);
  const haveDashboard = existsSync(join(webRoot, 'index.html'));
  if (haveDashboard) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      wildcard: true,
      dotfiles: 'deny',
      index: ['index.html'],
      allowedPath: insideWebRoot(webRoot),
    });
  } else {
    app.get('/', async (_request, reply) =>
      reply.type('text/html').send('<!doctype html><title>Flight Deck</title><p>The dashboard is not built: run <code>npm run build:web</code> (npm start does it).</p>'),
    );
  }

  app.setNotFoundHandler({}, (request, reply) => {
    return sendError(reply, 404, 'notFound', `Nothing at ${request.method} ${request.url.slice(0, 100)}.`);
  });

  return { app, io, service };
}
