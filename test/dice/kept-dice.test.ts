/** The dice kept out of a simulated re-roll (`server/dice/kept-dice.ts`): which dice showing they are, and how they follow a throw. */
import { describe, expect, it } from 'vitest';
import { followPick, keptAmong } from '../../server/dice/kept-dice.ts';

describe('the dice kept out of a simulated re-roll', () => {
  it('are the faces picked that the free dice showing still hold', () => {
    expect(keptAmong([2, 2], [2, 5, 2, 6])).toEqual([2, 2]);
    expect(keptAmong([2, 2, 4], [2, 5, 6])).toEqual([2]);
    expect(keptAmong([6, 3], [3, 6, 6])).toEqual([3, 6]);
    expect(keptAmong([], [1, 2])).toEqual([]);
  });

  it('stay as picked while the dice are not read again', () => {
    const pick = { faces: [2, 2], readings: 3 };
    expect(followPick(pick, [2, 2, 2, 5], 3)).toBe(pick);
  });

  it('after a throw, take in the new dice showing a face kept, as players leave a new 2 with the 2s kept', () => {
    expect(followPick({ faces: [2, 2], readings: 3 }, [2, 5, 2, 2, 6], 4)).toEqual({ faces: [2, 2, 2], readings: 4 });
    expect(followPick({ faces: [3, 5], readings: 1 }, [5, 3, 5, 4], 2)).toEqual({ faces: [3, 5, 5], readings: 2 });
    // no die of a face kept left (a reading corrected by hand): nothing kept
    expect(followPick({ faces: [4], readings: 1 }, [2, 3], 2)).toEqual({ faces: [], readings: 2 });
  });
});
