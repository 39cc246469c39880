import { describe, expect, it } from 'vitest';
import { bestResult, splitGroups } from '../../server/dice/best-result.ts';
import { equalGroups } from '../../server/dice/faces.ts';
import type { RollGoal } from '../../server/dice/types.ts';

const landing: RollGoal = { kind: 'tiers', tiers: [{ id: 'injured', equal: 0 }, { id: 'unharmed', equal: 2 }, { id: 'safe', equal: 3 }] };
const search: RollGoal = { kind: 'tiers', tiers: [{ id: 'plus1', equal: 2 }, { id: 'plus2', equal: 3 }] };

describe('equalGroups', () => {
  it('groups equal values other than 1, largest first, ties by highest value', () => {
    expect(equalGroups([1, 1, 3, 3, 5, 5, 2])).toEqual([{ value: 5, count: 2 }, { value: 3, count: 2 }, { value: 2, count: 1 }]);
    expect(equalGroups([1, 1, 1])).toEqual([]);
  });
});

describe('bestResult: tiers', () => {
  it('1s never count as equal dice', () => {
    expect(bestResult([1, 1, 1, 4], search)).toEqual({ kind: 'tier', tierId: null, equal: 1, value: 4 });
  });
  it('takes the highest tier the largest group reaches', () => {
    expect(bestResult([2, 2, 6, 6, 6], search)).toEqual({ kind: 'tier', tierId: 'plus2', equal: 3, value: 6 });
    expect(bestResult([2, 2, 6, 5, 3], search)).toEqual({ kind: 'tier', tierId: 'plus1', equal: 2, value: 2 });
    expect(bestResult([4, 4, 4, 4, 4], search)).toMatchObject({ tierId: 'plus2', equal: 5 });
  });
  it('a tier needing 0 equal dice is reached with nothing (worst landing result)', () => {
    expect(bestResult([1, 2, 3], landing)).toMatchObject({ tierId: 'injured', equal: 1 });
    expect(bestResult([], landing)).toEqual({ kind: 'tier', tierId: 'injured', equal: 0, value: null });
    expect(bestResult([5, 5, 1], landing)).toMatchObject({ tierId: 'unharmed', value: 5 });
  });
  it('does not rely on the tiers being listed in order', () => {
    const shuffled: RollGoal = { kind: 'tiers', tiers: [{ id: 'safe', equal: 3 }, { id: 'injured', equal: 0 }, { id: 'unharmed', equal: 2 }] };
    expect(bestResult([3, 3, 3], shuffled)).toMatchObject({ tierId: 'safe' });
    expect(bestResult([3, 3, 4], shuffled)).toMatchObject({ tierId: 'unharmed' });
  });
});

describe('bestResult: targets split', () => {
  const kate = (id: string) => ({ id, equal: 2, value: 1 });
  it('a group of four 5s takes two targets needing 2 each', () => {
    const goal: RollGoal = { kind: 'targets', targets: [kate('k1'), kate('k2')] };
    expect(bestResult([5, 5, 5, 5, 1], goal)).toEqual({ kind: 'targets', taken: [{ targetId: 'k1', value: 5 }, { targetId: 'k2', value: 5 }], totalValue: 2 });
  });
  it('four 5s against a Kate (2, +1) and a Zeke (4, +3): the Zeke is worth more', () => {
    const goal: RollGoal = { kind: 'targets', targets: [kate('kate'), { id: 'zeke', equal: 4, value: 3 }] };
    expect(bestResult([5, 5, 5, 5, 2], goal)).toEqual({ kind: 'targets', taken: [{ targetId: 'zeke', value: 5 }], totalValue: 3 });
  });
  it('a group of three takes a target needing 3, not a need-2 and a need-1 worth less', () => {
    const goal: RollGoal = { kind: 'targets', targets: [{ id: 'jake', equal: 3, value: 2 }, kate('kate')] };
    expect(bestResult([6, 6, 6], goal)).toEqual({ kind: 'targets', taken: [{ targetId: 'jake', value: 6 }], totalValue: 2 });
  });
  it('groups of different values take different targets', () => {
    const goal: RollGoal = { kind: 'targets', targets: [{ id: 'jake', equal: 3, value: 2 }, kate('kate')] };
    expect(bestResult([3, 3, 3, 4, 4, 1], goal)).toEqual({
      kind: 'targets',
      taken: [{ targetId: 'jake', value: 3 }, { targetId: 'kate', value: 4 }],
      totalValue: 3,
    });
    // one group cannot lend dice to another value: 3,3 + 4 is not three equal dice
    expect(bestResult([3, 3, 4, 4], { kind: 'targets', targets: [{ id: 'jake', equal: 3, value: 2 }] })).toMatchObject({ taken: [], totalValue: 0 });
  });
  it('ties in value go to the split taking more targets', () => {
    const goal: RollGoal = { kind: 'targets', targets: [{ id: 'big', equal: 4, value: 2 }, kate('a'), kate('b')] };
    expect(bestResult([2, 2, 2, 2], goal)).toMatchObject({ totalValue: 2, taken: [{ targetId: 'a' }, { targetId: 'b' }] });
  });
  it('nothing to split: no targets taken; 1s never count', () => {
    expect(bestResult([1, 1, 1, 1], { kind: 'targets', targets: [kate('k')] })).toEqual({ kind: 'targets', taken: [], totalValue: 0 });
  });
  it('splitGroups hands targets to the groups that can hold them', () => {
    const split = splitGroups([4, 2], [kate('a'), { id: 'z', equal: 4, value: 3 }, kate('b')]);
    expect(split.totalValue).toBe(4);
    expect(split.groupOf[1]).toBe(0);
    expect(split.targetsTaken).toBe(2);
  });
});

describe('bestResult: faces', () => {
  it('returns the faces as read (a copy)', () => {
    const faces = [1, 1, 4, 4] as const;
    const result = bestResult(faces, { kind: 'faces' });
    expect(result).toEqual({ kind: 'faces', faces: [1, 1, 4, 4] });
  });
});
