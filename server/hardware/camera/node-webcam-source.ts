/**
 * Frames through node-webcam (one fswebcam process per capture). Every option is checked against
 * a whitelist before node-webcam sees it, because it pastes them into a shell command unescaped.
 * Failures (no device, device busy, fswebcam crash, corrupt image) are reported as 'retrying' and
 * retried with backoff; they never throw out of start().
 */
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWholeJpeg } from './jpeg-stream.ts';
import { DEFAULT_BACKOFF, PolledFrameSource, type BackoffOptions } from './source-base.ts';
import { FPS, checkInt, checkNumber, deviceToString, isSafePath, parseVideoDevice, type VideoDevice } from './device.ts';

interface NodeWebcamCam {
  capture(location: string, cb: (err: Error | null, data?: Buffer | string) => void): void;
}
interface NodeWebcamModule {
  create(opts: Record<string, unknown>, type?: string): NodeWebcamCam;
}

const require = createRequire(import.meta.url);

export interface NodeWebcamOptions {
  /** /dev/videoN, /dev/v4l/by-id/NAME, or file:PATH */
  device: string;
  width?: number;
  height?: number;
  /** captures per second (each one starts fswebcam anew: 1–5 is realistic) */
  fps?: number;
  /** JPEG quality 1..100 */
  quality?: number;
  /** frames fswebcam skips before grabbing (lets a camera's exposure settle), 0..30 */
  skip?: number;
  /** a capture that has not finished after this long counts as failed */
  captureTimeoutMs?: number;
  backoff?: BackoffOptions;
}

interface CheckedOptions {
  device: VideoDevice;
  width: number;
  height: number;
  fps: number;
  quality: number;
  skip: number;
  captureTimeoutMs: number;
  backoff: BackoffOptions;
}

/** Validates every option node-webcam will put into its shell command. */
export function checkNodeWebcamOptions(o: NodeWebcamOptions): CheckedOptions {
  return {
    device: parseVideoDevice(o.device, 'fswebcam device'),
    width: checkInt(o.width ?? 640, 'fswebcam width', 16, 4096),
    height: checkInt(o.height ?? 480, 'fswebcam height', 16, 4096),
    fps: checkNumber(o.fps ?? FPS.fswebcam.default, 'fswebcam fps', FPS.fswebcam.min, FPS.fswebcam.max),
    quality: checkInt(o.quality ?? 90, 'fswebcam quality', 1, 100),
    skip: checkInt(o.skip ?? 0, 'fswebcam skip', 0, 30),
    captureTimeoutMs: checkInt(o.captureTimeoutMs ?? 10_000, 'fswebcam captureTimeoutMs', 100, 120_000),
    backoff: o.backoff ?? DEFAULT_BACKOFF,
  };
}

export class NodeWebcamSource extends PolledFrameSource {
  readonly kind = 'real' as const;
  private readonly o: CheckedOptions;
  private dir: string | null = null;
  private cam: NodeWebcamCam | null = null;
  private starting = false;

  constructor(opts: NodeWebcamOptions) {
    super();
    this.o = checkNodeWebcamOptions(opts);
  }

  get device(): string {
    return deviceToString(this.o.device);
  }

  async start(): Promise<void> {
    if (this.running || this.starting) return;
    this.starting = true;
    this.setStatus('retrying', `starting fswebcam on ${this.device}`);
    try {
      const base = isSafePath(tmpdir()) ? tmpdir() : '/tmp';
      this.dir = await mkdtemp(join(base, 'flightdeck-cam-'));
      if (!isSafePath(this.dir)) throw new Error(`temporary folder ${this.dir} has characters unsafe for a shell`);
      const NodeWebcam = require('node-webcam') as NodeWebcamModule;
      this.cam = NodeWebcam.create(
        {
          width: this.o.width,
          height: this.o.height,
          quality: this.o.quality,
          delay: 0,
          skip: this.o.skip > 0 ? this.o.skip : false,
          saveShots: false,
          output: 'jpeg',
          device: deviceToString(this.o.device),
          callbackReturn: 'buffer',
          verbose: false,
        },
        'fswebcam',
      );
    } catch (err) {
      this.setStatus('error', `fswebcam source could not start: ${(err as Error).message}`);
      return;
    } finally {
      this.starting = false;
    }
    this.startTicking();
  }

  async stop(): Promise<void> {
    await this.stopTicking();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
    this.setStatus('off', 'stopped');
  }

  protected async tick(): Promise<number | null> {
    const started = Date.now();
    const location = join(this.dir!, 'frame.jpg');
    try {
      await unlink(location).catch(() => undefined);
      const data = await this.capture(location);
      if (!isWholeJpeg(data)) throw new Error(`fswebcam returned a corrupt image (${data.length} bytes)`);
      if (!this.running) return null;
      this.emitFrame(data, 'image/jpeg');
      return Math.max(0, 1000 / this.o.fps - (Date.now() - started));
    } catch (err) {
      if (!this.running) return null;
      return this.fail(`${this.device}: ${describeFailure(err as Error)}`, this.o.backoff);
    }
  }

  private capture(location: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        reject(new Error(`capture took longer than ${this.o.captureTimeoutMs} ms`));
      }, this.o.captureTimeoutMs);
      this.cam!.capture(location, (err, data) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) reject(err);
        else if (!Buffer.isBuffer(data)) reject(new Error('fswebcam returned no image data'));
        else resolve(data);
      });
    });
  }
}

/** lines a crashing fswebcam adds (glibc's heap checks, the shell's "Aborted"): no help to anyone */
const CRASH_NOISE = /^(free\(\)|double free|malloc\(\)|munmap_chunk\(\)|corrupted |\*\*\* |Aborted\b|Segmentation fault)/i;

export function describeFailure(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'fswebcam wrote no image (device missing, busy or unreadable)';
  if (/No webcam found/i.test(err.message)) return 'no such camera device';
  if (/Command failed/i.test(err.message)) {
    // fswebcam's own words, without the C library's crash report that may follow them (players see this)
    const lines = err.message.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter(Boolean).filter((l) => !CRASH_NOISE.test(l));
    const said = `fswebcam failed: ${lines.slice(1).join('; ') || lines[0]}`.slice(0, 300);
    return /permission denied/i.test(said) ? `${said} (the service's user must be in the video group: hardware.md, "Troubleshooting")` : said;
  }
  return err.message;
}
