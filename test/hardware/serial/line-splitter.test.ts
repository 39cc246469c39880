import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineSplitter, type SplitItem } from '../../../server/hardware/serial/line-splitter.ts';

const lines = (items: SplitItem[]) => items.flatMap((i) => (i.kind === 'line' ? [i.line] : []));

describe('LineSplitter', () => {
  it('gives the same lines however the bytes are chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[ -~]{1,40}$/), { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1 }), (ls, cuts) => {
        const data = Buffer.from(ls.map((l) => `${l}\n`).join(''), 'latin1');
        const s = new LineSplitter();
        const out: SplitItem[] = [];
        let pos = 0;
        for (let k = 0; pos < data.length; k++) {
          const n = cuts[k % cuts.length];
          out.push(...s.push(data.subarray(pos, pos + n), 0));
          pos += n;
        }
        expect(lines(out)).toEqual(ls);
      }),
    );
  });

  it('drops over-long lines without holding them, then reads on', () => {
    const s = new LineSplitter({ maxLine: 64 });
    const out = s.push(Buffer.from(`${'x'.repeat(100_000)}\nok\n`), 0);
    expect(out).toEqual([
      { kind: 'dropped', error: 'LEN', reason: 'line of 100001 bytes dropped, the limit is 64' },
      { kind: 'line', line: 'ok' },
    ]);
    expect(lines(s.push(Buffer.from(`${'y'.repeat(63)}\n`), 0))).toEqual(['y'.repeat(63)]);
    expect(s.push(Buffer.from(`${'y'.repeat(64)}\n`), 0)[0]).toMatchObject({ error: 'LEN' });
  });

  it('drops a partial line whose end never comes', () => {
    const s = new LineSplitter({ staleMs: 500 });
    expect(s.push(Buffer.from('05 BTN P'), 1000)).toEqual([]);
    expect(s.flushStale(1200)).toBeNull();
    const out = s.push(Buffer.from('01 PING *00\n'), 1600);
    expect(out[0]).toMatchObject({ kind: 'dropped', error: 'TRUNCATED' });
    expect(lines(out)).toEqual(['01 PING *00']);
    s.push(Buffer.from('abc'), 2000);
    expect(s.reset()).toMatchObject({ error: 'TRUNCATED' });
    expect(s.reset()).toBeNull();
  });

  it('drops lines beyond the rate limit and says so once per window', () => {
    const s = new LineSplitter({ maxLinesPerSecond: 5 });
    const out = s.push(Buffer.from('a\n'.repeat(20)), 0);
    expect(lines(out)).toHaveLength(5);
    expect(out.filter((i) => i.kind === 'dropped')).toHaveLength(1);
    const next = s.push(Buffer.from('b\n'), 1000);
    expect(next[0]).toMatchObject({ error: 'FLOOD', reason: expect.stringMatching(/^15 lines dropped/) });
    expect(lines(next)).toEqual(['b']);
  });

  it('ignores blank lines', () => {
    expect(new LineSplitter().push(Buffer.from('\n\r\n\n'), 0)).toEqual([]);
  });
});
