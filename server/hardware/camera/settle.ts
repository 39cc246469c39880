/**
 * Motion and settle detection over small grey frames: frame differencing inside the watched area
 * (tray and kept zone). Dice count as settled after `stillFrames` consecutive still frames.
 * Pure: feed it frames, it says what it saw.
 */

export interface GreyFrame {
  width: number;
  height: number;
  /** one byte per pixel, row-major */
  data: Uint8Array;
}

export interface SettleOptions {
  /** a pixel changed when its grey level moved by more than this (0..255) */
  pixelThreshold: number;
  /** a frame moved when more than this share of the watched pixels changed */
  motionFraction: number;
  /** consecutive still frames needed before the dice count as settled */
  stillFrames: number;
  /**
   * camera shake forgiven, in grey pixels (one is 4 pixels of a 640-wide frame): a pixel changed only when
   * its new level is more than pixelThreshold from every level this close to it in the frame before
   */
  shiftTolerance: number;
  /**
   * compare after matching the frames' exposure: the frame before is scaled by the ratio of the two
   * frames' mean levels over the watched area (a webcam's exposure and mains light flicker by a few percent)
   */
  matchExposure: boolean;
  /**
   * camera shake followed, in grey pixels: when a frame looks moved, the whole frame's shift from the frame
   * before (up to this far each way) is estimated and the frames compared again once aligned; 0: never
   */
  alignShift: number;
}

export const DEFAULT_SETTLE: SettleOptions = { pixelThreshold: 18, motionFraction: 0.002, stillFrames: 3, shiftTolerance: 1, matchExposure: true, alignShift: 2 };

/** The most exposure matching makes up for; a larger change of light is motion. */
const MAX_EXPOSURE_RATIO = 1.25;

export interface SettleState {
  /** share of watched pixels that changed since the previous frame (0 for the first frame) */
  motion: number;
  moving: boolean;
  settled: boolean;
  /** this frame ended a still run: the dice have just come to rest */
  justSettled: boolean;
  /** this frame broke a settled state: something moved in the tray */
  justMoved: boolean;
  /** the camera shake allowed for, in grey pixels: the shift from the frame before when comparing the frames aligned left fewer pixels changed, else none */
  shift: Shift;
}

/** How far a frame's picture moved from the frame before: what lay at (x, y) now lies at (x + dx, y + dy). */
export interface Shift {
  dx: number;
  dy: number;
}

const NO_SHIFT: Shift = { dx: 0, dy: 0 };

export function validateSettleOptions(o: Partial<SettleOptions>, where = 'settle'): SettleOptions {
  const r = { ...DEFAULT_SETTLE, ...o };
  if (!Number.isFinite(r.pixelThreshold) || r.pixelThreshold < 1 || r.pixelThreshold > 254) {
    throw new RangeError(`${where}.pixelThreshold: must be a number from 1 to 254 (got ${r.pixelThreshold})`);
  }
  if (!Number.isFinite(r.motionFraction) || r.motionFraction <= 0 || r.motionFraction >= 1) {
    throw new RangeError(`${where}.motionFraction: must be between 0 and 1, exclusive (got ${r.motionFraction})`);
  }
  if (!Number.isInteger(r.stillFrames) || r.stillFrames < 1 || r.stillFrames > 100) {
    throw new RangeError(`${where}.stillFrames: must be an integer from 1 to 100 (got ${r.stillFrames})`);
  }
  if (!Number.isInteger(r.shiftTolerance) || r.shiftTolerance < 0 || r.shiftTolerance > 3) {
    throw new RangeError(`${where}.shiftTolerance: must be an integer from 0 to 3 (got ${r.shiftTolerance})`);
  }
  if (typeof r.matchExposure !== 'boolean') throw new RangeError(`${where}.matchExposure: must be true or false (got ${r.matchExposure})`);
  if (!Number.isInteger(r.alignShift) || r.alignShift < 0 || r.alignShift > 4) {
    throw new RangeError(`${where}.alignShift: must be an integer from 0 to 4 (got ${r.alignShift})`);
  }
  return r;
}

/** The mean of each pixel's 3×3 neighbourhood (clipped at the edges). */
export function smoothGrey(f: GreyFrame): GreyFrame {
  const { width: w, height: h, data } = f;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) {
          sum += data[yy * w + xx];
          n++;
        }
      }
      out[y * w + x] = Math.round(sum / n);
    }
  }
  return { width: w, height: h, data: out };
}

/** One pass of a sliding minimum and maximum, `r` pixels each way along rows or along columns. */
function slidingRange(low: Uint8Array, high: Uint8Array, width: number, height: number, r: number, alongRows: boolean): { low: Uint8Array; high: Uint8Array } {
  const outLow = new Uint8Array(width * height);
  const outHigh = new Uint8Array(width * height);
  const [step, length] = alongRows ? [1, width] : [width, height];
  for (let i = 0; i < width * height; i++) {
    const at = alongRows ? i % width : Math.floor(i / width);
    let lo = 255;
    let hi = 0;
    for (let k = Math.max(0, at - r) - at; k <= Math.min(length - 1, at + r) - at; k++) {
      const j = i + k * step;
      if (low[j] < lo) lo = low[j];
      if (high[j] > hi) hi = high[j];
    }
    outLow[i] = lo;
    outHigh[i] = hi;
  }
  return { low: outLow, high: outHigh };
}

/** Per pixel, the least and greatest level within `r` pixels of it (a square window, clipped at the edges). */
export function neighbourhoodRange(f: GreyFrame, r: number): { low: Uint8Array; high: Uint8Array } {
  const rows = slidingRange(f.data, f.data, f.width, f.height, r, true);
  return slidingRange(rows.low, rows.high, f.width, f.height, r, false);
}

export interface ChangeTest {
  /** a pixel changed when its level moved by more than this */
  threshold: number;
  /** 1 for pixels to watch; omitted: all */
  mask?: Uint8Array;
  /**
   * a pixel is compared with every level of the frame before within this many pixels of it (0: the same
   * pixel), and the frame's outer ring this wide is not watched
   */
  tolerance?: number;
  /** the width of the frame's outer ring that is not watched, when wider than `tolerance` */
  edge?: number;
  /** scale the frame before by the ratio of the frames' mean levels (within 1 / 1.25 .. 1.25) first */
  matchExposure?: boolean;
  /** compare each pixel with the frame before at this shift (a pixel whose match lies beyond that frame is not watched) */
  shift?: Shift;
}

function meanLevel(f: GreyFrame, mask?: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < f.width * f.height; i++) {
    if (mask && !mask[i]) continue;
    sum += f.data[i];
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

/** The frame before, ready to be compared with: its neighbourhood ranges and the exposure ratio between the two. */
interface Before {
  width: number;
  height: number;
  low: Uint8Array;
  high: Uint8Array;
  ratio: number;
  threshold: number;
  tolerance: number;
  edge: number;
}

function prepare(a: GreyFrame, b: GreyFrame, test: ChangeTest): Before {
  if (a.width !== b.width || a.height !== b.height) throw new RangeError(`frames differ in size: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  const { threshold, mask, tolerance = 0, edge = 0, matchExposure = false } = test;
  const range = tolerance > 0 ? neighbourhoodRange(a, tolerance) : { low: a.data, high: a.data };
  const before = matchExposure ? meanLevel(a, mask) : 0;
  const ratio = before > 0 ? Math.min(MAX_EXPOSURE_RATIO, Math.max(1 / MAX_EXPOSURE_RATIO, meanLevel(b, mask) / before)) : 1;
  return { width: a.width, height: a.height, low: range.low, high: range.high, ratio, threshold, tolerance, edge: Math.max(edge, tolerance) };
}

/** Share of the watched pixels of b (every `step`-th along each axis) that changed from `before` at `shift`. */
function shareChanged(before: Before, b: GreyFrame, shift: Shift, mask: Uint8Array | undefined, step: number): number {
  const { width: w, height: h, low, high, ratio, threshold, edge } = before;
  let watched = 0;
  let changed = 0;
  for (let y = 0; y < h; y += step) {
    // under shake the frame's outer pixels show what comes in from beyond it: not watched
    const sy = y - shift.dy;
    if (sy < edge || sy >= h - edge) continue;
    for (let x = 0; x < w; x += step) {
      const sx = x - shift.dx;
      if (sx < edge || sx >= w - edge) continue;
      const i = y * w + x;
      if (mask && !mask[i]) continue;
      const j = sy * w + sx;
      watched++;
      const v = b.data[i];
      if (v > high[j] * ratio + threshold || v < low[j] * ratio - threshold) changed++;
    }
  }
  return watched === 0 ? 0 : changed / watched;
}

/** Share of the watched pixels of b whose grey level differs by more than the threshold from a's (see ChangeTest). */
export function changedFraction(a: GreyFrame, b: GreyFrame, test: ChangeTest): number {
  return shareChanged(prepare(a, b, test), b, test.shift ?? NO_SHIFT, test.mask, 1);
}

/**
 * The camera's shift from a to b, up to `maxShift` grey pixels each way: the one that leaves the fewest
 * pixels of the whole frame changed (every second pixel each way is tried), the smallest shift on a tie.
 * The whole frame, not only the watched area, so that the table and the tray's walls, which only the
 * camera moves, outweigh a die that moved; and pixel for pixel (no `tolerance`), or a shift within the
 * tolerance would cost those walls nothing and a nudged die would be taken for shake.
 */
export function estimateShift(a: GreyFrame, b: GreyFrame, test: ChangeTest, maxShift: number): Shift {
  const before = prepare(a, b, { ...test, tolerance: 0 });
  const shifts: Shift[] = [];
  for (let dy = -maxShift; dy <= maxShift; dy++) for (let dx = -maxShift; dx <= maxShift; dx++) shifts.push({ dx, dy });
  shifts.sort((p, q) => Math.hypot(p.dx, p.dy) - Math.hypot(q.dx, q.dy));
  let best = NO_SHIFT;
  let fewest = Infinity;
  for (const shift of shifts) {
    const share = shareChanged(before, b, shift, undefined, 2);
    if (share < fewest) {
      fewest = share;
      best = shift;
    }
  }
  return best;
}

export class SettleDetector {
  private readonly opts: SettleOptions;
  private prev: GreyFrame | null = null;
  private still = 0;
  private settled = false;

  /** mask: 1 for pixels to watch, of the frames' size; omit to watch the whole frame */
  constructor(opts: Partial<SettleOptions> = {}, private mask?: Uint8Array) {
    this.opts = validateSettleOptions(opts);
  }

  get options(): SettleOptions {
    return { ...this.opts };
  }

  setMask(mask: Uint8Array | undefined): void {
    this.mask = mask;
    this.reset();
  }

  reset(): void {
    this.prev = null;
    this.still = 0;
    this.settled = false;
  }

  isSettled(): boolean {
    return this.settled;
  }

  push(frame: GreyFrame): SettleState {
    if (frame.data.length < frame.width * frame.height) throw new RangeError('grey frame data is shorter than width × height');
    if (this.mask && this.mask.length !== frame.width * frame.height) {
      throw new RangeError(`mask size ${this.mask.length} does not match the frame (${frame.width}×${frame.height})`);
    }
    // thin lines and single-pixel noise change with the camera's sub-pixel shake: compare 3×3 means
    const smooth = smoothGrey(frame);
    const sameSize = this.prev !== null && this.prev.width === frame.width && this.prev.height === frame.height;
    // the 3 × 3 mean carries what shake brings in at the frame's edge one pixel further in
    const edge = this.opts.shiftTolerance > 0 ? this.opts.shiftTolerance + 1 : 0;
    const test = { threshold: this.opts.pixelThreshold, mask: this.mask, tolerance: this.opts.shiftTolerance, edge, matchExposure: this.opts.matchExposure };
    // the frame before's neighbourhood ranges and the exposure ratio serve both comparisons
    const before = sameSize ? prepare(this.prev!, smooth, test) : null;
    let motion = before ? shareChanged(before, smooth, NO_SHIFT, this.mask, 1) : 0;
    let shift = NO_SHIFT;
    if (before && motion > this.opts.motionFraction && this.opts.alignShift > 0) {
      // a shaken camera moves the whole picture: compare again once the frames are aligned
      const found = estimateShift(this.prev!, smooth, test, this.opts.alignShift);
      const aligned = found.dx !== 0 || found.dy !== 0 ? shareChanged(before, smooth, found, this.mask, 1) : motion;
      if (aligned < motion) {
        motion = aligned;
        shift = found;
      }
    }
    // a first frame (or a change of size) tells nothing about motion: count it as neither still nor moving
    const moving = sameSize && motion > this.opts.motionFraction;
    this.prev = smooth;
    const wasSettled = this.settled;
    if (!sameSize) {
      this.still = 0;
      this.settled = false;
    } else if (moving) {
      this.still = 0;
      this.settled = false;
    } else {
      this.still++;
      if (this.still >= this.opts.stillFrames) this.settled = true;
    }
    return {
      motion,
      moving,
      settled: this.settled,
      justSettled: this.settled && !wasSettled,
      justMoved: wasSettled && !this.settled,
      shift,
    };
  }
}
