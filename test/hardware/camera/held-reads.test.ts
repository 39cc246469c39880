import { describe, expect, it } from 'vitest';
import { HeldReads } from '../../../server/hardware/camera/held-reads.ts';
import type { SettledRead } from '../../../server/hardware/ports.ts';

const read = (at: number): SettledRead => ({ frame: { at, mime: 'image/jpeg', data: Buffer.from([at % 256]) }, width: 640, height: 480, dice: [] });

describe('HeldReads', () => {
  it('holds reads by their capture time, the last few only', () => {
    const held = new HeldReads({ limit: 2 });
    expect(held.hold(read(1000)).id).toBe('1000');
    held.hold(read(2000));
    expect(held.get('1000')?.frame.at).toBe(1000);
    held.hold(read(1000)); // held again: now the newest
    held.hold(read(3000));
    expect(held.get('2000')).toBeNull();
    expect(held.get('1000')?.frame.at).toBe(1000);
    expect(held.get('3000')?.width).toBe(640);
    expect(held.get('nope')).toBeNull();
  });

  it('forgets a read a while after it was last held', () => {
    let now = 0;
    const held = new HeldReads({ ttlMs: 1000, now: () => now });
    held.hold(read(5));
    now = 900;
    held.hold(read(5));
    now = 1800;
    expect(held.get('5')).not.toBeNull();
    now = 1901;
    expect(held.get('5')).toBeNull();
  });

  it('refuses nonsense limits', () => {
    expect(() => new HeldReads({ limit: 0 })).toThrow(RangeError);
    expect(() => new HeldReads({ ttlMs: 0 })).toThrow(RangeError);
  });
});
