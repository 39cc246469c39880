/** A small seeded PRNG (mulberry32): the same seed gives the same stream on every machine. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
    for (let i = 0; i < 4; i++) this.next();
  }

  /** uniform in [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  int(lo: number, hiInclusive: number): number {
    return lo + Math.floor(this.next() * (hiInclusive - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** standard normal (Box-Muller) */
  normal(): number {
    const u = Math.max(1e-12, this.next());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /**
   * A stream of its own, seeded by draws already taken (each scaled so its decimals count), so a new
   * feature can vary per die without taking numbers from, and moving, the scene's stream.
   */
  static fromDraws(...scaled: number[]): Rng {
    return new Rng(scaled.reduce((seed, v) => seed ^ Math.floor(v), 0));
  }

  /** a new independent stream derived from this one */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 4294967296));
  }
}

/** Smooth 2-D value noise on a lattice of `cell` pixels, values in [0, 1]. */
export class ValueNoise {
  private readonly grid: Float32Array;
  private readonly gw: number;
  private readonly gh: number;

  constructor(rng: Rng, width: number, height: number, private readonly cell: number) {
    this.gw = Math.ceil(width / cell) + 2;
    this.gh = Math.ceil(height / cell) + 2;
    this.grid = new Float32Array(this.gw * this.gh);
    for (let i = 0; i < this.grid.length; i++) this.grid[i] = rng.next();
  }

  at(x: number, y: number): number {
    const fx = Math.max(0, x / this.cell);
    const fy = Math.max(0, y / this.cell);
    const ix = Math.min(this.gw - 2, Math.floor(fx));
    const iy = Math.min(this.gh - 2, Math.floor(fy));
    const tx = smooth(Math.min(1, fx - ix));
    const ty = smooth(Math.min(1, fy - iy));
    const g = this.grid;
    const i = iy * this.gw + ix;
    const a = g[i] + (g[i + 1] - g[i]) * tx;
    const b = g[i + this.gw] + (g[i + this.gw + 1] - g[i + this.gw]) * tx;
    return a + (b - a) * ty;
  }
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}
