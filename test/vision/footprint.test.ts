import { describe, expect, it } from 'vitest';
import { convexHull, dieFootprint, polygonsOverlap, topFaceCorners } from '../../server/synth/footprint.ts';
import type { DiePose } from '../../server/synth/die.ts';

const pose = (cx: number, cy: number, angle = 0, extra: Partial<DiePose> = {}): DiePose => ({ cx, cy, size: 10, angle, ox: 0, oy: 0, squash: 1, blurX: 0, blurY: 0, ...extra });
const face = (p: DiePose) => dieFootprint(p, false);

describe('die footprints', () => {
  it('are the top face turned by the die angle', () => {
    const c = topFaceCorners(pose(0, 0, Math.PI / 4));
    const reach = Math.max(...c.map(([x]) => x));
    expect(reach).toBeCloseTo(5 * Math.SQRT2);
  });

  it('overlap only when no axis separates them', () => {
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(10.5, 0)))).toBe(false);
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(9, 0)))).toBe(true);
    // a die turned 45° pokes its corner 7.07 px out: at 10.5 px it reaches into its neighbour
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(10.5, 0, Math.PI / 4)))).toBe(true);
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(12.5, 0, Math.PI / 4)))).toBe(false);
    // diagonal neighbours, both straight: corners touch at (5, 5)
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(10.2, 10.2)))).toBe(false);
  });

  it('let dice share a sliver no deeper than the tolerance', () => {
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(9.8, 0)), 0.3)).toBe(false);
    expect(polygonsOverlap(face(pose(0, 0)), face(pose(9.5, 0)), 0.3)).toBe(true);
  });

  it('of a leaning die reach over its base', () => {
    const leaning = pose(0, 0, 0, { ox: 8, oy: 0, squash: 0.6 });
    expect(polygonsOverlap(dieFootprint(leaning, true), face(pose(16, 0)))).toBe(true);
    expect(polygonsOverlap(dieFootprint(leaning, false), face(pose(16, 0)))).toBe(false);
  });

  it('hull drops inner points', () => {
    const hull = convexHull([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2], [1, 0]]);
    expect(hull).toHaveLength(4);
    expect(hull).not.toContainEqual([1, 1]);
  });
});
