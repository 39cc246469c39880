/**
 * Bytes from the port -> complete lines, or the reason a piece was thrown away.
 * Over-long lines are dropped up to their LF (never buffered beyond the limit), a line whose
 * bytes stop arriving for `staleMs` is dropped as truncated, and a flood of lines beyond
 * `maxLinesPerSecond` is dropped without being parsed.
 */
import { MAX_LINE } from './protocol.ts';

export type DroppedItem = { kind: 'dropped'; error: 'LEN' | 'TRUNCATED' | 'FLOOD'; reason: string };
export type SplitItem = { kind: 'line'; line: string } | DroppedItem;

export interface SplitterOptions {
  maxLine?: number;
  staleMs?: number;
  maxLinesPerSecond?: number;
}

export class LineSplitter {
  private readonly maxLine: number;
  private readonly staleMs: number;
  private readonly maxLinesPerSecond: number;
  private buf: number[] = [];
  private overflowBytes = 0;
  private lastByteAt = 0;
  private windowStart = 0;
  private windowLines = 0;
  private windowDropped = 0;

  constructor(options: SplitterOptions = {}) {
    this.maxLine = options.maxLine ?? MAX_LINE;
    this.staleMs = options.staleMs ?? 500;
    this.maxLinesPerSecond = options.maxLinesPerSecond ?? 200;
  }

  push(chunk: Uint8Array, now: number): SplitItem[] {
    const out: SplitItem[] = [];
    if (chunk.length > 0) {
      const stale = this.flushStale(now);
      if (stale) out.push(stale);
    }
    for (const byte of chunk) {
      this.lastByteAt = now;
      if (byte === 0x0a) {
        this.endLine(now, out);
        continue;
      }
      if (this.overflowBytes > 0) {
        this.overflowBytes++;
        continue;
      }
      if (this.buf.length >= this.maxLine - 1) {
        this.overflowBytes = this.buf.length + 1;
        this.buf = [];
        continue;
      }
      this.buf.push(byte);
    }
    return out;
  }

  /** A partial line that has waited too long: the rest of it is not coming. */
  flushStale(now: number): DroppedItem | null {
    if ((this.buf.length === 0 && this.overflowBytes === 0) || now - this.lastByteAt < this.staleMs) return null;
    return this.discard('partial line with no end');
  }

  /** Drops whatever partial line is held (the port closed). */
  reset(): DroppedItem | null {
    if (this.buf.length === 0 && this.overflowBytes === 0) return null;
    return this.discard('partial line when the port closed');
  }

  private discard(what: string): DroppedItem {
    const n = this.buf.length || this.overflowBytes;
    this.buf = [];
    this.overflowBytes = 0;
    return { kind: 'dropped', error: 'TRUNCATED', reason: `${what} (${n} bytes) dropped` };
  }

  private endLine(now: number, out: SplitItem[]): void {
    if (this.overflowBytes > 0) {
      out.push({ kind: 'dropped', error: 'LEN', reason: `line of ${this.overflowBytes + 1} bytes dropped, the limit is ${this.maxLine}` });
      this.overflowBytes = 0;
      return;
    }
    const bytes = this.buf;
    this.buf = [];
    if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x0d)) return;
    if (now - this.windowStart >= 1000) {
      if (this.windowDropped > 0) {
        out.push({ kind: 'dropped', error: 'FLOOD', reason: `${this.windowDropped} lines dropped: more than ${this.maxLinesPerSecond} lines a second` });
      }
      this.windowStart = now;
      this.windowLines = 0;
      this.windowDropped = 0;
    }
    if (++this.windowLines > this.maxLinesPerSecond) {
      if (this.windowDropped++ === 0) {
        out.push({ kind: 'dropped', error: 'FLOOD', reason: `more than ${this.maxLinesPerSecond} lines a second: dropping lines` });
      }
      return;
    }
    out.push({ kind: 'line', line: Buffer.from(bytes).toString('latin1') });
  }
}
