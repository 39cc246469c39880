/**
 * The button box on the dashboard: a ButtonBox of kind 'simulated' whose buttons are pressed
 * with press(), and which keeps its LED state for the dashboard to draw ('leds' event, leds()).
 */
import { EventEmitter } from 'node:events';
import type { DeviceStatus } from '../../http/protocol.ts';
import type { BoxButton, ButtonBox, ButtonEvent, BuzzerCue, LedState } from '../ports.ts';
import { ALL_OFF, BUTTON_NAMES, BUZZER_CUES, ledStateProblem } from './messages.ts';

const BUTTONS = new Set<string>(Object.values(BUTTON_NAMES));

export class VirtualButtonBox extends EventEmitter implements ButtonBox {
  readonly kind = 'simulated' as const;
  private current: DeviceStatus = { kind: 'simulated', state: 'off', message: 'not started' };
  private state: LedState = structuredClone(ALL_OFF);
  private lastCue: { cue: BuzzerCue; at: number } | null = null;

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  status(): DeviceStatus {
    return { ...this.current };
  }

  async start(): Promise<void> {
    this.setStatus({ kind: 'simulated', state: 'ok', message: 'buttons on the dashboard' });
  }

  /** A button pressed on the dashboard. Throws on an unknown button or press, or when closed. */
  press(button: BoxButton, press: 'short' | 'long' = 'short'): ButtonEvent {
    if (!BUTTONS.has(button)) throw new TypeError(`unknown box button ${JSON.stringify(button)}`);
    if (press !== 'short' && press !== 'long') throw new TypeError(`press must be 'short' or 'long', not ${JSON.stringify(press)}`);
    if (this.current.state !== 'ok') throw new Error('the virtual box is not started');
    const event: ButtonEvent = { button, press, at: this.now() };
    this.emit('button', event);
    return event;
  }

  setLeds(state: LedState): void {
    const problem = ledStateProblem(state);
    if (problem) throw new TypeError(`setLeds: ${problem}`);
    if (JSON.stringify(state) === JSON.stringify(this.state)) return;
    this.state = structuredClone(state);
    this.emit('leds', this.leds());
  }

  leds(): LedState {
    return structuredClone(this.state);
  }

  buzz(cue: BuzzerCue): void {
    if (!Object.hasOwn(BUZZER_CUES, cue)) throw new TypeError(`buzz: unknown cue ${JSON.stringify(cue)}`);
    this.lastCue = { cue, at: this.now() };
    this.emit('buzz', { ...this.lastCue });
  }

  /** The last cue played (the dashboard plays it as a sound). */
  lastBuzz(): { cue: BuzzerCue; at: number } | null {
    return this.lastCue ? { ...this.lastCue } : null;
  }

  async close(): Promise<void> {
    this.setStatus({ kind: 'simulated', state: 'off', message: 'closed' });
  }

  private setStatus(s: DeviceStatus): void {
    if (s.state === this.current.state && s.message === this.current.message) return;
    this.current = s;
    this.emit('status', this.status());
  }
}
