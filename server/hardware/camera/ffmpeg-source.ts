/**
 * Frames from one long-running ffmpeg process: `-f v4l2 -input_format mjpeg … -c:v copy -f mjpeg pipe:1`
 * passes the camera's own JPEGs through without re-encoding; they are cut out of the byte stream by
 * their markers. A `file:` device plays a file instead (a .mjpeg stream, a JPEG/PNG image, or an image2
 * pattern like frames/%04d.jpg), looped at the frame rate, for tests and demos.
 * ffmpeg exiting or going silent is reported as 'retrying' and restarted with backoff.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { JpegStreamSplitter } from './jpeg-stream.ts';
import { BaseFrameSource, DEFAULT_BACKOFF, type BackoffOptions } from './source-base.ts';
import { FPS, checkInt, checkNumber, deviceToString, parseVideoDevice, type VideoDevice } from './device.ts';

export interface FfmpegOptions {
  /** /dev/videoN (v4l2, MJPEG) or file:PATH */
  device: string;
  width?: number;
  height?: number;
  /** frames per second asked of the camera; frames arriving faster are dropped */
  fps?: number;
  /** ffmpeg binary */
  ffmpegPath?: string;
  /** restart ffmpeg when no frame came for this long */
  stallMs?: number;
  backoff?: BackoffOptions;
}

interface CheckedOptions {
  device: VideoDevice;
  width: number;
  height: number;
  fps: number;
  ffmpegPath: string;
  stallMs: number;
  backoff: BackoffOptions;
}

export function checkFfmpegOptions(o: FfmpegOptions): CheckedOptions {
  const ffmpegPath = o.ffmpegPath ?? 'ffmpeg';
  if (!/^[A-Za-z0-9_./+-]+$/.test(ffmpegPath)) throw new Error(`ffmpegPath: "${ffmpegPath}" has unexpected characters`);
  return {
    device: parseVideoDevice(o.device, 'ffmpeg device', true),
    width: checkInt(o.width ?? 640, 'ffmpeg width', 16, 4096),
    height: checkInt(o.height ?? 480, 'ffmpeg height', 16, 4096),
    fps: checkNumber(o.fps ?? FPS.ffmpeg.default, 'ffmpeg fps', FPS.ffmpeg.min, FPS.ffmpeg.max),
    ffmpegPath,
    stallMs: checkInt(o.stallMs ?? 5000, 'ffmpeg stallMs', 200, 120_000),
    backoff: o.backoff ?? DEFAULT_BACKOFF,
  };
}

/** ffmpeg's arguments (no shell is involved: they go to spawn as an array). */
export function ffmpegArgs(o: CheckedOptions): string[] {
  const head = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
  const tail = ['-an', '-f', 'mjpeg', 'pipe:1'];
  const d = o.device;
  if (d.kind === 'v4l2') {
    return [...head, '-f', 'v4l2', '-input_format', 'mjpeg', '-video_size', `${o.width}x${o.height}`, '-framerate', String(o.fps), '-i', d.path, '-c:v', 'copy', ...tail];
  }
  const p = d.path.toLowerCase();
  const rate = String(o.fps);
  if (p.includes('%') || /\.(jpe?g|png)$/.test(p)) {
    const isPng = p.endsWith('.png');
    const single = !p.includes('%');
    return [
      ...head, '-re', ...(single ? ['-loop', '1'] : ['-stream_loop', '-1']), '-framerate', rate, '-f', 'image2', '-i', d.path,
      ...(isPng ? ['-c:v', 'mjpeg', '-q:v', '3', '-pix_fmt', 'yuvj420p'] : ['-c:v', 'copy']), ...tail,
    ];
  }
  // a raw MJPEG stream (concatenated JPEGs); the jpeg_pipe demuxer keeps timestamps monotonic across
  // loops, where the mjpeg demuxer bunches frames at every loop
  return [...head, '-re', '-stream_loop', '-1', '-framerate', rate, '-f', 'jpeg_pipe', '-i', d.path, '-c:v', 'copy', ...tail];
}

export class FfmpegSource extends BaseFrameSource {
  readonly kind = 'real' as const;
  private readonly o: CheckedOptions;
  private running = false;
  private child: ChildProcess | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private lastEmit = 0;
  /** frames dropped because they came faster than fps */
  framesDropped = 0;
  private splitter: JpegStreamSplitter | null = null;
  private stalled = false;

  constructor(opts: FfmpegOptions) {
    super();
    this.o = checkFfmpegOptions(opts);
  }

  get device(): string {
    return deviceToString(this.o.device);
  }

  /** bytes of the current ffmpeg's output that were not part of a whole JPEG */
  get skippedBytes(): number {
    return this.splitter?.skippedBytes ?? 0;
  }

  /** pid of the running ffmpeg (for CPU measurement), if any */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.spawnFfmpeg();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.clearStall();
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
        child.once('close', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    this.setStatus('off', 'stopped');
  }

  private spawnFfmpeg(): void {
    if (!this.running) return;
    if (this.failures === 0) this.setStatus('retrying', `starting ffmpeg on ${this.device}`);
    const splitter = new JpegStreamSplitter();
    this.splitter = splitter;
    this.stalled = false;
    let stderr = '';
    let child: ChildProcess;
    try {
      child = spawn(this.o.ffmpegPath, ffmpegArgs(this.o), { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      this.retryLater(`could not run ffmpeg: ${(err as Error).message}`);
      return;
    }
    this.child = child;
    this.armStall();
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const jpeg of splitter.push(chunk)) this.onJpeg(jpeg);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    let reported = false;
    const ended = (why: string) => {
      if (reported) return;
      reported = true;
      if (this.child !== child) return; // stopped or replaced
      this.child = null;
      this.clearStall();
      const last = stderr.trim().split('\n').filter(Boolean).pop();
      if (this.stalled) this.retryLater(`no frame from ffmpeg for ${this.o.stallMs} ms`);
      else this.retryLater(`ffmpeg ${why}${last ? `: ${last.slice(0, 240)}` : ''}`);
    };
    child.on('error', (err) => ended(`could not run (${err.message})`));
    child.on('close', (code, signal) => ended(signal ? `stopped by ${signal}` : `exited with code ${code}`));
  }

  private onJpeg(jpeg: Buffer): void {
    this.armStall();
    const now = Date.now();
    // only a camera that ignores the rate asked runs this fast; 25% slack so jitter drops nothing
    if (this.lastEmit && now - this.lastEmit < (1000 / this.o.fps) * 0.75) {
      this.framesDropped++;
      return;
    }
    this.lastEmit = now;
    this.emitFrame(jpeg, 'image/jpeg');
  }

  private retryLater(message: string): void {
    if (!this.running) return;
    const delay = this.fail(`${this.device}: ${message}`, this.o.backoff);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.spawnFfmpeg();
    }, delay);
  }

  private armStall(): void {
    this.clearStall();
    this.stallTimer = setTimeout(() => {
      const child = this.child;
      if (!child || !this.running) return;
      // the 'close' handler reports and restarts
      this.stalled = true;
      child.kill('SIGKILL');
    }, this.o.stallMs);
  }

  private clearStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
  }
}
