/**
 * Frames handed in by the caller, one at a time, with no clock: for measurements and tests whose
 * results must not depend on how fast the machine reads (a timed source drops frames while busy).
 */
import type { Frame } from '../ports.ts';
import { BaseFrameSource } from './source-base.ts';

export class PushedFrameSource extends BaseFrameSource {
  readonly kind = 'simulated' as const;
  private running = false;

  async start(): Promise<void> {
    this.running = true;
    this.setStatus('retrying', 'waiting for the first frame');
  }

  async stop(): Promise<void> {
    this.running = false;
    this.setStatus('off', 'stopped');
  }

  /** Passes one frame on to the listeners; refused before start() and after stop(). */
  push(data: Buffer, mime: Frame['mime'] = 'image/jpeg'): void {
    if (!this.running) throw new Error('pushed frame source: push() before start() or after stop()');
    this.emitFrame(data, mime);
  }
}
