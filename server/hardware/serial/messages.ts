/**
 * What the box says (decoded from parsed lines) and what the host tells it (verbs and arguments).
 * Vocabulary of protocol version 1 (firmware/PROTOCOL.md).
 */
import type { BoxButton, BuzzerCue, LedMode, LedState } from '../ports.ts';
import type { RawMessage } from './protocol.ts';

export const BUTTON_NAMES: Record<string, BoxButton> = {
  P1: 'plane1',
  P2: 'plane2',
  P3: 'plane3',
  P4: 'plane4',
  MOVE: 'move',
  ATTACK: 'attack',
  SEARCH: 'search',
  TOL: 'takeoffLanding',
  CONFIRM: 'confirm',
  UNDO: 'undo',
};

export type BoxMessage =
  | { type: 'hello'; seq: number; product: string; protocol: number; firmware: string; capabilities: Set<string> }
  | { type: 'button'; seq: number; button: BoxButton; press: 'short' | 'long' }
  | { type: 'ack'; seq: number; ackSeq: number }
  /** ackSeq is null when the box could not read the sequence number of the line it rejects */
  | { type: 'error'; seq: number; ackSeq: number | null; code: string; detail: string | null }
  /** a verb this driver does not know (a newer box): ignored, never an error */
  | { type: 'unknown'; seq: number; verb: string };

export type DecodeResult = { ok: true; message: BoxMessage } | { ok: false; reason: string };

const SEQ = /^[0-9A-F]{2}$/;

export function decodeBoxMessage(raw: RawMessage): DecodeResult {
  const { seq, verb, args } = raw;
  switch (verb) {
    case 'HELLO': {
      const [product, protocol, firmware, caps] = args;
      if (args.length < 3 || !/^\d{1,3}$/.test(protocol)) return { ok: false, reason: `HELLO needs product, protocol and firmware: ${args.join(' ')}` };
      return {
        ok: true,
        message: { type: 'hello', seq, product, protocol: Number(protocol), firmware, capabilities: new Set(caps ? caps.split(',').filter(Boolean) : []) },
      };
    }
    case 'BTN': {
      const button = Object.hasOwn(BUTTON_NAMES, args[0]) ? BUTTON_NAMES[args[0]] : undefined;
      if (args.length !== 2 || !button || (args[1] !== 'S' && args[1] !== 'L')) return { ok: false, reason: `bad button event: ${args.join(' ')}` };
      return { ok: true, message: { type: 'button', seq, button, press: args[1] === 'L' ? 'long' : 'short' } };
    }
    case 'ACK':
      if (args.length !== 1 || !SEQ.test(args[0])) return { ok: false, reason: `bad ACK: ${args.join(' ')}` };
      return { ok: true, message: { type: 'ack', seq, ackSeq: parseInt(args[0], 16) } };
    case 'ERR': {
      const [ref, code, detail] = args;
      if (args.length < 2 || args.length > 3 || (ref !== '--' && !SEQ.test(ref))) return { ok: false, reason: `bad ERR: ${args.join(' ')}` };
      return { ok: true, message: { type: 'error', seq, ackSeq: ref === '--' ? null : parseInt(ref, 16), code, detail: detail ?? null } };
    }
    default:
      return { ok: true, message: { type: 'unknown', seq, verb } };
  }
}

/** LED targets as the protocol names them, in a fixed order. */
export const LED_TARGETS = ['P1', 'P2', 'P3', 'P4', 'SPOT', 'ROLL'] as const;
export type LedTarget = (typeof LED_TARGETS)[number];

const MODE: Record<LedMode, string> = { off: 'OFF', on: 'ON', blink: 'BLINK', pulse: 'PULSE' };
const ROLL: Record<LedState['roll'], string> = { off: 'OFF', green: 'G', red: 'R', greenBlink: 'GBLINK', redBlink: 'RBLINK' };

/** The protocol value of every LED target for a state; `pulse` falls back to blink on a box without PULSE. */
export function ledValues(state: LedState, canPulse: boolean): Record<LedTarget, string> {
  const mode = (m: LedMode) => MODE[m === 'pulse' && !canPulse ? 'blink' : m];
  return {
    P1: mode(state.planes[0]),
    P2: mode(state.planes[1]),
    P3: mode(state.planes[2]),
    P4: mode(state.planes[3]),
    SPOT: mode(state.spotted),
    ROLL: ROLL[state.roll],
  };
}

export const BUZZER_CUES: Record<BuzzerCue, string> = { tick: 'TICK', success: 'OK', fail: 'FAIL', alarm: 'ALARM', lastMinute: 'LAST' };

const LED_MODES = new Set<string>(['off', 'on', 'blink', 'pulse']);
const ROLL_MODES = new Set<string>(['off', 'green', 'red', 'greenBlink', 'redBlink']);

/** Checks an LedState from outside (the service, the dashboard); returns a reason or null. */
export function ledStateProblem(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return 'LED state must be an object';
  const s = state as Partial<LedState>;
  if (!Array.isArray(s.planes) || s.planes.length !== 4 || !s.planes.every((m) => LED_MODES.has(m as string))) {
    return 'planes must be four of off/on/blink/pulse';
  }
  if (!LED_MODES.has(s.spotted as string)) return 'spotted must be off/on/blink/pulse';
  if (!ROLL_MODES.has(s.roll as string)) return 'roll must be off/green/red/greenBlink/redBlink';
  return null;
}

export const ALL_OFF: LedState = { planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'off' };
