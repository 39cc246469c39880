/**
 * What travels between the service and the dashboards (HTTP JSON and socket.io).
 * Shared by server/http (producer) and web/src (consumer). Extend, do not rename.
 */
import type { CommandRejection, GameEvent } from '../games/game-module.ts';
import type { CalibrationConfig } from '../hardware/camera/calibration.ts';
import type { LedState } from '../hardware/ports.ts';
import type { SavedSample } from '../store/dice-sample-store.ts';
import type { SampleDie } from '../vision/dice-sample.ts';
import type { FolderEvaluation } from '../vision/evaluate-folder.ts';
import type { DiceModelsStatus } from '../vision/dice-models.ts';

export type DeviceStatus = {
  kind: 'simulated' | 'real' | 'none';
  /** 'ok' working; 'retrying' lost and being retried; 'off' not configured; 'error' failed (see message) */
  state: 'ok' | 'retrying' | 'off' | 'error';
  message?: string;
};

/** One die as the vision pipeline reports it, pixel coordinates of the frame (centre, size). */
export interface SeenDie {
  x: number;
  y: number;
  w: number;
  h: number;
  /** 1..6, or null when the die cannot be read (cocked or a pip covered, blurred, cut by the frame edge) */
  face: number | null;
  score: number;
  unreadable?: 'cocked' | 'blurred' | 'edge' | 'unsure';
  /** the stabiliser has not decided this die yet: `face` is this frame's own read, and the table is told nothing of it */
  pending?: true;
}

export interface VisionUpdate {
  tableId: string;
  at: number;
  width: number;
  height: number;
  settled: boolean;
  dice: SeenDie[];
  /** dice seen just beyond the tray's line (and the kept zone's): never counted, shown so that the players move them in */
  outside?: SeenDie[];
  /** URL of the JPEG the dice were read from (GET returns the latest frame) */
  frameUrl: string;
  /** where the camera reads the dice: the tray and kept zone, 0..1 of the frame (null: the whole frame / none) */
  areas?: CalibrationConfig;
}

/** The full picture of one table, pushed on every change as socket event "state". */
export interface TableSnapshot<S = unknown> {
  tableId: string;
  name: string;
  /** the name is the service's default ("Table 1", no tables file): the pages say it in their language */
  defaultName?: true;
  game: string; // game module id
  /** journal sequence number of the last accepted command */
  seq: number;
  /** server wall clock when this snapshot was made (clients correct their clock with it) */
  serverTime: number;
  /** the server's local time's offset from UTC in minutes: its calendar days are the statistics' (a browser elsewhere works them out with it) */
  serverUtcOffsetMinutes?: number;
  /** the game module's state */
  state: S;
  /** events of the command that produced this snapshot */
  events: GameEvent[];
  hardware: { camera: DeviceStatus; serial: DeviceStatus; vision: { backend: string | null; ready: boolean } };
  /** true when dice must be typed in (no camera, or the camera failed) */
  manualDice: boolean;
  /** problems the table display must show (database read-only, disk full, camera lost...) */
  alerts: { code: string; message: string }[];
  /** can this client send commands (authorised with the PIN)? */
  canControl: boolean;
  /** how many commands Undo can take back now (a new game and a time-out are as far as it goes) */
  undoable: number;
  /** what one Undo would take back now: the command's type and the game's piece it was for (Yorktown: a plane; null: no piece's); null when nothing */
  undoNext?: { seq: number; type: string; piece: number | null } | null;
  /** dice of the roll in progress the camera cannot read: its confirmation is refused until they are read or typed in (0: none) */
  diceUnread: number;
  /** why the dice in the tray are not the roll's yet: moving (thrown, or seen moving), or at rest with a face not decided yet; Confirm is refused meanwhile. null: at rest and read */
  trayBusy?: 'moving' | 'deciding' | null;
  /**
   * the reading the players took back with Undo during the roll in progress: its faces (sorted) and when (the
   * wall clock, as the camera stamps its frames); the dice still in the tray are not read into the roll again
   * until they move or the players read the tray again (`readTray`); null: none
   */
  readingUndone?: { faces: number[]; at: number } | null;
  /**
   * The table's PIN: only for a client that gave it, or for a display on the server machine
   * itself (loopback: the table-side screen) when the table config allows it (showPinOnLocalDisplay).
   */
  pin?: string;
  /** the game on the table was started by the demo station's attract mode (kept out of statistics) */
  attract?: boolean;
  /** the table is a demo station (kiosk settings in its config) */
  kiosk?: boolean;
  /** what the simulated hardware offers: dice thrown on the synthetic camera, the virtual box's buttons */
  /** `kept`: the faces kept out of the next simulated re-roll, the same on every screen (server/table/simulated-keep.ts) */
  simulator?: { throw: boolean; press: boolean; kept: number[] };
  /** a demo station resets the table at this server time unless a person plays (or says they are still playing) before; null: it will not */
  resetAt?: number | null;
  /** from this server time the station's own screen asks whether anyone is still playing (a game nobody plays about to be cleared); null: not due */
  resetWarnAt?: number | null;
  /** the button box's lights as the service last set them (null without a box) */
  leds?: LedState | null;
  /** what the button box (a real one or the virtual one) last did and the plane it has selected (null without a box) */
  box?: BoxView | null;
}

/**
 * What the last press of the box did, or why it did nothing. `seq` counts the box's notes since the
 * service started: a page shows a note once (not again on a reload or another push).
 */
export interface BoxNote {
  seq: number;
  /** when it was pressed (server time) */
  at: number;
  refused: boolean;
  /** in English (the log's words) */
  text: string;
  /** the note's key and parameters (server/hardware/serial/controls.ts NOTES), for the page's words; null: the engine's refusal */
  key: string | null;
  params: Record<string, string | number>;
  /** the engine refused the command the press sent: its code and words */
  rejection?: CommandRejection;
}

export interface BoxView {
  note: BoxNote | null;
  /** the plane the box has selected (null: none) */
  selected: number | null;
  /** what the box shows for Confirm to do (a move's destination), as a note's key and parameters; absent: nothing */
  shown?: { key: string; params: Record<string, string | number>; text: string };
}

/** GET /api/tables/:id/dice-samples: where photos of the players' dice are saved, and how many are. */
export interface DiceSamplesInfo {
  folder: string;
  saved: number;
}

/** POST /api/tables/:id/dice-samples/hold: the photo to label, held by the service for 30 minutes (4 a table). */
export interface DiceSampleHold extends DiceSamplesInfo {
  hold: string;
  /** capture time of the photo */
  at: number;
  width: number;
  height: number;
  /** what the camera read on it */
  dice: SeenDie[];
  /** the part of it the camera reads (the calibrated tray and kept zone, 0..1), null: all of it */
  within: { x: number; y: number; w: number; h: number } | null;
  /** the last time the camera saw the dice move before the photo (null: never): two holds of the same resting dice share it */
  movedAt: number | null;
  imageUrl: string;
}

/** POST /api/tables/:id/dice-samples: the held photo's dice as the players say they are (pixels of the photo). */
export interface DiceSampleBody {
  hold: string;
  dice: SampleDie[];
}

export type DiceSampleSaved = SavedSample & DiceSamplesInfo & { ok: true };

/** POST /api/tables/:id/dice-samples/evaluate: the running reader scored on the saved photos (the last `limit`). */
export type DiceSamplesEvaluation = FolderEvaluation & { folder: string; limit: number };

/** GET /api/tables/:id/dice-model and its changes: the model read, the base and taught ones, the teaching (server/http/model-routes.ts). */
export type DiceModelStatus = DiceModelsStatus;

/** GET, PUT, DELETE /api/tables/:id/camera/calibration: where the camera reads the dice (server/http/camera-routes.ts). */
export type { AreaConfig, CalibrationConfig, CalibrationView } from '../table/camera-setup.ts';

/** POST /api/tables/:id/camera/calibration/estimate: the tray found in a frame of the empty tray (not kept). */
export type { TrayEstimateReply } from '../table/camera-setup.ts';

/**
 * GET /api/tables/:id/stats?day=YYYY-MM-DD (server's local day; default today). `games` and the figures
 * after it are the finished games; games left unfinished (`abandoned`, by cause: newGame, reset,
 * leftAlone; with how long they were played, and the last 20 with their figures where they were left)
 * and the attract games are counted apart.
 */
export type { DayStats as DayStatsReply } from '../store/stats-store.ts';

/**
 * GET /api/tables/:id/stats?from=YYYY-MM-DD&to=YYYY-MM-DD (server's local days, both included, at most
 * 366): `days`, every day of the range oldest first, in short (finished games, wins, left unfinished,
 * attract games, the finished games' mean duration; days without a game too), and `totals`, the range's
 * figures as a day's (`games`, `results`, `causes`, `durationMs`, `abandoned`, `attractGames`, `recent`).
 */
export type { DaySummary, RangeStats as RangeStatsReply, StatsFigures } from '../store/stats-store.ts';

/** GET /api/tables/:id/seats/:seat/secrets. Yorktown: `{tiles: [{plane, manoeuvre}]}` (unused tiles the engine dealt; none in a physical game). */
export interface SeatSecretsReply<T = unknown> {
  tableId: string;
  seat: number;
  secrets: T | null;
}

export type CommandAck<S = unknown> =
  | { ok: true; state: S; events: GameEvent[]; seq: number }
  | { ok: false; error: CommandRejection };

/**
 * socket.io:
 *  - connect with `auth: { table?: string, pin?: string }` (no PIN: watch only; a wrong PIN: watch only + "error")
 *  - server -> client: "state" TableSnapshot, "vision" VisionUpdate, "error" {code, message},
 *    "cue" {cue: BuzzerCue, at} (the virtual button box's buzzer: the dashboard plays it)
 *  - client -> server: "command" (command, ack(CommandAck)), "watch" ({table, pin?}, ack) to switch tables,
 *    "auth" ({pin}, ack({ok} | {ok:false, error})) to give the PIN later (rate-limited per client),
  *    "throw" ({dice?, faces?, leaning?, keep?}, ack) the simulated camera's throw, "press" ({button, press?}, ack) a virtual box button
 *  - commands: the game's own plus "undo" {count?, seat?, seq?} (seat: the phone's that asked, said to the other pages; seq: the command asked about, refused `undoMoved` when another is the last) and "resetTable" (back to an empty table)
 * HTTP:
 *  - GET  /api/health                    {ok, vision: {backend}, tables: [{id, camera, serial}]}
 *  - GET  /api/commands                  {commands: {[type]: JSON schema}}
 *  - GET  /api/tables                    [{id, name, defaultName?}]
 *  - GET  /api/tables/:id/state          TableSnapshot
 *  - POST /api/tables/:id/commands       Authorization: Bearer <PIN>; body = command -> 200 {state, events, seq} | 4xx {error}
 *  - GET  /api/tables/:id/frame.jpg      latest camera frame
 *  - POST /api/tables/:id/auth           Authorization: Bearer <PIN> -> 200 {ok} | 401/403/429 {error}
 *  - GET  /api/tables/:id/seats/:seat/secrets (PIN) SeatSecretsReply: what that seat may look at (Yorktown: its dealt expert manoeuvre tiles)
 *  - GET  /api/tables/:id/stats?day=     DayStatsReply
 *  - GET  /api/tables/:id/stats?from=&to= RangeStatsReply (400 badRange: day with from/to, not a day, from after to, over 366 days)
 *  - GET  /api/tables/:id/stats/games.csv?from=&to= text/csv, one line per game of the range (attachment games-<table>-<from>-to-<to>.csv)
 *  - GET  /api/tables/:id/settings       {settings: {ruleOverrides}, kiosk}
 *  - PUT  /api/tables/:id/settings       (PIN) {ruleOverrides} -> used by the next newGame; 400 badRuleOverride (saved nothing) when no game can be played with them
 *  - POST /api/tables/:id/simulator/keep (PIN) {faces} -> {ok, kept}   (the faces of the roll's dice, not its locked 1s, kept out of the next simulated re-roll, for every screen: the snapshot's `simulator.kept`, following each throw; [] keeps none; 400 when they are not there, 409 without a synthetic camera; the socket's `keep` the same)
 *  - POST /api/tables/:id/simulator/throw (PIN) {dice?, faces?, leaning?: 0..3, keep?} -> {ok, faces}   (409 without a synthetic camera; `leaning`: of the dice thrown, how many land leaning, no face up; with `faces`, dice more than those; 400 when more than are thrown; `keep`: faces among the roll's dice (not its locked 1s) set aside, the rest re-rolled, `faces` the re-rolled ones; 400 when they are not there)
 *  - POST /api/tables/:id/box/press      (PIN) {button, press?} -> {ok}          (409 without a virtual box)
 *  - POST /api/tables/:id/still-here     (PIN) -> {ok, resetAt, resetWarnAt}: a demo station's idle reset waits again
 *  - GET  /api/tables/:id/dice-samples   (PIN) DiceSamplesInfo: the folder of photos of the players' dice
 *  - POST /api/tables/:id/dice-samples/hold (PIN) -> DiceSampleHold: the camera's last settled read, held (409 noSettledRead)
 *  - GET  /api/tables/:id/dice-samples/held/:hold  its photo (404 holdGone)
 *  - POST /api/tables/:id/dice-samples   (PIN) DiceSampleBody -> 201 DiceSampleSaved (400 badSample, 404 holdGone, 500 sampleNotSaved)
 *  - DELETE /api/tables/:id/dice-samples/:hold (PIN) -> {ok, removed, saved, folder}: the held photo taken out of the folder (404 holdGone)
 *  - POST /api/tables/:id/dice-samples/evaluate (PIN) -> DiceSamplesEvaluation (409 noPhotos, visionUnavailable, evaluationRunning)
 *  - GET  /api/tables/:id/dice-samples/archive (PIN) -> application/zip: the folder, with a README.txt (409 noPhotos, 500 archiveFailed)
 *  - GET  /api/tables/:id/dice-model     (PIN) DiceModelStatus: the dice model read, a taught one, the teaching
 *  - POST /api/tables/:id/dice-model/teach (PIN) -> 202 DiceModelStatus: teaching starts (409 tooFewPhotos, teachingRunning)
 *  - DELETE /api/tables/:id/dice-model/teach (PIN) -> {stopped, ...DiceModelStatus}
 *  - PUT  /api/tables/:id/dice-model     (PIN) {use: 'taught'|'base'} -> DiceModelStatus (409 noTaughtModel, teachingRunning)
 *  - GET  /api/tables/:id/camera/calibration  CalibrationView: the tray and kept zone the camera reads, and where they come from (409 noCamera)
 *  - PUT  /api/tables/:id/camera/calibration  (PIN) {tray, keptZone?} -> CalibrationView: kept and applied at once (400 badCalibration, 503 storageFailed)
 *  - DELETE /api/tables/:id/camera/calibration (PIN) -> CalibrationView: back to the tables file's
 *  - POST /api/tables/:id/camera/calibration/estimate (PIN) -> TrayEstimateReply (409 noFrame, 422 noTray)
 * Errors are always {error: {code, message}}: 400 bad input, 401 no PIN, 403 wrong PIN, 429 too many
 * wrong PINs, 404 no such table, 409 refused by the game (state unchanged).
 */
export const SOCKET_EVENTS = { state: 'state', vision: 'vision', error: 'error', command: 'command', watch: 'watch' } as const;
