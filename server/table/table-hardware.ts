/**
 * Starts each table's devices and wires them to it: the camera pipeline (frame source →
 * DiceFeed → stable readings → `dice` commands, vision updates to the dashboards), and the
 * button box (buttons → commands, table state → LEDs and buzzer cues). The simulated ones
 * (synthetic tray, virtual box) are driven from the dashboard through `table.simulator`.
 */
import type { DeviceStatus } from '../http/protocol.ts';
import type { DiceReader, ButtonBox } from '../hardware/ports.ts';
import { createDiceFeed } from '../hardware/camera/create.ts';
import type { DiceFeed, FeedReading } from '../hardware/camera/dice-feed.ts';
import type { SyntheticTraySource } from '../hardware/camera/synthetic-tray-source.ts';
import type { TableService } from './table-service.ts';
import { facesAmong, withoutLockedOnes } from '../dice/index.ts';
import { SimulatorRequestError, type HardwareView, type Table, type TableLog } from './table.ts';
import { CameraSetup } from './camera-setup.ts';
import { DiceInput } from './dice-input.ts';
import { BoxLink, createBox } from './box-link.ts';
import { SimulatedKeep } from './simulated-keep.ts';

export interface HardwareOptions {
  /** the vision reader, shared by every table; a rejected promise means dice are typed in */
  reader: () => Promise<DiceReader>;
  log: TableLog;
}

/** A reader standing in when the model could not be loaded: every read fails with the reason, so the feed says why. */
function unavailableReader(reason: string): DiceReader {
  return {
    backend: 'none',
    read: async () => {
      throw new Error(`vision unavailable: ${reason}`);
    },
  };
}

/** how long the same camera problem (its attempt numbers aside) is logged once, its repeats counted */
const CAMERA_LOG_WINDOW_MS = 60_000;

/**
 * The camera's status in the log: each change once (a problem as a warning), the same problem retried
 * every few seconds once a minute with how many times it came back, as the button box's log does.
 */
export function cameraStatusLog(log: TableLog, tableId: string, now: () => number = Date.now): (s: DeviceStatus) => void {
  let last = { key: '', at: 0, repeats: 0 };
  return (s) => {
    const key = `${s.state}|${(s.message ?? '').replace(/\d+/g, '#')}`;
    const t = now();
    if (key === last.key && t - last.at < CAMERA_LOG_WINDOW_MS) {
      last.repeats++;
      return;
    }
    const fields = { table: tableId, camera: s, ...(key === last.key && last.repeats ? { repeatedTimes: last.repeats } : {}) };
    if (s.state === 'retrying' || s.state === 'error') log.warn(fields, 'camera problem');
    else log.info(fields, 'camera status');
    last = { key, at: t, repeats: 0 };
  };
}

export class TableHardware {
  feed: DiceFeed | null = null;
  synthetic: SyntheticTraySource | null = null;
  box: ButtonBox | null = null;
  private boxLink: BoxLink | null = null;
  private keep: SimulatedKeep | null = null;
  readonly diceInput: DiceInput;

  constructor(readonly table: Table<any>, private readonly reader: DiceReader, private readonly visionReady: boolean, private readonly log: TableLog) {
    this.diceInput = new DiceInput(table, log as { debug?(obj: unknown, msg?: string): void });
  }

  async start(): Promise<void> {
    const { table } = this;
    const camera = createDiceFeed(table.id, table.config.camera, this.reader);
    if (camera) {
      this.feed = camera.feed;
      this.synthetic = camera.synthetic;
      table.cameraSetup = new CameraSetup(camera.feed, table.config.camera.calibration, table);
      const unusable = table.cameraSetup.start();
      if (unusable) this.log.warn({ table: table.id, problem: unusable }, 'the camera calibration set on the dashboard is not used (the tables file\'s is)');
      this.feed.on('reading', (r: FeedReading) => this.diceInput.reading(r));
      this.feed.on('vision', (v) => table.publishVision(v));
      const statusLog = cameraStatusLog(this.log, table.id);
      this.feed.on('status', (s: DeviceStatus) => {
        statusLog(s);
        table.refresh();
      });
      table.setFrameProvider(() => this.feed?.latestFrame() ?? null);
      table.setSettledReadProvider(() => this.feed?.lastSettledRead() ?? null);
      table.setMotionProvider(() => this.feed?.motion() ?? null);
      if (this.synthetic) {
        const synthetic = this.synthetic;
        const throwOnTray: NonNullable<typeof table.simulator.throwDice> = async ({ dice, faces, leaning = 0, keep: kept = [] }) => {
          const locked = table.adapter.rollLockedOnes(table.state);
          if (kept.length > 0 && (faces || dice !== undefined)) throw new SimulatorRequestError('keep: the dice kept decide how many are thrown; give keep alone (with leaning at most)');
          const keep = [...new Array<number>(locked).fill(1), ...keptAmong(table.adapter.rollFaces(table.state), locked, kept)];
          if (faces) {
            // faces are every die in the tray (like a dice reading): the locked 1s among them sit in the kept zone
            const rolling = withoutLockedOnes(faces, locked);
            synthetic.setDice(rolling, new Array<number>(faces.length - rolling.length).fill(1), true, leaning);
            return { faces };
          }
          const expected = table.adapter.rollDice(table.state);
          const count = dice ?? (expected !== null ? Math.max(0, expected - keep.length) : 3);
          if (kept.length > 0 && count === 0) throw new SimulatorRequestError('keep: every die is kept or locked; nothing is left to throw');
          if (count === 0 && locked > 0) throw new SimulatorRequestError('every die of this roll is a locked 1: nothing is left to throw');
          // a die that lands leaning is one of the dice thrown: the tray holds the roll's dice, one of them unreadable
          if (leaning > count) throw new SimulatorRequestError(`leaning: ${leaning} of ${count} ${count === 1 ? 'die' : 'dice'} thrown; at most every die thrown can land leaning`);
          return { faces: synthetic.throwDice(count - leaning, keep, leaning) };
        };
        table.simulator.throwDice = async (request) => {
          const thrown = await throwOnTray(request);
          table.noteThrow();
          return thrown;
        };
        const keep = new SimulatedKeep(table);
        this.keep = keep;
        table.simulator.kept = () => keep.kept();
        table.simulator.keep = (faces) => keep.keep(faces);
      }
      await this.feed.start();
    }
    const box = await createBox(table.config.serial, this.log, table.id);
    if (box) {
      this.box = box;
      this.boxLink = new BoxLink(table, box, this.log);
      await this.boxLink.start();
    }
    table.setHardwareView(() => this.view());
  }

  view(): HardwareView {
    return {
      leds: this.boxLink?.currentLeds() ?? null,
      box: this.boxLink?.view() ?? null,
      camera: this.feed ? this.feed.status() : { kind: 'none', state: 'off', message: 'no camera configured: dice are typed in' },
      serial: this.box ? this.box.status() : { kind: 'none', state: 'off', message: 'no button box configured' },
      vision: { backend: this.visionReady ? this.reader.backend : null, ready: this.visionReady && this.feed !== null },
    };
  }

  async stop(): Promise<void> {
    this.table.simulator = {};
    this.keep?.stop();
    await this.boxLink?.stop();
    await this.feed?.stop();
  }
}

/** Starts the hardware of every table; the handle stops it all and reports the vision backend for /api/health. */
export async function startHardware(service: TableService, options: HardwareOptions): Promise<{ close(): Promise<void>; health(): Record<string, unknown>; diceReader(): DiceReader | null; tables: Map<string, TableHardware> }> {
  const needsVision = [...service.tables.values()].some((t) => t.config.camera.source !== 'none');
  let reader: DiceReader = unavailableReader('no camera configured');
  let ready = false;
  let visionError: string | null = null;
  if (needsVision) {
    try {
      reader = await options.reader();
      ready = true;
      options.log.info({ backend: reader.backend, model: reader.modelVersion }, `vision ready (backend ${reader.backend}, dice model ${reader.modelVersion ?? 'unnamed'})`);
    } catch (err) {
      visionError = String((err as Error)?.message ?? err);
      reader = unavailableReader(visionError);
      options.log.error({ err }, `vision could not start; dice are typed in: ${visionError}`);
    }
  }
  const tables = new Map<string, TableHardware>();
  for (const table of service.tables.values()) {
    const hw = new TableHardware(table, reader, ready, options.log);
    tables.set(table.id, hw);
    try {
      await hw.start();
    } catch (err) {
      options.log.error({ table: table.id, err }, 'starting the table hardware failed');
      table.setAlert('hardware', `Hardware failed to start: ${String((err as Error)?.message ?? err)}`);
    }
  }
  return {
    tables,
    health: () => ({ vision: { backend: ready ? reader.backend : null, model: ready ? (reader.modelVersion ?? null) : null, ready, error: visionError } }),
    diceReader: () => (ready ? reader : null),
    close: async () => {
      for (const hw of tables.values()) await hw.stop().catch((err) => options.log.warn({ table: hw.table.id, err }, 'stopping hardware failed'));
      (reader as { dispose?: () => void }).dispose?.();
    },
  };
}

/**
 * The dice a player keeps out of a re-roll: they must be among the dice the table has for this roll,
 * less its locked 1s (a locked die stays where it is whatever the player wants).
 */
export function keptAmong(tableFaces: readonly number[] | null, locked: number, keep: readonly number[]): number[] {
  if (keep.length === 0) return [];
  if (tableFaces === null) throw new SimulatorRequestError('keep: no dice are read for this roll yet; throw them all first');
  const free = withoutLockedOnes(tableFaces, locked);
  const canKeep = free.join(', ') || 'none';
  if (facesAmong(keep, free).length < keep.length) throw new SimulatorRequestError(`keep: ${keep.join(', ')} cannot all be kept; the dice that can be kept are ${canKeep} (locked 1s stay where they are)`);
  return [...keep];
}
