/** The commands' progress: JSON lines for a program watching (`model:adapt --progress json`, read by the service's teaching). */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonProgress, type ProgressLine } from '../../server/cli/progress.ts';

function collect(): { stream: Writable; lines: () => ProgressLine[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('jsonProgress', () => {
  it('writes one JSON line per step shown: the first, and every stage its last', () => {
    const { stream, lines } = collect();
    const progress = jsonProgress(stream);
    for (let i = 1; i <= 50; i++) progress('detector', i, 50);
    progress('classifier', 1, 2);
    progress('classifier', 2, 2);
    const seen = lines().map((l) => l.progress);
    expect(seen[0]).toEqual({ stage: 'detector', done: 1, total: 50 });
    expect(seen).toContainEqual({ stage: 'detector', done: 50, total: 50 });
    expect(seen).toContainEqual({ stage: 'classifier', done: 2, total: 2 });
    expect(seen.every((p) => p.done >= 1 && p.done <= p.total)).toBe(true);
  });
});
