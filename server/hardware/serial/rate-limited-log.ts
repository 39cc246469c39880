/**
 * A log that writes the first message of a kind per window and counts the rest, so a
 * misbehaving box (garbage, floods) cannot fill the log. The count is reported with the next
 * message of that kind after the window.
 */
export type LogLevel = 'info' | 'warn' | 'error';
export type LogFn = (level: LogLevel, message: string) => void;

export const consoleLog: LogFn = (level, message) => {
  const line = `[serial box] ${message}`;
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.info(line);
};

export class RateLimitedLog {
  private readonly kinds = new Map<string, { since: number; suppressed: number }>();

  constructor(
    private readonly log: LogFn,
    private readonly windowMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  write(level: LogLevel, kind: string, message: string): void {
    const t = this.now();
    const k = this.kinds.get(kind);
    if (k && t - k.since < this.windowMs) {
      k.suppressed++;
      return;
    }
    const more = k && k.suppressed > 0 ? ` (and ${k.suppressed} more like this in the last ${Math.round((t - k.since) / 1000)} s)` : '';
    this.kinds.set(kind, { since: t, suppressed: 0 });
    this.log(level, message + more);
  }

  /** Messages not worth limiting (state changes). */
  always(level: LogLevel, message: string): void {
    this.log(level, message);
  }
}
