/**
 * What travels between the service and the dashboards (HTTP JSON and socket.io).
 * Shared by server/http (producer) and web/src (consumer). Extend, do not rename.
 */
import type { CommandRejection, GameEvent } from '../games/game-module.ts';

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
  /** 1..6, or null when the die cannot be read (cocked, blurred, cut by the frame edge) */
  face: number | null;
  score: number;
  unreadable?: 'cocked' | 'blurred' | 'edge' | 'unsure';
}

export interface VisionUpdate {
  tableId: string;
  at: number;
  width: number;
  height: number;
  settled: boolean;
  dice: SeenDie[];
  /** URL of the JPEG the dice were read from (GET returns the latest frame) */
  frameUrl: string;
}

/** The full picture of one table, pushed on every change as socket event "state". */
export interface TableSnapshot<S = unknown> {
  tableId: string;
  name: string;
  game: string; // game module id
  /** journal sequence number of the last accepted command */
  seq: number;
  /** server wall clock when this snapshot was made (clients correct their clock with it) */
  serverTime: number;
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
}

export type CommandAck<S = unknown> =
  | { ok: true; state: S; events: GameEvent[]; seq: number }
  | { ok: false; error: CommandRejection };

/**
 * socket.io:
 *  - connect with `auth: { table?: string, pin?: string }` (no PIN: watch only)
 *  - server -> client: "state" TableSnapshot, "vision" VisionUpdate, "error" {code, message}
 *  - client -> server: "command" (command, ack(CommandAck)), "watch" ({table}, ack) to switch tables
 * HTTP:
 *  - GET  /api/health                    {ok, vision: {backend}, tables: [{id, camera, serial}]}
 *  - GET  /api/commands                  {commands: {[type]: JSON schema}}
 *  - GET  /api/tables                    [{id, name}]
 *  - GET  /api/tables/:id/state          TableSnapshot
 *  - POST /api/tables/:id/commands       Authorization: Bearer <PIN>; body = command -> 200 {state, events, seq} | 4xx {error}
 *  - GET  /api/tables/:id/frame.jpg      latest camera frame
 */
export const SOCKET_EVENTS = { state: 'state', vision: 'vision', error: 'error', command: 'command', watch: 'watch' } as const;
