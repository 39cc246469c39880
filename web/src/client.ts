/**
 * The one connection to the service: socket.io for state pushes and commands, HTTP for the
 * rest. Every call resolves to an Ack ({ok:false, error} instead of throwing) so the views can
 * show the service's own words.
 */
import { io, type Socket } from 'socket.io-client';
import type { RecentEvent } from '../../server/table/recent-events.ts';
import type { Ack, CalibrationConfig, Rejection, CalibrationView, DayStats, HeldPhoto, LabelledSampleDie, ModelStatus, PhotosMeasure, RangeStats, Reply, SampleFolder, SavedPhoto, Snapshot, TrayEstimateReply, VisionUpdate } from './types.ts';

export interface ClientEvents {
  state(snapshot: Snapshot): void;
  vision(update: VisionUpdate): void;
  error(error: { code: string; message: string }): void;
  connection(connected: boolean): void;
}

const TIMEOUT_MS = 8000;
/** wait before asking a connection the service closed again */
const RECONNECT_MS = 2000;

/** The service's {error: {code, message, params?}} (params: a refusal's specifics, kept for the page's words), or the HTTP status where it sent none. */
export function refusalOf(res: Pick<Response, 'status' | 'statusText'>, data: unknown): Rejection {
  const error = (data as { error?: { code?: string; message?: string; params?: unknown } } | null)?.error;
  const params = error?.params;
  return {
    code: error?.code ?? `http${res.status}`,
    message: error?.message ?? `${res.status} ${res.statusText}`,
    ...(params !== null && typeof params === 'object' && !Array.isArray(params) ? { params: params as Record<string, string | number> } : {}),
  };
}

export class TableClient {
  private socket: Socket | null = null;
  /** the code of the last error the service sent on the connection */
  private lastError: string | null = null;
  private pin: string | null;
  private listeners: Partial<{ [K in keyof ClientEvents]: ClientEvents[K][] }> = {};
  connected = false;

  constructor(
    public tableId: string,
    pin: string | null,
  ) {
    this.pin = pin;
  }

  on<K extends keyof ClientEvents>(event: K, fn: ClientEvents[K]): void {
    (this.listeners[event] ??= [] as never[]).push(fn as never);
  }

  private fire<K extends keyof ClientEvents>(event: K, ...args: Parameters<ClientEvents[K]>): void {
    for (const fn of this.listeners[event] ?? []) (fn as (...a: unknown[]) => void)(...args);
  }

  connect(): void {
    // asked at every (re)connection: a PIN given since the first one is sent again after a reconnect
    const auth = (cb: (data: object) => void) => cb(this.pin ? { table: this.tableId, pin: this.pin } : { table: this.tableId });
    const socket = io({ auth, transports: ['websocket', 'polling'] });
    this.socket = socket;
    socket.on('connect', () => {
      this.connected = true;
      this.fire('connection', true);
    });
    socket.on('disconnect', (reason) => {
      this.connected = false;
      this.fire('connection', false);
      // socket.io retries a lost connection by itself, but not one the service closed: that one is
      // asked again (the service going down for a restart; not a table it does not have)
      if (reason === 'io server disconnect' && this.lastError !== 'unknownTable') setTimeout(() => socket.connect(), RECONNECT_MS);
    });
    socket.on('state', (snap: Snapshot) => this.fire('state', snap));
    socket.on('vision', (update: VisionUpdate) => this.fire('vision', update));
    socket.on('error', (err: { code: string; message: string }) => {
      this.lastError = err.code;
      this.fire('error', err);
    });
  }

  private emit(event: string, payload: unknown): Promise<Ack> {
    const socket = this.socket;
    if (!socket || !socket.connected) return Promise.resolve({ ok: false, error: { code: 'offline', message: 'Not connected to the table.' } });
    return new Promise((resolve) => {
      socket.timeout(TIMEOUT_MS).emit(event, payload, (err: Error | null, reply: Ack) => {
        if (err) resolve({ ok: false, error: { code: 'timeout', message: 'The table did not answer in time.' } });
        else resolve(reply ?? { ok: false, error: { code: 'noReply', message: 'The table gave no answer.' } });
      });
    });
  }

  command(command: { type: string; [k: string]: unknown }): Promise<Ack> {
    return this.emit('command', command);
  }

  async authorise(pin: string): Promise<Ack> {
    const reply = await this.emit('auth', { pin });
    if (reply.ok) this.pin = pin;
    return reply;
  }

  throwDice(request: { dice?: number; faces?: number[]; leaning?: number; keep?: number[] }): Promise<Ack> {
    return this.emit('throw', request);
  }

  /** Keeps these faces of the roll's dice out of the next simulated re-roll, for every screen ([] keeps none). */
  keepDice(faces: number[]): Promise<Ack> {
    return this.emit('keep', { faces });
  }

  /** The dice the camera sees at rest now read into the roll in progress (after an Undo of a reading). */
  readTray(): Promise<Ack> {
    return this.emit('readTray', {});
  }

  press(button: string, press: 'short' | 'long'): Promise<Ack> {
    return this.emit('press', { button, press });
  }

  private async http(method: string, path: string, body?: unknown): Promise<Ack & { data?: unknown }> {
    try {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, this.authHeader());
      const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const data = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
      if (!res.ok) return { ok: false, error: refusalOf(res, data) };
      return { ok: true, data };
    } catch (err) {
      return { ok: false, error: { code: 'network', message: String((err as Error).message ?? err) } };
    }
  }

  /** The saved dice photos with their labels and a README, as one ZIP file to download (PIN). */
  async diceSamplesArchive(): Promise<Reply<{ blob: Blob; filename: string }>> {
    try {
      const res = await fetch(`${this.base()}/dice-samples/archive`, { headers: this.authHeader() });
      if (!res.ok) return { ok: false, error: refusalOf(res, res.headers.get('content-type')?.includes('json') ? await res.json() : null) };
      const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'dice-photos.zip';
      return { ok: true, data: { blob: await res.blob(), filename } };
    } catch (err) {
      return { ok: false, error: { code: 'network', message: String((err as Error).message ?? err) } };
    }
  }

  /** The table PIN as the routes take it, when the client holds one. */
  private authHeader(): Record<string, string> {
    return this.pin ? { authorization: `Bearer ${this.pin}` } : {};
  }

  private base(): string {
    return `/api/tables/${encodeURIComponent(this.tableId)}`;
  }

  async settings(): Promise<{ ruleOverrides: Record<string, unknown> } | null> {
    const r = await this.http('GET', `${this.base()}/settings`);
    return r.ok ? ((r.data as { settings?: { ruleOverrides: Record<string, unknown> } }).settings ?? null) : null;
  }

  saveSettings(settings: { ruleOverrides: Record<string, unknown> }): Promise<Ack> {
    return this.http('PUT', `${this.base()}/settings`, settings);
  }

  async stats(): Promise<DayStats | null> {
    const r = await this.http('GET', `${this.base()}/stats`);
    return r.ok ? (r.data as DayStats) : null;
  }

  /** `from` to `to` (YYYY-MM-DD, the service's days, both included): each day in short, and their figures together. */
  statsRange(from: string, to: string): Promise<Reply<RangeStats>> {
    return this.reply('GET', `${this.base()}/stats?${new URLSearchParams({ from, to })}`);
  }

  /** Where the games of `from` to `to` are, as a CSV file to save (a link: no PIN needed). */
  gamesCsvUrl(from: string, to: string): string {
    return `${this.base()}/stats/games.csv?${new URLSearchParams({ from, to })}`;
  }

  /** The events of the table's last commands (what "What happened" shows), and the journal position they reach. */
  async recentEvents(): Promise<{ seq: number; events: RecentEvent[] } | null> {
    const r = await this.http('GET', `${this.base()}/events`);
    return r.ok ? (r.data as { seq: number; events: RecentEvent[] }) : null;
  }

  /** One seat's hidden information (its dealt expert manoeuvre tiles); needs the PIN. */
  async seatSecrets(seat: number): Promise<Reply<{ tiles?: { plane: number; manoeuvre: string }[] } | null>> {
    const r = await this.reply<{ secrets?: { tiles?: { plane: number; manoeuvre: string }[] } | null }>('GET', `${this.base()}/seats/${seat}/secrets`);
    return r.ok ? { ok: true, data: r.data.secrets ?? null } : r;
  }

  /** Whether requests carry the table PIN (it is kept once the service has taken it). */
  get holdsPin(): boolean {
    return this.pin !== null;
  }

  private async reply<T>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const r = await this.http(method, path, body);
    return r.ok ? { ok: true, data: r.data as T } : { ok: false, error: r.error };
  }

  /** The service's folder of labelled dice photos and how many it holds (PIN). */
  diceSamples(): Promise<Reply<SampleFolder>> {
    return this.reply('GET', `${this.base()}/dice-samples`);
  }

  /** Holds the camera's last frame read with the dice at rest, for the players to label (PIN). */
  /** A visitor at a demo station is still playing: its idle reset waits again (PIN). */
  stillHere(): Promise<Ack> {
    return this.http('POST', `${this.base()}/still-here`);
  }

  holdDicePhoto(): Promise<Reply<HeldPhoto>> {
    return this.reply('POST', `${this.base()}/dice-samples/hold`);
  }

  /** Takes a saved photo out of the folder again (PIN). */
  removeDicePhoto(hold: string): Promise<Reply<{ ok: true; removed: boolean; saved: number; folder: string }>> {
    return this.reply('DELETE', `${this.base()}/dice-samples/${encodeURIComponent(hold)}`);
  }

  /** The cameras' dice reader scored on the saved photos (the last 300) (PIN). */
  measureDicePhotos(): Promise<Reply<PhotosMeasure>> {
    return this.reply('POST', `${this.base()}/dice-samples/evaluate`);
  }

  /** The dice model the cameras read with, a taught one, and the teaching (PIN). */
  diceModel(): Promise<Reply<ModelStatus>> {
    return this.reply('GET', `${this.base()}/dice-model`);
  }

  /** Teaches the dice model the saved photos, in the background on the service (PIN). */
  teachDiceModel(): Promise<Reply<ModelStatus>> {
    return this.reply('POST', `${this.base()}/dice-model/teach`);
  }

  /** Stops the teaching; nothing is written (PIN). */
  stopTeaching(): Promise<Reply<ModelStatus & { stopped: boolean }>> {
    return this.reply('DELETE', `${this.base()}/dice-model/teach`);
  }

  /** Reads with the taught model, or sets it aside for the base one (PIN). */
  useDiceModel(use: 'taught' | 'base'): Promise<Reply<ModelStatus>> {
    return this.reply('PUT', `${this.base()}/dice-model`, { use });
  }

  /** Saves a held photo with the players' labels (again: replaces its labels) (PIN). */
  saveDicePhoto(hold: string, dice: LabelledSampleDie[]): Promise<Reply<SavedPhoto>> {
    return this.reply('POST', `${this.base()}/dice-samples`, { hold, dice });
  }

  /** Where the camera reads the dice, and where that comes from. */
  calibration(): Promise<Reply<CalibrationView>> {
    return this.reply('GET', `${this.base()}/camera/calibration`);
  }

  /** Keeps a calibration and applies it at once (PIN). */
  saveCalibration(calibration: CalibrationConfig): Promise<Reply<CalibrationView>> {
    return this.reply('PUT', `${this.base()}/camera/calibration`, calibration);
  }

  /** Back to the tables file's calibration (PIN). */
  resetCalibration(): Promise<Reply<CalibrationView>> {
    return this.reply('DELETE', `${this.base()}/camera/calibration`);
  }

  /** The tray found in the latest frame of the empty tray, not kept (PIN). */
  estimateTray(): Promise<Reply<TrayEstimateReply>> {
    return this.reply('POST', `${this.base()}/camera/calibration/estimate`);
  }

  frameUrl(): string {
    return `${this.base()}/frame.jpg?t=${Date.now()}`;
  }
}
