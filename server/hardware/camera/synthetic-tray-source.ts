/**
 * The simulated camera: renders the dice of the roll in progress with server/synth's renderTray, so the
 * real vision pipeline reads them back. throwDice() plays a throw: a few moving frames (dice displaced
 * and blurred), then the same settled frame repeated at the frame rate, like a still camera.
 */
import sharp from 'sharp';
import { renderTray, type TrayStyle } from '../../synth/index.ts';
import { SYNTHETIC_CALIBRATION } from './synthetic-calibration.ts';
import { PolledFrameSource } from './source-base.ts';
import { FPS, checkInt, checkNumber } from './device.ts';

export interface SyntheticTrayOptions {
  width?: number;
  height?: number;
  fps?: number;
  /** frames of tumbling dice before they settle */
  movingFrames?: number;
  /** seed of the dice faces and of the layouts (deterministic runs) */
  seed?: number;
  style?: Omit<TrayStyle, 'keptFaces'>;
}

export interface ThrowState {
  /** faces of the dice in the rolling zone once settled */
  faces: number[];
  /** faces of the dice set aside */
  kept: number[];
  /** dice more that land leaning on another die or against the tray wall (no face up) */
  leaning: number;
  /** increases with every throw or setDice */
  throwNo: number;
  settled: boolean;
}

/** mulberry32: small, fast, deterministic */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkFaces(v: unknown, what: string, max = 20): number[] {
  if (!Array.isArray(v) || v.length > max || v.some((f) => !Number.isInteger(f) || f < 1 || f > 6)) {
    throw new RangeError(`${what}: must be an array of at most ${max} faces, each an integer 1..6`);
  }
  return [...(v as number[])];
}

export { SYNTHETIC_CALIBRATION };

/** A die as rendered in the settled frame: pixel centre and box, face shown (`leaning`: none is up). */
export interface SettledDie {
  x: number;
  y: number;
  w: number;
  h: number;
  face: number;
  leaning?: true;
}

export class SyntheticTraySource extends PolledFrameSource {
  readonly kind = 'simulated' as const;
  readonly calibration = SYNTHETIC_CALIBRATION;
  private readonly width: number;
  private readonly height: number;
  private readonly fps: number;
  private readonly movingFrames: number;
  private readonly style: Omit<TrayStyle, 'keptFaces'>;
  private readonly random: () => number;
  private state: ThrowState = { faces: [], kept: [], leaning: 0, throwNo: 0, settled: true };
  /** moving frames still to show for the current throw */
  private movingLeft = 0;
  private settledImage: Buffer | null = null;
  private settledDice: SettledDie[] = [];
  private layoutSeed: number;

  constructor(o: SyntheticTrayOptions = {}) {
    super();
    this.width = checkInt(o.width ?? 640, 'synthetic width', 64, 4096);
    this.height = checkInt(o.height ?? 480, 'synthetic height', 48, 4096);
    this.fps = checkNumber(o.fps ?? FPS.synthetic.default, 'synthetic fps', FPS.synthetic.min, FPS.synthetic.max);
    this.movingFrames = checkInt(o.movingFrames ?? 3, 'synthetic movingFrames', 1, 30);
    const seed = checkInt(o.seed ?? Date.now() % 2 ** 31, 'synthetic seed', 0, 2 ** 31);
    this.style = { colour: 'white', ...o.style };
    this.random = rng(seed);
    this.layoutSeed = seed;
  }

  /** What the tray shows (or will show once the dice settle). */
  current(): ThrowState {
    return { ...this.state, faces: [...this.state.faces], kept: [...this.state.kept] };
  }

  /** The settled frame and the dice drawn in it (what a perfect reader would see); null until rendered. */
  settledFrame(): { image: Buffer; dice: SettledDie[] } | null {
    return this.settledImage ? { image: this.settledImage, dice: this.settledDice.map((d) => ({ ...d })) } : null;
  }

  /**
   * A player throws `count` dice, with `keep` (faces) set aside in the kept zone, and `leaning` dice more
   * that come to rest leaning on another die or against the tray wall.
   * Returns the faces the thrown dice will show.
   */
  throwDice(count: number, keep: number[] = [], leaning = 0): number[] {
    checkInt(count, 'throwDice count', 0, 20);
    const kept = checkFaces(keep, 'throwDice keep');
    const faces = Array.from({ length: count }, () => 1 + Math.floor(this.random() * 6));
    this.begin(faces, kept, true, checkInt(leaning, 'throwDice leaning', 0, 3));
    return [...faces];
  }

  /** Shows exactly these faces (and `leaning` dice more): thrown (moving frames first), or with `animate` false simply placed. */
  setDice(faces: number[], keep: number[] = [], animate = true, leaning = 0): void {
    this.begin(checkFaces(faces, 'setDice faces'), checkFaces(keep, 'setDice keep'), animate, checkInt(leaning, 'setDice leaning', 0, 3));
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.setStatus('retrying', 'rendering the synthetic tray');
    this.startTicking();
  }

  async stop(): Promise<void> {
    await this.stopTicking();
    this.setStatus('off', 'stopped');
  }

  private begin(faces: number[], kept: number[], animate: boolean, leaning: number): void {
    this.state = { faces, kept, leaning, throwNo: this.state.throwNo + 1, settled: !animate };
    this.movingLeft = animate ? this.movingFrames : 0;
    this.settledImage = null;
    this.settledDice = [];
    this.layoutSeed = Math.floor(this.random() * 2 ** 31);
  }

  protected async tick(): Promise<number | null> {
    const started = Date.now();
    try {
      await this.renderNext();
    } catch (err) {
      // rendering failed: report, keep ticking (the next throw may render)
      return this.fail(`synthetic tray: ${(err as Error).message}`, { initialMs: 1000, maxMs: 10_000 });
    }
    return Math.max(0, 1000 / this.fps - (Date.now() - started));
  }

  private async renderNext(): Promise<void> {
    const { faces, kept, leaning, throwNo } = this.state;
    if (this.movingLeft > 0) {
      this.movingLeft--;
      // a tumbling frame: the dice elsewhere, showing other faces, smeared by motion
      const tumble = faces.map(() => 1 + Math.floor(this.random() * 6));
      const r = await renderTray({ faces: tumble, seed: Math.floor(this.random() * 2 ** 31), width: this.width, height: this.height, style: { ...this.style, keptFaces: kept } });
      const blurred = await sharp(r.image).blur(2 + 2 * this.random()).jpeg({ quality: 80 }).toBuffer();
      if (!this.running) return;
      this.emitFrame(blurred, 'image/jpeg');
      return;
    }
    if (!this.settledImage) {
      const seed = this.layoutSeed;
      const r = await renderTray({ faces, leaning, seed, width: this.width, height: this.height, style: { ...this.style, keptFaces: kept } });
      // a throw that came in while rendering replaces this one
      if (throwNo !== this.state.throwNo) return;
      this.settledImage = r.image;
      this.settledDice = r.dice;
      this.state.settled = true;
    }
    if (!this.running) return;
    this.emitFrame(this.settledImage, 'image/jpeg');
  }
}
