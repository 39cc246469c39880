/**
 * The cameras' dice reader, whose model can be changed while the service runs (a model taught on the
 * dashboard, or back to the one it started with): the cameras keep this one object; a swap takes effect
 * on the next frame, and the reader swapped out is disposed once the reads it had begun are answered.
 */
import type { SeenDie } from '../http/protocol.ts';
import type { DiceReader, ReadOptions, TaughtPhotos } from '../hardware/ports.ts';

type Disposable = DiceReader & { dispose?(): void };

export class SwappableReader implements DiceReader {
  private readonly reading = new Map<Disposable, number>();
  private readonly retired = new Set<Disposable>();

  constructor(private current: Disposable) {}

  get backend(): string {
    return this.current.backend;
  }

  get modelVersion(): string | undefined {
    return this.current.modelVersion;
  }

  get taught(): TaughtPhotos | undefined {
    return this.current.taught;
  }

  async read(image: Buffer, options?: ReadOptions): Promise<{ width: number; height: number; dice: SeenDie[] }> {
    const reader = this.current;
    this.reading.set(reader, (this.reading.get(reader) ?? 0) + 1);
    try {
      return await reader.read(image, options);
    } finally {
      const left = this.reading.get(reader)! - 1;
      if (left > 0) this.reading.set(reader, left);
      else {
        this.reading.delete(reader);
        if (this.retired.delete(reader)) reader.dispose?.();
      }
    }
  }

  /** Reads with `next` from now on; the reader it replaces is disposed when its reads are done. */
  swap(next: Disposable): void {
    if (next === this.current) return;
    const old = this.current;
    this.current = next;
    this.retire(old);
  }

  dispose(): void {
    this.retire(this.current);
  }

  private retire(reader: Disposable): void {
    if (this.reading.has(reader)) this.retired.add(reader);
    else reader.dispose?.();
  }
}
