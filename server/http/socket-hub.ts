/**
 * socket.io: each client watches one table (room `table:<id>`), may control it once it has
 * given the PIN, and receives a "state" snapshot on every change and "vision" updates.
 * Snapshots differ per client only in `canControl` and `pin`, so each change is built once.
 *
 * Every value a client sends is untrusted JSON: it is checked with `typeof` before use and never
 * converted with String() (an object like {"toString": 1} makes String() throw). A handler that
 * throws anyway answers an `internal` error and is logged; it never ends the process.
 */
import type { Server, Socket } from 'socket.io';
import type { GameCommand } from '../games/game-module.ts';
import type { TableService } from '../table/table-service.ts';
import { SimulatorRequestError, type Table, type TableChange } from '../table/table.ts';
import { checkPin, mayShowPin } from './access.ts';
import type { CommandValidator } from './command-validator.ts';
import type { PinLimiter } from './pin-limiter.ts';
import { SOCKET_EVENTS, type CommandAck, type VisionUpdate } from './protocol.ts';
import { BOX_BUTTONS } from './schemas.ts';

interface ClientState {
  table: Table<any>;
  authorised: boolean;
}

type Ack = (reply: unknown) => void;

export interface SocketHubOptions {
  io: Server;
  service: TableService;
  validators: Map<string, CommandValidator>;
  limiter: PinLimiter;
  log?: { error(obj: unknown, msg?: string): void };
}

type Reply = { ok: boolean; error?: { code: string; message: string } };

/** A client-supplied table id as it may appear in a message: strings (shortened), otherwise only their type. */
export function describeClientValue(value: unknown): string {
  if (typeof value === 'string') return `"${value.slice(0, 40)}"`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a value of type ${typeof value}`;
}

function roomOf(table: Table<any>): string {
  return `table:${table.id}`;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === 'string' ? err : 'failed';
}

function asAck(fn: unknown): Ack {
  return typeof fn === 'function' ? (fn as Ack) : () => {};
}

export class SocketHub {
  private readonly clients = new Map<string, ClientState>();

  constructor(private readonly options: SocketHubOptions) {
    for (const table of options.service.tables.values()) {
      table.on('change', (change: TableChange) => this.pushState(table, change));
      table.on('refresh', () => this.pushState(table, null));
      table.on('vision', (update: VisionUpdate) => options.io.to(roomOf(table)).emit(SOCKET_EVENTS.vision, update));
      table.on('boxCue', (cue: unknown) => options.io.to(roomOf(table)).emit('cue', cue));
    }
    options.io.on('connection', (socket) => this.connect(socket));
  }

  private address(socket: Socket): string {
    return socket.handshake.address;
  }

  /** Runs a handler; an unexpected exception is logged and answered, never left to end the process. */
  private guarded(event: string, ack: unknown, handle: () => unknown): void {
    const answer = asAck(ack);
    const failed = (err: unknown) => {
      this.options.log?.error({ err, event }, `socket event "${event}" failed`);
      answer({ ok: false, error: { code: 'internal', message: 'Internal error.' } });
    };
    try {
      const result = handle();
      if (result instanceof Promise) result.then(answer, failed);
      else answer(result);
    } catch (err) {
      failed(err);
    }
  }

  private on(socket: Socket, event: string, handle: (request: unknown) => unknown): void {
    socket.on(event, (request: unknown, ack: unknown) => this.guarded(event, ack, () => handle(request)));
  }

  private connect(socket: Socket): void {
    try {
      this.welcome(socket);
    } catch (err) {
      this.options.log?.error({ err }, 'socket handshake failed');
      socket.disconnect(true);
    }
  }

  private welcome(socket: Socket): void {
    const raw: unknown = socket.handshake.auth;
    const auth = (typeof raw === 'object' && raw !== null ? raw : {}) as { table?: unknown; pin?: unknown };
    const named = auth.table !== undefined && auth.table !== null && auth.table !== '';
    const table = !named ? this.options.service.first() : typeof auth.table === 'string' ? this.options.service.resolve(auth.table) : undefined;
    if (!table) {
      socket.emit(SOCKET_EVENTS.error, { code: 'unknownTable', message: `No table ${describeClientValue(auth.table)}.` });
      socket.disconnect(true);
      return;
    }
    const client: ClientState = { table, authorised: false };
    this.clients.set(socket.id, client);
    if (auth.pin !== undefined) this.authorise(socket, client, auth.pin);
    void socket.join(roomOf(table));
    this.sendState(socket, client);

    socket.on('disconnect', () => this.clients.delete(socket.id));
    this.on(socket, SOCKET_EVENTS.command, (command) => this.command(client, command));
    this.on(socket, SOCKET_EVENTS.watch, (request) => this.watch(socket, client, request));
    this.on(socket, 'auth', (request) => {
      const pin = typeof request === 'object' && request !== null ? (request as { pin?: unknown }).pin : request;
      const result = this.authorise(socket, client, pin);
      this.sendState(socket, client);
      return result;
    });
    this.on(socket, 'throw', (request) => this.throwDice(client, request));
    this.on(socket, 'keep', (request) => this.keepDice(client, request));
    this.on(socket, 'press', (request) => this.press(client, request));
    this.on(socket, 'readTray', (request) => this.readTray(client, request));
  }

  /** Only a string can be the PIN: anything else is a wrong PIN (counted by the limiter), said so in words. */
  private authorise(socket: Socket, client: ClientState, pin: unknown): Reply {
    const given = typeof pin === 'string' ? pin : pin === undefined || pin === null ? undefined : '';
    const result = checkPin(client.table, given, this.address(socket), this.options.limiter);
    client.authorised = result.ok;
    if (!result.ok) {
      const error =
        result.error.code === 'badPin' && typeof pin !== 'string'
          ? { code: 'badPin', message: `Wrong PIN for table "${client.table.id}": a PIN is a string of digits, not ${describeClientValue(pin)}.` }
          : result.error;
      socket.emit(SOCKET_EVENTS.error, error);
      return { ok: false, error };
    }
    return { ok: true };
  }

  private refuse(client: ClientState): CommandAck | null {
    if (client.authorised) return null;
    return { ok: false, error: { code: 'pinRequired', message: `Watching only: give the PIN of ${client.table.name} to control it.` } };
  }

  private command(client: ClientState, input: unknown): CommandAck {
    const refused = this.refuse(client);
    if (refused) return refused;
    const validator = this.options.validators.get(client.table.adapter.module.id);
    const command = client.table.session.withDefaults(input);
    const checked = validator ? validator.validate(command) : { ok: false as const, error: { code: 'unknownGame', message: 'no validator' } };
    if (!checked.ok) return checked;
    return client.table.submit(checked.command as GameCommand, 'player');
  }

  private watch(socket: Socket, client: ClientState, request: unknown): Reply {
    const { table: id, pin } = (typeof request === 'object' && request !== null ? request : {}) as { table?: unknown; pin?: unknown };
    const table = typeof id === 'string' ? this.options.service.resolve(id) : undefined;
    if (!table) return { ok: false, error: { code: 'unknownTable', message: `No table ${describeClientValue(id)}.` } };
    void socket.leave(roomOf(client.table));
    client.table = table;
    client.authorised = false;
    void socket.join(roomOf(table));
    const result = pin !== undefined ? this.authorise(socket, client, pin) : { ok: true };
    this.sendState(socket, client);
    return result;
  }

  private async throwDice(client: ClientState, request: unknown): Promise<unknown> {
    const refused = this.refuse(client);
    if (refused) return refused;
    const sim = client.table.simulator.throwDice;
    if (!sim) return { ok: false, error: { code: 'noSimulator', message: 'This table has no simulated camera.' } };
    const { dice, faces, leaning, keep } = (typeof request === 'object' && request !== null ? request : {}) as { dice?: unknown; faces?: unknown; leaning?: unknown; keep?: unknown };
    const okDice = dice === undefined || (Number.isInteger(dice) && (dice as number) >= 1 && (dice as number) <= 12);
    const okFaces = faces === undefined || (Array.isArray(faces) && faces.length >= 1 && faces.length <= 12 && faces.every((f) => Number.isInteger(f) && f >= 1 && f <= 6));
    const okLeaning = leaning === undefined || (Number.isInteger(leaning) && (leaning as number) >= 0 && (leaning as number) <= 3);
    const okKeep = keep === undefined || (Array.isArray(keep) && keep.length <= 11 && keep.every((f) => Number.isInteger(f) && f >= 1 && f <= 6));
    if (!okDice || !okFaces || !okLeaning || !okKeep) return { ok: false, error: { code: 'badRequest', message: 'throw takes {dice?: 1..12, faces?: [1..6, ...], leaning?: 0..3, keep?: [1..6, ...]}' } };
    try {
      return { ok: true, ...(await sim({ dice: dice as number | undefined, faces: faces as number[] | undefined, leaning: leaning as number | undefined, keep: keep as number[] | undefined })) };
    } catch (err) {
      return { ok: false, error: { code: err instanceof SimulatorRequestError ? 'badRequest' : 'simulatorFailed', message: errorText(err) } };
    }
  }

  /** Keeps faces of the roll's dice out of the next simulated re-roll, for every screen (server/table/simulated-keep.ts). */
  private keepDice(client: ClientState, request: unknown): unknown {
    const refused = this.refuse(client);
    if (refused) return refused;
    const keep = client.table.simulator.keep;
    if (!keep) return { ok: false, error: { code: 'noSimulator', message: 'This table has no simulated camera.' } };
    const faces = (typeof request === 'object' && request !== null ? request : {}) as { faces?: unknown };
    const ok = Array.isArray(faces.faces) && faces.faces.length <= 11 && faces.faces.every((f) => Number.isInteger(f) && f >= 1 && f <= 6) && Object.keys(request as object).length === 1;
    if (!ok) return { ok: false, error: { code: 'badRequest', message: 'keep takes {faces: [1..6, ...]} (the faces kept; [] keeps none)' } };
    try {
      return { ok: true, kept: keep(faces.faces as number[]) };
    } catch (err) {
      return { ok: false, error: { code: err instanceof SimulatorRequestError ? 'badRequest' : 'simulatorFailed', message: errorText(err) } };
    }
  }

  /** The dice the camera sees at rest read into the roll in progress (`Table.readTray`); it takes nothing but the ack. */
  private readTray(client: ClientState, request: unknown): CommandAck {
    const refused = this.refuse(client);
    if (refused) return refused;
    const empty = request === undefined || request === null || (typeof request === 'object' && !Array.isArray(request) && Object.keys(request).length === 0);
    if (!empty) return { ok: false, error: { code: 'badRequest', message: 'readTray takes nothing: send {} (the dice read are the camera\'s own)' } };
    return client.table.readTray();
  }

  private press(client: ClientState, request: unknown): unknown {
    const refused = this.refuse(client);
    if (refused) return refused;
    const press = client.table.simulator.press;
    if (!press) return { ok: false, error: { code: 'noVirtualBox', message: 'This table has no virtual button box.' } };
    const { button, press: kind } = (typeof request === 'object' && request !== null ? request : {}) as { button?: unknown; press?: unknown };
    if (!(BOX_BUTTONS as readonly unknown[]).includes(button) || (kind !== undefined && kind !== 'short' && kind !== 'long')) {
      return { ok: false, error: { code: 'badRequest', message: `press takes {button: ${BOX_BUTTONS.join('|')}, press?: short|long}` } };
    }
    try {
      press(button as string, (kind as 'short' | 'long' | undefined) ?? 'short');
    } catch (err) {
      return { ok: false, error: { code: 'boxUnavailable', message: errorText(err) } };
    }
    const last = client.table.simulator.lastNote?.() ?? null;
    return { ok: true, note: last?.note ?? null, refused: last?.refused ?? false };
  }

  private sendState(socket: Socket, client: ClientState): void {
    socket.emit(SOCKET_EVENTS.state, client.table.snapshot({ canControl: client.authorised, showPin: mayShowPin(client.table, client.authorised, this.address(socket)) }));
  }

  /** One snapshot per change; each client gets it with its own canControl and pin. */
  private pushState(table: Table<any>, _change: TableChange | null): void {
    const base = table.snapshot({ canControl: false, showPin: false });
    for (const [id, client] of this.clients) {
      if (client.table !== table) continue;
      const socket = this.options.io.sockets.sockets.get(id);
      if (!socket) continue;
      const showPin = mayShowPin(table, client.authorised, this.address(socket));
      socket.emit(SOCKET_EVENTS.state, { ...base, canControl: client.authorised, ...(showPin ? { pin: table.pin } : {}) });
    }
  }
}
