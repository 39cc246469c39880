/**
 * Settled reads kept aside while a player labels them on the dashboard: the camera keeps reading new
 * frames, so the photo being labelled is held here by id (its capture time) until saved. A few per
 * table, each for a limited time; the oldest is forgotten first.
 */
import type { SettledRead } from '../ports.ts';

export interface HeldRead extends SettledRead {
  id: string;
  heldAt: number;
}

export interface HeldReadsOptions {
  /** reads held at once (default 4) */
  limit?: number;
  /** a read is forgotten this long after it was last held (default 30 min) */
  ttlMs?: number;
  now?: () => number;
}

export class HeldReads {
  private readonly held = new Map<string, HeldRead>();
  private readonly limit: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(o: HeldReadsOptions = {}) {
    this.limit = o.limit ?? 4;
    this.ttlMs = o.ttlMs ?? 30 * 60_000;
    this.now = o.now ?? Date.now;
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new RangeError('HeldReads: limit must be an integer ≥ 1');
    if (!(this.ttlMs > 0)) throw new RangeError('HeldReads: ttlMs must be positive');
  }

  /** Holds a read (again: its time restarts); its id is the frame's capture time. */
  hold(read: SettledRead): HeldRead {
    this.expire();
    const id = String(read.frame.at);
    this.held.delete(id);
    const entry: HeldRead = { ...read, id, heldAt: this.now() };
    this.held.set(id, entry);
    for (const oldest of this.held.keys()) {
      if (this.held.size <= this.limit) break;
      this.held.delete(oldest);
    }
    return entry;
  }

  get(id: string): HeldRead | null {
    this.expire();
    return this.held.get(id) ?? null;
  }

  private expire(): void {
    const now = this.now();
    for (const [id, entry] of this.held) if (now - entry.heldAt > this.ttlMs) this.held.delete(id);
  }
}
