/**
 * The game's stopwatch on the wall clock: calls onDeadline once the deadline has passed
 * (at once when it already has, e.g. after a restart), and onLastMinute a minute before.
 */
const MAX_TIMER_MS = 2_147_483_647;
const LAST_MINUTE_MS = 60_000;

export interface StopwatchOptions {
  now: () => number;
  onDeadline: () => void;
  onLastMinute: () => void;
}

export class Stopwatch {
  private deadline: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private warnTimer: NodeJS.Timeout | null = null;
  /** the deadline already reported: never reported twice (e.g. when timeUp is refused) */
  private fired: number | null = null;

  constructor(private readonly options: StopwatchOptions) {}

  /** Watches this deadline (null: no game running). Calling again with the same deadline changes nothing. */
  follow(deadline: number | null): void {
    if (deadline === this.deadline && (this.timer !== null || deadline === null)) return;
    this.stop();
    this.deadline = deadline;
    if (deadline === null || deadline === this.fired) return;
    const left = deadline - this.options.now();
    if (left > LAST_MINUTE_MS) {
      this.warnTimer = setTimeout(() => this.options.onLastMinute(), Math.min(left - LAST_MINUTE_MS, MAX_TIMER_MS));
      this.warnTimer.unref?.();
    }
    this.arm(Math.max(0, left));
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      const left = (this.deadline ?? 0) - this.options.now();
      if (this.deadline === null) return;
      if (left > 0) return this.arm(left); // woke early (long timers are split)
      this.fired = this.deadline;
      this.deadline = null;
      this.options.onDeadline();
    }, Math.min(ms, MAX_TIMER_MS));
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.warnTimer) clearTimeout(this.warnTimer);
    this.timer = null;
    this.warnTimer = null;
    this.deadline = null;
  }
}
