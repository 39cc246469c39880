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

/**
 * A source that makes one frame per tick (a capture, a file read, a render): ticks never overlap,
 * and each tick says how long to wait before the next one (null: no more ticks).
 */
export abstract class PolledFrameSource extends BaseFrameSource {
  protected running = false;
  private timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> | null = null;

  /** One frame's work; resolves with the delay before the next tick in ms, or null to stop ticking. */
  protected abstract tick(): Promise<number | null>;

  /** Begins ticking (call from start()). */
  protected startTicking(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops ticking and waits for a tick in progress (call from stop()). */
  protected async stopTicking(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.inflight) await this.inflight;
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inflight = this.tick().then(
        (next) => {
          this.inflight = null;
          if (next !== null) this.schedule(next);
        },
        (err: Error) => {
          // tick() handles its own failures; this is a bug, reported rather than thrown into the event loop
          this.inflight = null;
          this.setStatus('error', `frame source failed: ${err.message}`);
        },
      );
    }, delay);
  }
}
