/**
 * Frames from a folder of images (JPEG or PNG), in natural name order, at a fixed rate, looping.
 * Files are passed on as recorded, unchecked, so a recording of a broken camera replays as broken.
 * A missing or empty folder is reported as 'retrying' and looked at again with backoff.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame } from '../ports.ts';
import { DEFAULT_BACKOFF, PolledFrameSource, type BackoffOptions } from './source-base.ts';
import { FPS, checkNumber } from './device.ts';

export interface ReplayOptions {
  folder: string;
  fps?: number;
  /** start again at the first image after the last (default true) */
  loop?: boolean;
  backoff?: BackoffOptions;
}

const IMAGE = /\.(jpe?g|png)$/i;

export function mimeOf(name: string): Frame['mime'] {
  return /\.png$/i.test(name) ? 'image/png' : 'image/jpeg';
}

export class ReplaySource extends PolledFrameSource {
  readonly kind = 'simulated' as const;
  private readonly folder: string;
  private readonly fps: number;
  private readonly loop: boolean;
  private readonly backoff: BackoffOptions;
  private files: string[] = [];
  private index = 0;

  constructor(o: ReplayOptions) {
    super();
    if (typeof o.folder !== 'string' || o.folder.length === 0) throw new Error('replay folder: must be a non-empty path');
    this.folder = o.folder;
    this.fps = checkNumber(o.fps ?? FPS.replay.default, 'replay fps', FPS.replay.min, FPS.replay.max);
    this.loop = o.loop ?? true;
    this.backoff = o.backoff ?? DEFAULT_BACKOFF;
  }

  /** true once a non-looping replay has emitted its last image */
  get finished(): boolean {
    return !this.loop && this.files.length > 0 && this.index >= this.files.length;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.setStatus('retrying', `opening ${this.folder}`);
    this.startTicking();
  }

  async stop(): Promise<void> {
    await this.stopTicking();
    this.setStatus('off', 'stopped');
  }

  protected async tick(): Promise<number | null> {
    try {
      if (this.files.length === 0 || (this.index >= this.files.length && this.loop)) {
        const names = (await readdir(this.folder)).filter((n) => IMAGE.test(n));
        names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
        if (names.length === 0) throw new Error(`no .jpg/.png images in ${this.folder}`);
        this.files = names;
        this.index = 0;
      }
      if (this.index >= this.files.length) {
        this.setStatus('off', `replay of ${this.folder} finished`);
        return null;
      }
      const name = this.files[this.index++];
      const data = await readFile(join(this.folder, name));
      if (!this.running) return null;
      this.emitFrame(data, mimeOf(name));
      return 1000 / this.fps;
    } catch (err) {
      if (!this.running) return null;
      this.files = [];
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ENOENT' ? `${this.folder}: no such folder or file` : e.message;
      return this.fail(`replay: ${why}`, this.backoff);
    }
  }
}
