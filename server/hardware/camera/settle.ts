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
}

export const DEFAULT_SETTLE: SettleOptions = { pixelThreshold: 18, motionFraction: 0.002, stillFrames: 3 };

export interface SettleState {
  /** share of watched pixels that changed since the previous frame (0 for the first frame) */
  motion: number;
  moving: boolean;
  settled: boolean;
  /** this frame ended a still run: the dice have just come to rest */
  justSettled: boolean;
  /** this frame broke a settled state: something moved in the tray */
  justMoved: boolean;
}

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
  return r;
}

/** Share of the masked pixels whose grey level differs by more than `threshold` between a and b. */
export function changedFraction(a: GreyFrame, b: GreyFrame, threshold: number, mask?: Uint8Array): number {
  if (a.width !== b.width || a.height !== b.height) throw new RangeError(`frames differ in size: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  const n = a.width * a.height;
  let watched = 0;
  let changed = 0;
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    watched++;
    if (Math.abs(a.data[i] - b.data[i]) > threshold) changed++;
  }
  return watched === 0 ? 0 : changed / watched;
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
    const sameSize = this.prev !== null && this.prev.width === frame.width && this.prev.height === frame.height;
    const motion = sameSize ? changedFraction(this.prev!, frame, this.opts.pixelThreshold, this.mask) : 0;
    // a first frame (or a change of size) tells nothing about motion: count it as neither still nor moving
    const moving = sameSize && motion > this.opts.motionFraction;
    this.prev = frame;
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
    };
  }
}
