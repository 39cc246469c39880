/**
 * The seams between the table service and the hardware (real or simulated).
 * server/table consumes these; server/hardware/* and server/vision implement them.
 */
import type { EventEmitter } from 'node:events';
import type { DeviceStatus, SeenDie } from '../http/protocol.ts';

/** A camera frame as captured: encoded image bytes. */
export interface Frame {
  data: Buffer;
  mime: 'image/jpeg' | 'image/png';
  /** wall-clock ms when captured */
  at: number;
}

/** A frame the dice were read from once they had settled, with the dice read on it. */
export interface SettledRead {
  frame: Frame;
  width: number;
  height: number;
  dice: SeenDie[];
  /** the part of the frame that was read (the calibrated tray and kept zone); absent: all of it */
  within?: ReadRegion;
  /** the capture time of the last frame that showed the dice moving before this one (null: none seen); equal for two reads of the same resting dice */
  movedAt?: number | null;
}

/**
 * A source of frames (fswebcam, ffmpeg, a synthetic tray, a replay of files).
 * Emits 'frame' (Frame) and 'status' (DeviceStatus). Failures are reported through
 * status and retried by the source; they never throw out of start().
 */
export interface FrameSource extends EventEmitter {
  readonly kind: 'simulated' | 'real';
  status(): DeviceStatus;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A rectangle of the image in normalised coordinates (0..1, origin top-left). */
export interface ReadRegion {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ReadOptions {
  /**
   * Only dice in this part of the image are wanted (the calibrated tray and kept zone): the reader may
   * look nowhere else, and may still report dice a little beyond it.
   */
  within?: ReadRegion;
}

/** The labelled photos a taught dice model learned from: the folder, and their paths within it. */
export interface TaughtPhotos {
  folder: string;
  photos: readonly string[];
}

/** Frame -> dice. One implementation (server/vision) serves the server, dice:eval and the benchmark. */
export interface DiceReader {
  /** 'wasm' | 'tensorflow' | 'cpu' */
  readonly backend: string;
  /** the dice model it reads with, for people (its version, and a table's dice it was taught) */
  readonly modelVersion?: string;
  /** the photos its model was taught (`npm run model:adapt`): no fair measure of it */
  readonly taught?: TaughtPhotos;
  read(image: Buffer, options?: ReadOptions): Promise<{ width: number; height: number; dice: SeenDie[] }>;
}

/** The buttons on the box. */
export type BoxButton =
  | 'plane1' | 'plane2' | 'plane3' | 'plane4'
  | 'move' | 'attack' | 'search' | 'takeoffLanding'
  | 'confirm' | 'undo';

export interface ButtonEvent {
  button: BoxButton;
  press: 'short' | 'long';
  at: number;
}

export type LedMode = 'off' | 'on' | 'blink' | 'pulse';

/** Everything the box can show; the driver sends only what changed. */
export interface LedState {
  planes: [LedMode, LedMode, LedMode, LedMode];
  spotted: LedMode;
  roll: 'off' | 'green' | 'red' | 'greenBlink' | 'redBlink';
}

export type BuzzerCue = 'tick' | 'success' | 'fail' | 'alarm' | 'lastMinute';

/**
 * A button box (the USB serial one, or the virtual one whose buttons are on the dashboard).
 * Emits 'button' (ButtonEvent) and 'status' (DeviceStatus).
 */
export interface ButtonBox extends EventEmitter {
  readonly kind: 'simulated' | 'real';
  status(): DeviceStatus;
  start(): Promise<void>;
  setLeds(state: LedState): void;
  buzz(cue: BuzzerCue): void;
  close(): Promise<void>;
}
