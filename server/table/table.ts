/**
 * One physical table: applies commands through the game session, journals each accepted
 * command in the database before anyone hears of it, runs the wall-clock stopwatch, keeps
 * play statistics, and reports every change ('change') to the transport layer.
 * Commands are applied synchronously, one at a time, so they can never interleave.
 */
import { EventEmitter } from 'node:events';
import type { GameCommand, GameEvent } from '../games/game-module.ts';
import type { BoxView, CommandAck, DeviceStatus, TableSnapshot, VisionUpdate } from '../http/protocol.ts';
import { hasDefaultName, type TableConfig } from '../config/service-config.ts';
import type { LedState, SettledRead } from '../hardware/ports.ts';
import { classifyStorageError, type StorageFault } from '../store/database.ts';
import type { CommandOrigin, JournalStore, StoredEntry } from '../store/journal-store.ts';
import type { MetaStore } from '../store/meta-store.ts';
import type { StatsStore } from '../store/stats-store.ts';
import type { CameraSetup, SavedCalibration } from './camera-setup.ts';
import { GameSession, REPLAY_STARTS, RESET_TABLE, UNDO } from './game-session.ts';
import { ABANDONED, UNTOUCHED } from '../store/stats-store.ts';
import type { GameAdapter } from './game-adapter.ts';
import { Stopwatch } from './stopwatch.ts';
import { withEvents, type RecentEvent } from './recent-events.ts';
import { trayFaces } from './dice-input.ts';
import { sameFaces } from '../dice/faces.ts';
import type { Face } from '../dice/types.ts';

export interface TableLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface TableStores {
  journal: JournalStore;
  meta: MetaStore;
  stats: StatsStore;
}

export interface TableSettings {
  /** rule value corrections applied to the next newGame ({"path.to.value": value}) */
  ruleOverrides: Record<string, unknown>;
}

export interface TableChange {
  seq: number;
  /** the public view */
  state: unknown;
  events: GameEvent[];
  origin: CommandOrigin;
  /** the command applied, as journaled */
  command: GameCommand;
  /** the full game state before and after, and the events unfiltered (server side only) */
  before: unknown;
  after: unknown;
  rawEvents: GameEvent[];
}

export interface HardwareView {
  camera: DeviceStatus;
  serial: DeviceStatus;
  vision: { backend: string | null; ready: boolean };
  /** the box LEDs as last set */
  leds?: LedState | null;
  /** the box's last note and selection */
  box?: BoxView | null;
}

/** A simulator request that cannot be carried out as asked (answered 400 / `badRequest`, nothing thrown). */
export class SimulatorRequestError extends Error {}

/** What the simulated hardware lets the dashboard do (absent when the table has real devices). */
export interface SimulatorControls {
  /**
   * throws dice on the synthetic camera's tray: `faces` given (those land flat, and `leaning` dice more
   * lean), or `dice` random ones (default: the roll's dice not locked), `leaning` of them leaning
   */
  throwDice?(request: { dice?: number; faces?: number[]; leaning?: number; keep?: number[] }): Promise<{ faces: number[] }>;
  /** the dice kept out of the next simulated re-roll, shared by every screen (server/table/simulated-keep.ts) */
  kept?(): number[];
  /** keeps these faces of the roll's free dice out of the next re-roll (all of them; [] none): the faces kept */
  keep?(faces: readonly number[]): number[];
  /** presses a button on the virtual box */
  press?(button: string, press: 'short' | 'long'): void;
  /** what the last press did, in words, and whether it was refused */
  lastNote?(): { note: string; refused: boolean } | null;
}

export interface TableOptions<S> {
  config: TableConfig;
  adapter: GameAdapter<S>;
  stores: TableStores;
  pin: string;
  log: TableLog;
  now?: () => number;
  /** how often entries the database refused are tried again while no command comes (default 5 s) */
  unsavedRetryMs?: number;
}

const sorted = (faces: readonly number[]) => [...faces].sort((a, b) => a - b);
/** the same dice, in any order (null: no dice read) */
const sameSorted = (a: readonly number[], b: readonly number[] | null) => b !== null && sameFaces(a as Face[], b as Face[]);

const NO_DEVICE: DeviceStatus = { kind: 'none', state: 'off' };

/** A camera frame showing the dice moving counts as "still moving" for this long (a camera that stops sending frames does not hold the roll). */
const DICE_MOVING_FRESH_MS = 2000;
/** Motion going on longer than this is not a throw: Confirm is no longer held for it. */
const DICE_MOVING_HOLD_MS = 10_000;

/** How often the screens are told again whether the tray is busy while it is (motion that stops with no frame, a hold that runs out). */
const TRAY_BUSY_RECHECK_MS = 1000;

/**
 * Why the dice in the tray are not the roll's yet: `moving` (the camera sees them move, or dice thrown on the
 * simulated camera it has not seen at rest since), `deciding` (at rest since they moved, a die's face not decided
 * yet); null: at rest, and read. Confirm is refused meanwhile (for so long at most: `DICE_MOVING_HOLD_MS`).
 */
export type TrayBusy = 'moving' | 'deciding' | null;

/** how long before a demo station clears a game nobody plays the screens say so, at most */
const RESET_WARNING_MS = 60_000;

/** the alert of a restore that left journal entries out (until the next game) */
const RESTORE_ALERT = 'journalSkipped';

export class Table<S = unknown> extends EventEmitter {
  readonly id: string;
  readonly name: string;
  readonly config: TableConfig;
  readonly adapter: GameAdapter<S>;
  readonly session: GameSession<S>;
  private readonly stores: TableStores;
  private readonly log: TableLog;
  private readonly now: () => number;
  private readonly stopwatch: Stopwatch;
  private pinValue: string;
  private seqValue = 0;
  private lastEvents: GameEvent[] = [];
  /** the public view of the last state asked for: a change and the snapshot pushed after it share one */
  private shownView: { state: S; view: unknown } | null = null;
  /** the public events of the last commands, for a page opened mid-game ("What happened") */
  private recent: RecentEvent[] = [];
  /** entries accepted while the database refused writes, written with the next command or the next retry */
  private unsaved: StoredEntry[] = [];
  private storageFault: StorageFault | null = null;
  private unsavedRetry: NodeJS.Timeout | null = null;
  /** the camera's latest settled look at the roll in progress found dice it cannot read (null: none) */
  private diceUnread: { rollKey: string; count: number } | null = null;
  /**
   * the reading the players took back with Undo during the roll in progress: its faces and when (the wall
   * clock, as the camera stamps its frames); the dice still in the tray are not read into the roll again
   * until they move or the players ask (`readTray`). null: none, or a reading taken since
   */
  private undone: { rollKey: string; faces: number[]; at: number } | null = null;
  /** the last reading of the roll in progress that was refused (its faces, sorted): the roll's faces do not hold them */
  private refusedReading: { rollKey: string; faces: number[] } | null = null;
  /** the roll in progress and when it began here (the wall clock): dice that have not moved since are the last roll's */
  private rollBegan: { rollKey: string; at: number } | null = null;
  private readonly unsavedRetryMs: number;
  private readonly extraAlerts = new Map<string, string>();
  /** seq of the newGame that started the game now on the table, and who sent it */
  private gameStart: { seq: number; origin: CommandOrigin } | null = null;
  private lastActivity: number;
  private hardwareView: () => HardwareView = () => ({ camera: NO_DEVICE, serial: NO_DEVICE, vision: { backend: null, ready: false } });
  private lastVision: VisionUpdate | null = null;
  private frameProvider: () => { data: Buffer; mime: string; at: number } | null = () => null;
  private settledReadProvider: () => SettledRead | null = () => null;
  /** while the camera sees the dice move: since when, and its last frame showing it (null: at rest, or no camera) */
  private motionProvider: () => { since: number; last: number } | null = () => null;
  /** when dice were last thrown on the simulated camera (the wall clock): moving until it has read dice at rest since */
  private thrownAt: number | null = null;
  /** when dice were last read into the roll (the wall clock): the roll holds those, whatever the camera decides again on them */
  private diceReadAt: number | null = null;
  /** what the snapshots last said of the tray (`trayBusy`), and the timer that looks again while it is busy */
  private trayBusyShown: TrayBusy = null;
  private trayBusyCheck: NodeJS.Timeout | null = null;
  simulator: SimulatorControls = {};
  /** where the camera reads the dice, set from the dashboard (null: the table has no camera) */
  cameraSetup: CameraSetup | null = null;
  private closed = false;

  constructor(options: TableOptions<S>) {
    super();
    this.config = options.config;
    this.id = options.config.id;
    this.name = options.config.name;
    this.adapter = options.adapter;
    this.stores = options.stores;
    this.log = options.log;
    this.pinValue = options.pin;
    this.now = options.now ?? Date.now;
    this.unsavedRetryMs = options.unsavedRetryMs ?? 5000;
    this.session = new GameSession(options.adapter.module, options.adapter.commandDefaults);
    this.lastActivity = this.now();
    this.stopwatch = new Stopwatch({
      now: this.now,
      onDeadline: () => this.timeUp(),
      onLastMinute: () => this.emit('cue', 'lastMinute'),
    });
  }

  get seq(): number {
    return this.seqValue;
  }

  get state(): S {
    return this.session.state;
  }

  get pin(): string {
    return this.pinValue;
  }

  /** ms since a person (not the attract mode or the stopwatch) last sent a command or pressed a box button */
  idleFor(): number {
    return this.now() - this.lastActivity;
  }

  /**
   * A person did something at the table that sends no command (a box button that selects a plane, a
   * visitor's "Still playing" on a demo station): a demo station's idle reset waits again.
   */
  noteActivity(): void {
    this.lastActivity = this.now();
    if (this.config.kiosk) this.refresh();
  }

  /** When this demo station will reset the table unless a person plays before (null: it will not; kiosk.ts does it). */
  resetAt(): number | null {
    const kiosk = this.config.kiosk;
    if (!kiosk || this.attract) return null;
    const state = this.session.state;
    const outcome = this.adapter.outcome(state);
    if (outcome) return kiosk.resetAfterGameSeconds === null ? null : outcome.at + kiosk.resetAfterGameSeconds * 1000;
    const idleMinutes = this.idleResetMinutes();
    if (this.adapter.running(state) && idleMinutes !== null) return this.lastActivity + idleMinutes * 60_000;
    return null;
  }

  /**
   * How long a demo station's running game may be left alone before it is cleared (null: never). A game
   * nobody has moved in since it started (a stray tap on the attract screen) waits no longer than an
   * empty table waits for the attract mode.
   */
  idleResetMinutes(): number | null {
    const kiosk = this.config.kiosk;
    if (!kiosk || kiosk.idleResetMinutes === null) return null;
    const untouched = this.gameStart !== null && this.seqValue === this.gameStart.seq;
    return untouched && kiosk.attractAfterMinutes !== null ? Math.min(kiosk.idleResetMinutes, kiosk.attractAfterMinutes) : kiosk.idleResetMinutes;
  }

  /** From when the screens warn that a game nobody plays is about to be cleared (a minute before, or halfway for a shorter wait); null: no such warning due. */
  resetWarnAt(): number | null {
    const at = this.resetAt();
    const idle = this.idleResetMinutes();
    if (at === null || idle === null || this.adapter.outcome(this.session.state)) return null;
    return at - Math.min(RESET_WARNING_MS, (idle * 60_000) / 2);
  }

  /** The public events of the last commands (oldest first), and the journal position they reach. */
  recentEvents(): { seq: number; events: RecentEvent[] } {
    return { seq: this.seqValue, events: this.recent };
  }

  /** The game now on the table was started by the attract mode. */
  get attract(): boolean {
    return this.gameStart?.origin === 'attract';
  }

  /** Rebuilds the table from its journal (from the last newGame/resetTable on), then starts the stopwatch. */
  restore(): { replayed: number; skipped: number } {
    const from = this.stores.journal.lastSeqOfType(this.id, REPLAY_STARTS);
    const entries = this.stores.journal.load(this.id, from);
    this.recent = [];
    this.undone = null;
    this.refusedReading = null;
    const bySeq = new Map(entries.map((e) => [e.seq, e]));
    let before = this.session.state;
    const { skipped } = this.session.replay(entries, (seq, events) => {
      this.recent = withEvents(this.recent, seq, this.adapter.publicEvents?.(events) ?? events);
      const entry = bySeq.get(seq);
      // a reading taken back before the restart stays taken back: the dice still in the tray are not read into the roll again
      if (entry) this.followUndone(entry.command, before, this.session.state, entry.at);
      before = this.session.state;
    });
    for (const s of skipped) this.log.warn({ table: this.id, seq: s.seq, error: s.error }, 'journal entry no longer applies; skipped on replay');
    // the players are told, on the table display, until the next game: their game is not what they left
    const first = skipped[0];
    if (first) {
      const what = entries.find((e) => e.seq === first.seq)?.command.type ?? '?';
      const n = skipped.length === 1 ? '1 recorded command no longer applies' : `${skipped.length} recorded commands no longer apply`;
      this.extraAlerts.set(RESTORE_ALERT, `${n} after the restart and ${skipped.length === 1 ? 'was' : 'were'} left out (the first: #${first.seq} ${what}, "${first.error.message}"); the game is as far as the others take it.`);
    } else {
      this.extraAlerts.delete(RESTORE_ALERT);
    }
    this.seqValue = this.stores.journal.lastSeq(this.id);
    const start = entries[0];
    this.gameStart = start && start.command.type === 'newGame' ? { seq: start.seq, origin: start.origin } : null;
    // the players' last move before the restart: a demo station's idle wait and a game left alone's length count from it
    const lastMove = [...entries].reverse().find((e) => e.origin === 'player' || e.origin === 'box');
    if (lastMove) this.lastActivity = Math.min(this.now(), lastMove.at);
    this.lastEvents = [];
    this.stopwatch.follow(this.session.deadline());
    return { replayed: entries.length, skipped: skipped.length };
  }

  /** Applies one validated command. Rejections change nothing. */
  submit(command: GameCommand, origin: CommandOrigin): CommandAck {
    if (this.closed) return { ok: false, error: { code: 'tableClosed', message: 'The table is shutting down.' } };
    if (!this.session.knows(command.type)) return { ok: false, error: { code: 'unknownCommand', message: `Unknown command "${command.type}".` } };
    // a person taking over a demo station's self-playing game starts from a clean table
    if (this.attract && (origin === 'player' || origin === 'box') && command.type !== RESET_TABLE) {
      this.submit({ type: RESET_TABLE }, 'kiosk');
      // the person is here even if their command is refused: the attract game does not start again at once
      this.lastActivity = this.now();
    }
    const unread = this.unreadRefusal(command, origin);
    if (unread) return { ok: false, error: unread };
    const at = this.now();
    const prepared = this.prepare(command, origin);
    const entry: StoredEntry = { seq: this.seqValue + 1, at, command: prepared, origin };
    const before = this.session.state;
    let result;
    try {
      result = this.session.apply(entry);
    } catch (err) {
      // an engine bug must not take the table down; the session is unchanged when apply throws
      this.log.error({ table: this.id, err, command: prepared }, 'the game failed on a command');
      return { ok: false, error: { code: 'internal', message: `The game could not apply "${prepared.type}" (internal error; see the log).` } };
    }
    if (!result.ok) return result;
    this.seqValue = entry.seq;
    this.persist(entry);
    this.followRoll(prepared, before, result.state);
    // dice typed in by a person (and taken) are what the tray holds now
    if (prepared.type === 'dice') this.diceReadAt = Date.now();
    if (prepared.type === 'dice' && origin !== 'camera') {
      this.diceUnread = null;
      this.thrownAt = null;
    }
    if (origin === 'player' || origin === 'box' || (origin === 'camera' && !this.attract)) this.lastActivity = at;
    if (REPLAY_STARTS.includes(prepared.type)) {
      this.recordAbandoned(before, prepared.type, origin, at);
      this.extraAlerts.delete(RESTORE_ALERT);
    }
    if (prepared.type === 'newGame') this.gameStart = { seq: entry.seq, origin };
    else if (REPLAY_STARTS.includes(prepared.type)) this.gameStart = null;
    this.recordOutcome(before, result.state, prepared.type);
    const events = this.adapter.publicEvents?.(result.events) ?? result.events;
    this.lastEvents = events;
    this.recent = withEvents(this.recent, entry.seq, events);
    this.stopwatch.follow(this.session.deadline());
    const change: TableChange = { seq: entry.seq, state: this.viewOf(result.state), events, origin, command: prepared, before, after: result.state, rawEvents: result.events };
    this.notify('applied', change); // devices first (LEDs), so the snapshot pushed next shows them
    this.notify('change', change);
    return { ok: true, state: change.state, events, seq: entry.seq };
  }

  /** The command is accepted and journaled whatever a listener does: a failing listener is logged, not passed to the sender. */
  private notify(event: string, payload: unknown): void {
    for (const listener of this.listeners(event)) {
      try {
        (listener as (p: unknown) => void)(payload);
      } catch (err) {
        this.log.error({ table: this.id, err, event }, 'a table listener failed');
      }
    }
  }

  /** newGame: table settings fill in rule overrides the command does not give, and a seed is fixed before journaling. */
  private prepare(command: GameCommand, origin: CommandOrigin): GameCommand {
    if (command.type !== 'newGame') return command;
    const settings = this.settings();
    const prepared: GameCommand = { ...command };
    if (prepared.seed === undefined) prepared.seed = Math.floor(Math.random() * 0xffffffff);
    if (origin !== 'attract' && Object.keys(settings.ruleOverrides).length > 0) {
      prepared.ruleOverrides = { ...settings.ruleOverrides, ...((command.ruleOverrides as Record<string, unknown> | undefined) ?? {}) };
    }
    return prepared;
  }

  /** Keeps what the roll in progress needs across commands: when it began, and the reading an Undo took back. */
  private followRoll(command: GameCommand, before: S, after: S): void {
    const key = this.adapter.rollKey(after);
    const wall = Date.now(); // the camera stamps its frames with the wall clock
    if (key === null) this.rollBegan = null;
    // not known for a roll restored after a restart (as for the camera's own readings, DiceInput)
    else if (key !== this.adapter.rollKey(before)) this.rollBegan = { rollKey: key, at: wall };
    this.followUndone(command, before, after, wall);
  }

  /**
   * Keeps the reading an Undo took back during the roll in progress (`readingUndone`), taken back at `at`, and
   * the roll's last refused reading (its faces are not the roll's: what an Undo of it, or back onto it, is about).
   */
  private followUndone(command: GameCommand, before: S, after: S, at: number): void {
    const key = this.adapter.rollKey(after);
    // a refused reading left the roll's faces as they were: what the Undo takes back is the reading refused
    const refused = this.adapter.rollReadingRefused(before) && this.refusedReading?.rollKey === key ? this.refusedReading.faces : null;
    const took = refused ?? this.adapter.rollFaces(before);
    // an Undo back onto a refused reading leaves the roll showing that reading (its refusal), not the faces before it
    const left = this.adapter.rollReadingRefused(after) && this.refusedReading?.rollKey === key ? this.refusedReading.faces : this.adapter.rollFaces(after);
    const read = command.faces;
    if (command.type === 'dice' && key !== null && this.adapter.rollReadingRefused(after) && Array.isArray(read) && read.every((f) => typeof f === 'number')) {
      this.refusedReading = { rollKey: key, faces: sorted(read) };
    } else if (key === null) this.refusedReading = null;
    if (command.type === UNDO && key !== null && key === this.adapter.rollKey(before) && took !== null && !sameSorted(took, left)) {
      // a second Undo in a row leaves the tray as it was: the dice there are still those of the first reading taken back
      const faces = this.undone?.rollKey === key ? this.undone.faces : sorted(took);
      this.undone = { rollKey: key, faces, at };
      return;
    }
    if (command.type === 'dice' || key === null || key !== this.undone?.rollKey) this.undone = null;
  }

  /**
   * The reading the players took back with Undo during the roll in progress (its faces, sorted) and when
   * (the wall clock); null when none, or once dice are read into the roll again or the roll ends.
   */
  readingUndone(): { faces: number[]; at: number } | null {
    const undone = this.undone;
    return undone && undone.rollKey === this.adapter.rollKey(this.session.state) ? { faces: undone.faces, at: undone.at } : null;
  }

  /** Dice of the roll in progress that have not moved since it began are the last roll's (false when not known). */
  private fromBeforeRoll(movedAt: number | null | undefined, rollKey: string): boolean {
    return movedAt !== undefined && this.rollBegan?.rollKey === rollKey && (movedAt === null || movedAt < this.rollBegan.at);
  }

  /**
   * The players ask for the dice the camera sees at rest now to be read into the roll in progress (after an
   * Undo of a reading they want back, or a reading the camera kept to itself): sent as the camera's `dice`
   * command. Refused, saying why, without a roll, a working camera, dice at rest every one read, or when
   * the roll already shows those dice.
   */
  readTray(): CommandAck {
    const refuse = (code: string, message: string): CommandAck => ({ ok: false, error: { code, message } });
    if (this.closed) return refuse('tableClosed', 'The table is shutting down.');
    const key = this.adapter.rollKey(this.session.state);
    if (key === null) return refuse('noRoll', 'No roll is in progress: there is nothing to read the dice into.');
    const { camera } = this.hardware();
    if (camera.kind === 'none') return refuse('noCamera', 'This table has no camera: dice are typed in.');
    if (camera.state !== 'ok') return refuse('cameraProblem', `The camera is not reading (${camera.message ?? camera.state}): type the dice in.`);
    if (this.diceMoving()) return refuse('trayMoving', 'The dice are still moving: wait until they are at rest, then read the tray again.');
    const read = this.lastSettledRead();
    if (!read) return refuse('trayNotRead', 'The camera has not read dice at rest yet: wait until it has, or type the dice in.');
    const tray = trayFaces(read.dice);
    if (tray.pending > 0) return refuse('diceDeciding', `The camera is still deciding ${tray.pending === 1 ? 'a die' : `${tray.pending} dice`}: wait a moment, then read the tray again.`);
    if (tray.unreadable > 0) {
      const dice = tray.unreadable === 1 ? 'a die' : `${tray.unreadable} dice`;
      return refuse('trayUnread', `The camera cannot read ${dice} in the tray (leaning or covered): straighten or re-roll ${tray.unreadable === 1 ? 'it' : 'them'}, or type the dice in.`);
    }
    if (tray.faces.length === 0) return refuse('trayEmpty', 'The camera sees no dice in the tray: throw them, or type them in.');
    if (this.fromBeforeRoll(read.movedAt, key)) return refuse('diceFromBefore', 'The dice in the tray are from before this roll (they have not moved since it began): throw them.');
    const shown = this.adapter.rollReadingRefused(this.session.state) ? null : this.adapter.rollFaces(this.session.state);
    if (shown !== null && sameSorted(shown, tray.faces)) return refuse('alreadyRead', `The roll already shows the dice in the tray (${tray.faces.join(' ')}).`);
    return this.submit({ type: 'dice', faces: tray.faces }, 'camera');
  }

  /** The camera sees the dice moving now (frames that stopped coming are no motion, motion that never settles holds only so long). */
  private diceMoving(): boolean {
    return this.trayBusy() === 'moving';
  }

  /** Why the dice in the tray are not the roll's yet (`TrayBusy`); null without a roll in progress (nothing to confirm). */
  trayBusy(): TrayBusy {
    if (this.adapter.rollKey(this.session.state) === null) return null;
    const frameNow = Date.now(); // the camera stamps its frames with the wall clock
    const moving = this.motionProvider();
    if (moving !== null && frameNow - moving.last < DICE_MOVING_FRESH_MS && frameNow - moving.since < DICE_MOVING_HOLD_MS) return 'moving';
    const read = this.lastSettledRead();
    const movedAt = read?.movedAt ?? null;
    const thrown = this.thrownAt;
    // the first frames of a throw come a moment after it: till then the camera still shows the dice before it
    if (thrown !== null && frameNow - thrown < DICE_MOVING_HOLD_MS && (movedAt === null || movedAt < thrown)) return 'moving';
    // dice read into the roll since they moved (by the camera, or typed in by a person) are the roll's: a face the
    // camera decides again on dice lying still holds nothing
    const readSince = this.diceReadAt !== null && movedAt !== null && this.diceReadAt >= movedAt;
    if (read && movedAt !== null && !readSince && frameNow - movedAt < DICE_MOVING_HOLD_MS && trayFaces(read.dice).pending > 0) return 'deciding';
    return null;
  }

  /** Dice were thrown on the simulated camera just now: the tray is moving until the camera has read them at rest. */
  noteThrow(): void {
    this.thrownAt = Date.now();
    this.showTrayBusy();
  }

  /** The screens are told when the tray becomes busy or at rest (they hold Confirm meanwhile), and looked at again while it is busy. */
  private showTrayBusy(): void {
    if (this.closed) return;
    const busy = this.trayBusy();
    if (busy !== this.trayBusyShown) {
      this.trayBusyShown = busy;
      this.refresh();
    }
    if (busy !== null && this.trayBusyCheck === null) {
      this.trayBusyCheck = setTimeout(() => {
        this.trayBusyCheck = null;
        this.showTrayBusy();
      }, TRAY_BUSY_RECHECK_MS);
      this.trayBusyCheck.unref?.();
    }
  }

  /**
   * The camera sees `count` dice of the roll in progress it cannot read (a die leaning, covered): the
   * dice the roll shows are no longer those in the tray, so confirming on them is refused until the
   * camera reads every die or the dice are typed in. 0 clears it.
   */
  setDiceUnread(count: number): void {
    const before = this.unreadDice();
    const rollKey = this.adapter.rollKey(this.session.state);
    this.diceUnread = count > 0 && rollKey !== null ? { rollKey, count } : null;
    // the screens say why Confirm is refused, and stop saying it once the dice are read or typed in
    if (this.unreadDice() !== before) this.refresh();
  }

  /** Dice of the roll in progress the camera cannot read, holding its confirmation (0: none). */
  unreadDice(): number {
    const unread = this.diceUnread;
    return unread && unread.rollKey === this.adapter.rollKey(this.session.state) ? unread.count : 0;
  }

  private unreadRefusal(command: GameCommand, origin: CommandOrigin): { code: string; message: string } | null {
    if (this.adapter.confirmsRoll(command) && origin !== 'attract' && origin !== 'kiosk' && this.adapter.rollKey(this.session.state) !== null) {
      // a re-throw still rolling or being read: confirming now would keep the dice read before it. Frames that stopped
      // coming are no motion, and motion that never settles (a flickering light, a hand in view) holds the roll only so long
      const busy = this.trayBusy();
      if (busy === 'moving') return { code: 'diceMoving', message: 'The dice are still moving: wait until the camera has read them, then confirm.' };
      if (busy === 'deciding') return { code: 'diceBeingRead', message: 'The camera is still reading the dice that moved: wait a moment, then confirm.' };
    }
    const unread = this.diceUnread;
    if (!unread || unread.rollKey !== this.adapter.rollKey(this.session.state)) return null;
    if (!this.adapter.confirmsRoll(command) || origin === 'attract' || origin === 'kiosk') return null;
    const dice = unread.count === 1 ? 'a die' : `${unread.count} dice`;
    return {
      code: 'diceUnread',
      message: `The camera cannot read ${dice} in the tray (leaning or covered), so the dice showing are not those on the table: straighten or re-roll ${unread.count === 1 ? 'it' : 'them'}, or type the dice in, then confirm.`,
    };
  }

  private persist(entry: StoredEntry | null): void {
    const batch = entry ? [...this.unsaved, entry] : this.unsaved;
    try {
      this.stores.journal.append(this.id, batch);
      this.unsaved = [];
      if (this.storageFault) {
        this.log.info({ table: this.id, written: batch.length }, 'database writable again; unsaved journal entries written');
        this.storageFault = null;
      }
    } catch (err) {
      this.unsaved = batch;
      const fault = classifyStorageError(err);
      if (this.storageFault?.code !== fault.code) this.log.error({ table: this.id, err, unsaved: batch.length }, fault.message);
      this.storageFault = fault;
      this.retryUnsaved();
    }
  }

  /** While entries wait unsaved, they are tried again now and then: the disk coming back clears the alert with no command needed. */
  private retryUnsaved(): void {
    if (this.unsavedRetry || this.closed) return;
    this.unsavedRetry = setTimeout(() => {
      this.unsavedRetry = null;
      if (this.closed || this.unsaved.length === 0) return;
      this.persist(null);
      if (!this.storageFault) this.refresh();
    }, this.unsavedRetryMs);
    this.unsavedRetry.unref?.();
  }

  private recordOutcome(before: S, after: S, command: string): void {
    if (command === UNDO && this.adapter.outcome(before) && !this.adapter.outcome(after) && this.gameStart) {
      this.forgetGame(this.gameStart.seq);
      return;
    }
    const ended = this.adapter.outcome(after);
    if (!ended || this.adapter.outcome(before) || !this.gameStart) return;
    this.recordGame({ startedAt: this.adapter.startedAt(after) ?? ended.at, endedAt: ended.at, result: ended.result, cause: ended.cause }, after);
  }

  /**
   * A game people were playing, given up unfinished: a new game in its place, the table reset by a
   * person, or by a demo station when it was left alone. Kept apart from the finished games' figures.
   */
  private recordAbandoned(before: S, command: string, origin: CommandOrigin, at: number): void {
    if (!this.gameStart || this.gameStart.origin === 'attract' || !this.adapter.running(before)) return;
    // the command clearing it the first after its newGame: nobody made a move in it
    const untouched = this.gameStart.seq === this.seqValue - 1;
    const cause = untouched ? UNTOUCHED : origin === 'kiosk' ? 'leftAlone' : command === 'newGame' ? 'newGame' : 'reset';
    const startedAt = this.adapter.startedAt(before) ?? at;
    // a game left alone was played until the visitors' last move, not until the idle reset cleared it
    const endedAt = cause === 'leftAlone' ? Math.max(startedAt, Math.min(at, this.lastActivity)) : at;
    this.recordGame({ startedAt, endedAt, result: ABANDONED, cause }, before);
  }

  /** The game's end was undone: its figures go until it ends again. */
  private forgetGame(startedSeq: number): void {
    try {
      this.stores.stats.forget(this.id, startedSeq);
    } catch (err) {
      this.log.warn({ table: this.id, err }, 'could not take the game out of the statistics');
    }
  }

  private recordGame(game: { startedAt: number; endedAt: number; result: string; cause: string | null }, state: S): void {
    try {
      this.stores.stats.record({
        tableId: this.id,
        game: this.adapter.module.id,
        startedSeq: this.gameStart!.seq,
        ...game,
        attract: this.gameStart!.origin === 'attract',
        details: this.adapter.summary(state),
      });
    } catch (err) {
      this.log.warn({ table: this.id, err }, 'could not record the game in the statistics');
    }
  }

  private timeUp(): void {
    const ack = this.submit({ type: 'timeUp' }, 'stopwatch');
    if (!ack.ok) this.log.warn({ table: this.id, error: ack.error }, 'the stopwatch ran out but timeUp was refused');
    else this.emit('cue', 'alarm');
  }

  settings(): TableSettings {
    return this.stores.meta.get<TableSettings>(this.id, 'settings') ?? { ruleOverrides: {} };
  }

  /** The command that started the last game people played at this table (the journal's, so after a restart too; null: none). */
  lastGame(): GameCommand | null {
    try {
      return this.stores.journal.lastOfType(this.id, 'newGame', ['attract'])?.command ?? null;
    } catch (err) {
      this.log.warn({ table: this.id, err }, 'could not read the last game from the journal');
      return null;
    }
  }

  /** Throws when the database refuses the write. */
  saveSettings(settings: TableSettings): void {
    this.stores.meta.set(this.id, 'settings', settings);
  }

  /** The camera calibration set on the dashboard (server/table/camera-setup.ts); null or undefined: none. */
  savedCalibration(): SavedCalibration | null | undefined {
    return this.stores.meta.get<SavedCalibration | null>(this.id, 'calibration');
  }

  /** Throws when the database refuses the write. */
  saveCalibration(value: SavedCalibration | null): void {
    this.stores.meta.set(this.id, 'calibration', value);
  }

  setHardwareView(view: () => HardwareView): void {
    this.hardwareView = view;
  }

  hardware(): HardwareView {
    return this.hardwareView();
  }

  setAlert(code: string, message: string | null): void {
    const had = this.extraAlerts.get(code);
    if (message === null) this.extraAlerts.delete(code);
    else this.extraAlerts.set(code, message);
    if (had !== (message ?? undefined)) this.refresh();
  }

  alerts(): { code: string; message: string }[] {
    const list = [...this.extraAlerts].map(([code, message]) => ({ code, message }));
    const { camera, serial } = this.hardware();
    if (camera.kind !== 'none' && (camera.state === 'retrying' || camera.state === 'error')) {
      list.push({ code: 'cameraProblem', message: `Camera: ${camera.message ?? camera.state}. Type the dice in until it is back.` });
    }
    if (serial.kind === 'real' && (serial.state === 'retrying' || serial.state === 'error')) {
      list.push({ code: 'boxProblem', message: `Button box: ${serial.message ?? serial.state}. Use the dashboard until it is back.` });
    }
    if (this.storageFault) list.unshift({ ...this.storageFault, message: `${this.storageFault.message} (${this.unsaved.length} unsaved)` });
    return list;
  }

  publishVision(update: VisionUpdate): void {
    this.lastVision = update;
    this.emit('vision', update);
    this.showTrayBusy();
  }

  latestVision(): VisionUpdate | null {
    return this.lastVision;
  }

  setFrameProvider(provider: () => { data: Buffer; mime: string; at: number } | null): void {
    this.frameProvider = provider;
  }

  latestFrame(): { data: Buffer; mime: string; at: number } | null {
    return this.frameProvider();
  }

  setMotionProvider(provider: () => { since: number; last: number } | null): void {
    this.motionProvider = provider;
  }

  setSettledReadProvider(provider: () => SettledRead | null): void {
    this.settledReadProvider = provider;
  }

  /** The camera's last frame read with the dice settled (null without a camera, or before it). */
  lastSettledRead(): SettledRead | null {
    return this.settledReadProvider();
  }

  /** The public view of a state (states are never changed in place, so the last one's view is kept). */
  private viewOf(state: S): unknown {
    if (this.shownView?.state !== state) this.shownView = { state, view: this.adapter.publicView(state) };
    return this.shownView.view;
  }

  /** Something shown in snapshots changed outside a command (device status, alerts): clients need a fresh one. */
  refresh(): void {
    this.emit('refresh');
  }

  snapshot(view: { canControl: boolean; showPin: boolean }): TableSnapshot & Record<string, unknown> {
    const { leds, box, ...hardware } = this.hardware();
    const snap: TableSnapshot & Record<string, unknown> = {
      tableId: this.id,
      name: this.name,
      game: this.adapter.module.id,
      seq: this.seqValue,
      serverTime: this.now(),
      serverUtcOffsetMinutes: -new Date(this.now()).getTimezoneOffset(),
      state: this.viewOf(this.session.state),
      events: this.lastEvents,
      hardware,
      manualDice: hardware.camera.state !== 'ok' || !hardware.vision.ready,
      alerts: this.alerts(),
      canControl: view.canControl,
      undoable: this.session.undoable(),
      undoNext: this.session.nextUndone(),
      diceUnread: this.unreadDice(),
      trayBusy: this.trayBusy(),
      readingUndone: this.readingUndone(),
      attract: this.attract,
      kiosk: this.config.kiosk !== null,
      simulator: { throw: !!this.simulator.throwDice, press: !!this.simulator.press, kept: this.simulator.kept?.() ?? [] },
      resetAt: this.resetAt(),
      resetWarnAt: this.resetWarnAt(),
      leds: leds ?? null,
      box: box ?? null,
    };
    if (hasDefaultName(this.config)) snap.defaultName = true;
    if (view.showPin) snap.pin = this.pinValue;
    return snap;
  }

  close(): void {
    this.closed = true;
    if (this.unsavedRetry) clearTimeout(this.unsavedRetry);
    this.unsavedRetry = null;
    if (this.trayBusyCheck) clearTimeout(this.trayBusyCheck);
    this.trayBusyCheck = null;
    this.stopwatch.stop();
    this.removeAllListeners();
  }
}
