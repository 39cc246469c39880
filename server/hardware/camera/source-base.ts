/**
 * What every frame source shares: the status it reports ('status' emitted only on change),
 * the backoff between retries, and frame emission.
 */
import { EventEmitter } from 'node:events';
import type { DeviceStatus } from '../../http/protocol.ts';
import type { Frame, FrameSource } from '../ports.ts';

export interface BackoffOptions {
  /** first delay after a failure, ms */
  initialMs: number;
  /** longest delay, ms */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 10_000 };

/** Delay before retry number `attempt` (1 = first retry): doubling from initialMs, capped at maxMs. */
export function backoffDelay(attempt: number, o: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(o.maxMs, o.initialMs * 2 ** Math.max(0, Math.min(30, attempt - 1)));
}

export abstract class BaseFrameSource extends EventEmitter implements FrameSource {
  abstract readonly kind: 'simulated' | 'real';
  private reported: DeviceStatus | null = null;
  /** failures since the last good frame */
  protected failures = 0;
  /** frames emitted since construction */
  framesEmitted = 0;

  status(): DeviceStatus {
    return this.reported ?? { kind: this.kind, state: 'off', message: 'not started' };
  }

  abstract start(): Promise<void>;
  abstract stop(): Promise<void>;

  protected setStatus(state: DeviceStatus['state'], message?: string): void {
    const next: DeviceStatus = message === undefined ? { kind: this.kind, state } : { kind: this.kind, state, message };
    const prev = this.reported;
    if (prev && prev.state === next.state && prev.message === next.message) return;
    this.reported = next;
    this.emit('status', next);
  }

  protected emitFrame(data: Buffer, mime: Frame['mime']): void {
    this.failures = 0;
    this.framesEmitted++;
    this.setStatus('ok');
    const frame: Frame = { data, mime, at: Date.now() };
    this.emit('frame', frame);
  }

  /** Records a failure; reports 'retrying' and returns the delay before the next attempt. */
  protected fail(message: string, backoff: BackoffOptions): number {
    this.failures++;
    const delay = backoffDelay(this.failures, backoff);
    this.setStatus('retrying', `${message} (attempt ${this.failures}, next in ${(delay / 1000).toFixed(1)} s)`);
    return delay;
  }
}
