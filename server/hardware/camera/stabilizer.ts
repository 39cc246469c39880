/**
 * Turns noisy per-frame dice detections into stable readings.
 * Each die is tracked across frames by position; its face is a vote over its last `window` frames.
 * A new die is decided once one answer has `minVotes` of the window. Once decided, a face changes only
 * when a challenger wins `switchVotes` of the window *and* has been seen `switchLead` times more than
 * the decided face over the last `memory` frames: the dice have not moved since (any motion starts the
 * tracking afresh), so a die read two ways by turns keeps the answer it was first given, while a first
 * answer the reader then contradicts, frame after frame, is still corrected.
 * Unreadable (null) is a vote like a face: a die read as null most of the time stays unreadable and is
 * never guessed. A frame the die was not found in is a vote too ('missed'): a die decided missed is not
 * counted, so a detection that comes and goes (a shadow, a token, a side face seen in some frames) is
 * counted or not with the same hysteresis, instead of changing the reading each time it comes back.
 * A reading is emitted only when every tracked die is decided and the reading differs from the last one.
 */
import type { Zone } from './calibration.ts';

export interface ObservedDie {
  /** centre and size in pixels */
  x: number;
  y: number;
  w: number;
  h: number;
  face: number | null;
  zone: Exclude<Zone, 'outside'>;
}

export interface StabilizerOptions {
  /** frames kept per die for the vote */
  window: number;
  /** votes a face needs (and more than any other) before a new die is decided */
  minVotes: number;
  /** votes a different face needs to replace a decided one */
  switchVotes: number;
  /** frames of a die's history counted for `switchLead` */
  memory: number;
  /** votes a different face also needs beyond the decided one's, over the last `memory` frames */
  switchLead: number;
  /** a die missing from more than this many frames in a row is forgotten */
  maxMisses: number;
  /** a detection matches a die when their centres are closer than this many die sizes */
  matchDistance: number;
}

export const DEFAULT_STABILIZER: StabilizerOptions = { window: 5, minVotes: 3, switchVotes: 5, memory: 30, switchLead: 2, maxMisses: 20, matchDistance: 0.75 };

export function validateStabilizerOptions(o: Partial<StabilizerOptions>, where = 'stabilizer'): StabilizerOptions {
  const r = { ...DEFAULT_STABILIZER, ...o };
  // a longer window than the default memory brings the memory with it unless that is set too
  if (o.memory === undefined && Number.isInteger(r.window)) r.memory = Math.max(r.memory, r.window);
  const int = (k: keyof StabilizerOptions, lo: number, hi: number) => {
    const v = r[k];
    if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`${where}.${k}: must be an integer from ${lo} to ${hi} (got ${v})`);
  };
  int('window', 1, 50);
  int('minVotes', 1, r.window);
  int('switchVotes', r.minVotes, r.window);
  int('memory', r.window, 1000);
  int('switchLead', 0, r.memory);
  int('maxMisses', 0, 50);
  if (!Number.isFinite(r.matchDistance) || r.matchDistance <= 0 || r.matchDistance > 5) {
    throw new RangeError(`${where}.matchDistance: must be a number above 0 and at most 5 (got ${r.matchDistance})`);
  }
  return r;
}

export interface StableDie {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  zone: Exclude<Zone, 'outside'>;
  /** undefined: not decided yet; null: decided unreadable */
  face: number | null | undefined;
  /** decided not there: found in too few of the last frames to count (a detection that comes and goes) */
  missed: boolean;
}

export interface DiceReading {
  /** faces of the readable dice in the rolling zone, ascending */
  faces: number[];
  /** faces of the readable dice in the kept zone, ascending */
  kept: number[];
  /** dice seen but not readable (cocked, blurred, cut by the edge), both zones */
  unreadable: number;
}

/** What one frame said of a tracked die: its face, unreadable (null), or not found. */
type Vote = number | null | 'missed';

interface Track {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  zone: Exclude<Zone, 'outside'>;
  history: Vote[];
  /** undefined: not decided yet; 'missed': decided not there (not counted) */
  face: Vote | undefined;
  misses: number;
}

function voteKey(f: Vote): string {
  return f === null ? 'null' : String(f);
}

export function readingKey(r: DiceReading): string {
  return `${r.faces.join(',')}|${r.kept.join(',')}|${r.unreadable}`;
}

export class DiceStabilizer {
  private readonly opts: StabilizerOptions;
  private tracks: Track[] = [];
  private nextId = 1;
  private lastKey: string | null = null;
  private last: DiceReading | null = null;

  constructor(opts: Partial<StabilizerOptions> = {}) {
    this.opts = validateStabilizerOptions(opts);
  }

  /** Forgets the tracked dice (the dice moved); the last emitted reading is kept, so an unchanged result is not re-emitted. */
  reset(): void {
    this.tracks = [];
  }

  /** The last reading emitted. */
  lastReading(): DiceReading | null {
    return this.last;
  }

  dice(): StableDie[] {
    return this.tracks.map((t) => ({ id: t.id, x: t.x, y: t.y, w: t.w, h: t.h, zone: t.zone, face: t.face === 'missed' ? undefined : t.face, missed: t.face === 'missed' }));
  }

  /** every tracked die decided */
  isStable(): boolean {
    return this.tracks.every((t) => t.face !== undefined);
  }

  current(): DiceReading | null {
    if (!this.isStable()) return null;
    const faces: number[] = [];
    const kept: number[] = [];
    let unreadable = 0;
    for (const t of this.tracks) {
      if (t.face === 'missed') continue;
      if (t.face === null) unreadable++;
      else if (t.zone === 'kept') kept.push(t.face as number);
      else faces.push(t.face as number);
    }
    return { faces: faces.sort((a, b) => a - b), kept: kept.sort((a, b) => a - b), unreadable };
  }

  /** Feeds the dice of one settled frame; returns a reading when it is stable and differs from the last one emitted. */
  push(observed: readonly ObservedDie[]): DiceReading | null {
    for (const [i, d] of observed.entries()) {
      if (![d.x, d.y, d.w, d.h].every(Number.isFinite) || d.w <= 0 || d.h <= 0) throw new RangeError(`die ${i}: position and size must be finite, size positive`);
      if (d.face !== null && !(Number.isInteger(d.face) && d.face >= 1 && d.face <= 6)) throw new RangeError(`die ${i}: face must be 1..6 or null (got ${d.face})`);
    }
    this.match(observed);
    for (const t of this.tracks) this.decide(t);
    const reading = this.current();
    if (!reading) return null;
    const key = readingKey(reading);
    if (key === this.lastKey) return null;
    this.lastKey = key;
    this.last = reading;
    return reading;
  }

  private match(observed: readonly ObservedDie[]): void {
    const pairs: { t: Track; d: number; dist: number }[] = [];
    for (const t of this.tracks) {
      for (let i = 0; i < observed.length; i++) {
        const o = observed[i];
        const size = Math.max(t.w, t.h, o.w, o.h);
        const dist = Math.hypot(t.x - o.x, t.y - o.y);
        if (dist < this.opts.matchDistance * size) pairs.push({ t, d: i, dist });
      }
    }
    // a detection goes to a counted die before one decided missed, however close: a die read off centre
    // now and then would otherwise feed a second track of its own and lose its votes
    const rank = (t: Track) => (t.face === 'missed' ? 1 : 0);
    pairs.sort((a, b) => rank(a.t) - rank(b.t) || a.dist - b.dist);
    const usedTracks = new Set<Track>();
    const usedDice = new Set<number>();
    for (const p of pairs) {
      if (usedTracks.has(p.t) || usedDice.has(p.d)) continue;
      usedTracks.add(p.t);
      usedDice.add(p.d);
      const o = observed[p.d];
      Object.assign(p.t, { x: o.x, y: o.y, w: o.w, h: o.h, zone: o.zone, misses: 0 });
      this.vote(p.t, o.face);
    }
    for (const t of this.tracks) {
      if (usedTracks.has(t)) continue;
      t.misses++;
      this.vote(t, 'missed');
    }
    this.tracks = this.tracks.filter((t) => t.misses <= this.opts.maxMisses);
    for (let i = 0; i < observed.length; i++) {
      if (usedDice.has(i)) continue;
      const o = observed[i];
      this.tracks.push({ id: this.nextId++, x: o.x, y: o.y, w: o.w, h: o.h, zone: o.zone, history: [o.face], face: undefined, misses: 0 });
    }
  }

  private vote(t: Track, v: Vote): void {
    t.history.push(v);
    if (t.history.length > this.opts.memory) t.history.shift();
  }

  private decide(t: Track): void {
    const counts = new Map<string, { face: Vote; n: number }>();
    for (const f of t.history.slice(-this.opts.window)) {
      const k = voteKey(f);
      const c = counts.get(k);
      if (c) c.n++;
      else counts.set(k, { face: f, n: 1 });
    }
    const ranked = [...counts.values()].sort((a, b) => b.n - a.n);
    const top = ranked[0];
    const second = ranked[1]?.n ?? 0;
    if (!top) return;
    if (t.face === undefined) {
      if (top.n >= this.opts.minVotes && top.n > second) t.face = top.face;
      return;
    }
    if (top.face === t.face || top.n < this.opts.switchVotes) return;
    const seen = (f: Vote | undefined) => t.history.filter((v) => v === f).length;
    if (seen(top.face) - seen(t.face) >= this.opts.switchLead) t.face = top.face;
  }
}
