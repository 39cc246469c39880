/**
 * The camera half of a table: FrameSource → settle detector → DiceReader → stabilizer.
 * Emits:
 *  - 'vision' (VisionUpdate, dice with their zone): once when the dice start moving, and after each read of settled dice
 *  - 'reading' (FeedReading): a stable reading that differs from the last one
 *  - 'status' (DeviceStatus): the camera path's health; anything but 'ok' means dice must be typed in
 * Keeps the latest good frame for GET /api/tables/:id/frame.jpg. Frames that arrive while the reader is
 * busy replace each other in a single slot (no queue).
 */
import { EventEmitter } from 'node:events';
import type { DeviceStatus, SeenDie, VisionUpdate } from '../../http/protocol.ts';
import type { DiceReader, Frame, FrameSource, SettledRead } from '../ports.ts';
import { calibrationToConfig, readingRegion, watchMask, zoneOf, type CalibrationConfig, type TrayCalibration, type Zone } from './calibration.ts';
import { decodeGrey, GREY_HEIGHT, GREY_WIDTH, imageSize } from './grey.ts';
import { SettleDetector, type SettleOptions } from './settle.ts';
import { DiceStabilizer, type DiceReading, type ObservedDie, type StabilizerOptions } from './stabilizer.ts';

export interface DiceFeedOptions {
  tableId: string;
  source: FrameSource;
  reader: DiceReader;
  calibration?: TrayCalibration;
  settle?: Partial<SettleOptions>;
  stabilizer?: Partial<StabilizerOptions>;
  /** URL of the latest frame, put in every VisionUpdate */
  frameUrl?: string;
  /** this many undecodable frames in a row put the feed in 'retrying' (default 3) */
  corruptLimit?: number;
  /** no frame for this long puts the feed in 'retrying' (default 5000 ms) */
  stallMs?: number;
}

export type VisionDie = SeenDie & { zone: Exclude<Zone, 'outside'> };
export type FeedVision = Omit<VisionUpdate, 'dice'> & { dice: VisionDie[] };
export interface FeedReading extends DiceReading {
  tableId: string;
  /** capture time of the frame that completed the reading */
  at: number;
  /** capture time of the last frame with the dice moving before it (null: not seen moving since the camera started) */
  movedAt: number | null;
}

export interface FeedCounters {
  framesIn: number;
  framesDropped: number;
  framesCorrupt: number;
  reads: number;
  readErrors: number;
  readings: number;
}

export class DiceFeed extends EventEmitter {
  readonly tableId: string;
  private readonly source: FrameSource;
  private readonly reader: DiceReader;
  private calibration: TrayCalibration;
  /** the calibration as vision updates carry it (made once per calibration, not per frame) */
  private areas: CalibrationConfig;
  private readonly settle: SettleDetector;
  private readonly stabilizer: DiceStabilizer;
  private readonly frameUrl: string;
  private readonly corruptLimit: number;
  private readonly stallMs: number;
  private running = false;
  private busy: Promise<void> | null = null;
  private pending: Frame | null = null;
  private latest: Frame | null = null;
  private lastRead: SettledRead | null = null;
  private corruptRun = 0;
  private lastCorrupt = '';
  private readError: string | null = null;
  private stalled = false;
  private stallTimer: NodeJS.Timeout | null = null;
  private movingReported = false;
  private lastMovingAt: number | null = null;
  /** capture time of the first frame of the motion going on (null at rest) */
  private motionStartedAt: number | null = null;
  private current: DeviceStatus | null = null;
  readonly counters: FeedCounters = { framesIn: 0, framesDropped: 0, framesCorrupt: 0, reads: 0, readErrors: 0, readings: 0 };

  private readonly onFrame = (f: Frame) => this.accept(f);
  private readonly onSourceStatus = () => this.updateStatus();

  constructor(o: DiceFeedOptions) {
    super();
    if (typeof o.tableId !== 'string' || !o.tableId) throw new Error('DiceFeed: tableId must be a non-empty string');
    this.tableId = o.tableId;
    this.source = o.source;
    this.reader = o.reader;
    this.calibration = o.calibration ?? { tray: null, keptZone: null };
    this.areas = calibrationToConfig(this.calibration);
    this.settle = new SettleDetector(o.settle ?? {}, watchMask(this.calibration, GREY_WIDTH, GREY_HEIGHT));
    this.stabilizer = new DiceStabilizer(o.stabilizer ?? {});
    this.frameUrl = o.frameUrl ?? `/api/tables/${encodeURIComponent(o.tableId)}/frame.jpg`;
    this.corruptLimit = o.corruptLimit ?? 3;
    this.stallMs = o.stallMs ?? 5000;
    if (!Number.isInteger(this.corruptLimit) || this.corruptLimit < 1) throw new RangeError('DiceFeed: corruptLimit must be an integer ≥ 1');
    if (!Number.isFinite(this.stallMs) || this.stallMs < 50) throw new RangeError('DiceFeed: stallMs must be at least 50 ms');
  }

  get sourceKind(): FrameSource['kind'] {
    return this.source.kind;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.source.on('frame', this.onFrame);
    this.source.on('status', this.onSourceStatus);
    this.armStall();
    await this.source.start();
    this.updateStatus();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.source.off('frame', this.onFrame);
    this.source.off('status', this.onSourceStatus);
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
    this.pending = null;
    await this.source.stop();
    if (this.busy) await this.busy;
  }

  /** Resolves once no frame is being processed or waiting. */
  async whenIdle(): Promise<void> {
    while (this.busy) await this.busy;
  }

  /** The latest frame that decoded as an image (null before the first one). */
  latestFrame(): Frame | null {
    return this.latest;
  }

  /** The last frame read once the dice had settled, with the dice shown for it (null before the first). */
  lastSettledRead(): SettledRead | null {
    return this.lastRead;
  }

  /** The last stable reading emitted. */
  lastReading(): DiceReading | null {
    return this.stabilizer.lastReading();
  }

  settled(): boolean {
    return this.settle.isSettled();
  }

  /** While the dice move: when the motion began and the last frame showing it (null once they rest, or before any motion). */
  motion(): { since: number; last: number } | null {
    return this.settle.isSettled() || this.motionStartedAt === null || this.lastMovingAt === null ? null : { since: this.motionStartedAt, last: this.lastMovingAt };
  }

  /** Camera health as the table shows it. */
  status(): DeviceStatus {
    return this.current ?? this.computeStatus();
  }

  /** True when dice must be typed in by hand. */
  manualDice(): boolean {
    return this.status().state !== 'ok';
  }

  /** Where the tray and the kept zone are taken to be. */
  currentCalibration(): TrayCalibration {
    return this.calibration;
  }

  /** Replaces the tray calibration (new dice are tracked from the next frame). */
  setCalibration(cal: TrayCalibration): void {
    this.calibration = cal;
    this.areas = calibrationToConfig(cal);
    this.settle.setMask(watchMask(cal, GREY_WIDTH, GREY_HEIGHT));
    this.stabilizer.reset();
  }

  private accept(frame: Frame): void {
    if (!this.running) return;
    this.counters.framesIn++;
    this.armStall();
    if (this.stalled) {
      this.stalled = false;
      this.updateStatus();
    }
    if (this.busy) {
      if (this.pending) this.counters.framesDropped++;
      this.pending = frame;
      return;
    }
    this.startProcessing(frame);
  }

  private startProcessing(frame: Frame): void {
    this.busy = this.process(frame).finally(() => {
      this.busy = null;
      const next = this.pending;
      this.pending = null;
      if (next && this.running) this.startProcessing(next);
    });
  }

  private async process(frame: Frame): Promise<void> {
    let grey;
    let size;
    try {
      [grey, size] = await Promise.all([decodeGrey(frame.data), imageSize(frame.data)]);
    } catch (err) {
      this.counters.framesCorrupt++;
      this.corruptRun++;
      this.lastCorrupt = (err as Error).message;
      this.updateStatus();
      return;
    }
    this.corruptRun = 0;
    this.latest = frame;
    const st = this.settle.push(grey);
    if (!st.settled) {
      this.lastMovingAt = frame.at;
      this.motionStartedAt ??= frame.at;
      this.stabilizer.reset();
      if (!this.movingReported) {
        this.movingReported = true;
        this.emitVision(frame.at, size.width, size.height, false, []);
      }
      this.updateStatus();
      return;
    }
    this.movingReported = false;
    this.motionStartedAt = null;
    let result;
    const within = readingRegion(this.calibration);
    try {
      this.counters.reads++;
      result = await this.reader.read(frame.data, within ? { within } : undefined);
      this.readError = null;
    } catch (err) {
      this.counters.readErrors++;
      this.readError = (err as Error).message;
      this.updateStatus();
      return;
    }
    this.updateStatus();
    if (!this.running) return;
    const inTray: VisionDie[] = [];
    // the reader sees a little beyond the region (vision/region.ts): a die over the tray's line is
    // never counted, but shown, for the players to move it in
    const outside: SeenDie[] = [];
    for (const d of result.dice) {
      const zone = zoneOf(this.calibration, d.x, d.y, result.width, result.height);
      if (zone !== 'outside') inTray.push({ ...d, zone });
      else outside.push(d);
    }
    const observed: ObservedDie[] = inTray.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face, zone: d.zone }));
    const reading = this.stabilizer.push(observed);
    // show the faces the table will use once a die is decided, and which dice it is still deciding
    const tracked = this.stabilizer.dice();
    const shown = inTray.map((d): VisionDie => {
      const t = tracked.find((s) => s.x === d.x && s.y === d.y);
      if (!t) return d;
      if (t.face === undefined) return { ...d, pending: true };
      return t.face !== d.face ? { ...d, face: t.face } : d;
    });
    this.lastRead = { frame, width: result.width, height: result.height, dice: shown, movedAt: this.lastMovingAt, ...(within ? { within } : {}) };
    this.emitVision(frame.at, result.width, result.height, true, shown, outside);
    if (reading) {
      this.counters.readings++;
      const out: FeedReading = { tableId: this.tableId, at: frame.at, movedAt: this.lastMovingAt, ...reading };
      this.emit('reading', out);
    }
  }

  private emitVision(at: number, width: number, height: number, settled: boolean, dice: VisionDie[], outside: SeenDie[] = []): void {
    const v: FeedVision = { tableId: this.tableId, at, width, height, settled, dice, outside, frameUrl: this.frameUrl, areas: this.areas };
    this.emit('vision', v);
  }

  private armStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      if (!this.running) return;
      this.stalled = true;
      this.updateStatus();
    }, this.stallMs);
    this.stallTimer.unref?.();
  }

  private computeStatus(): DeviceStatus {
    const kind = this.source.kind;
    const s = this.source.status();
    if (s.state !== 'ok') return { ...s, kind };
    if (this.corruptRun >= this.corruptLimit) {
      return { kind, state: 'retrying', message: `camera frames are corrupt (${this.corruptRun} in a row: ${this.lastCorrupt})` };
    }
    if (this.stalled) return { kind, state: 'retrying', message: `no frame from the camera for ${(this.stallMs / 1000).toFixed(1)} s` };
    if (this.readError) return { kind, state: 'retrying', message: `dice reader failed: ${this.readError}` };
    return { kind, state: 'ok' };
  }

  private updateStatus(): void {
    const next = this.computeStatus();
    const prev = this.current;
    if (prev && prev.state === next.state && prev.message === next.message && prev.kind === next.kind) return;
    this.current = next;
    this.emit('status', next);
  }
}
