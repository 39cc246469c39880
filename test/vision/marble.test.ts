import { describe, expect, it } from 'vitest';
import { MARBLE_STYLES, marblePattern, type MarbleStyle } from '../../server/synth/marble.ts';
import { Rng } from '../../server/synth/random.ts';
import { renderScene } from '../../server/synth/scene.ts';

/** The draws a die takes for its swirl, as `drawDie` takes them. */
function draws(rng: Rng): [number, number, number] {
  return [rng.range(0.6, 1.8), rng.range(0, Math.PI), rng.range(1, 4)];
}

/** The pattern sampled on a grid over a face of `size` px (its own frame, centred). */
function sample(size: number, at: (x: number, y: number) => number, n = 24): number[] {
  const out: number[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) out.push(at(((i + 0.5) / n - 0.5) * size, ((j + 0.5) / n - 0.5) * size));
  return out;
}

describe('marblePattern', () => {
  it('is the same for the same draws and stays between the two colours', () => {
    const rng = new Rng(5);
    for (let k = 0; k < 40; k++) {
      const [f, a, w] = draws(rng);
      const one = sample(60, marblePattern(60, f, a, w).at);
      expect(sample(60, marblePattern(60, f, a, w).at)).toEqual(one);
      for (const m of one) {
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(1);
      }
    }
  });

  it('draws every style in about its share, each die its own swirl', () => {
    const rng = new Rng(11);
    const count = new Map<MarbleStyle, number>();
    const seen = new Set<string>();
    const n = 2000;
    for (let k = 0; k < n; k++) {
      const p = marblePattern(50, ...draws(rng));
      count.set(p.style, (count.get(p.style) ?? 0) + 1);
      seen.add(sample(50, p.at, 8).map((m) => m.toExponential(4)).join());
    }
    for (const [style, share] of MARBLE_STYLES) expect(Math.abs((count.get(style) ?? 0) / n - share)).toBeLessThan(0.04);
    expect(seen.size).toBeGreaterThan(n * 0.98);
  });

  it('shows both colours on most dice, and soft edges as well as sharp ones', () => {
    const rng = new Rng(23);
    let both = 0;
    let softest = 0;
    let sharpest = 1;
    const n = 300;
    for (let k = 0; k < n; k++) {
      const ms = sample(80, marblePattern(80, ...draws(rng)).at, 32);
      if (ms.some((m) => m < 0.2) && ms.some((m) => m > 0.8)) both++;
      const between = ms.filter((m) => m > 0.1 && m < 0.9).length / ms.length;
      softest = Math.max(softest, between);
      sharpest = Math.min(sharpest, between);
    }
    expect(both / n).toBeGreaterThan(0.7);
    expect(softest).toBeGreaterThan(0.4);
    expect(sharpest).toBeLessThan(0.1);
  });

  it('scales with the die, so a small die carries the same swirl as a big one', () => {
    const [f, a, w] = draws(new Rng(3));
    const small = sample(20, marblePattern(20, f, a, w).at, 12);
    const big = sample(120, marblePattern(120, f, a, w).at, 12);
    for (let i = 0; i < small.length; i++) expect(small[i]).toBeCloseTo(big[i], 6);
  });
});

describe('marbled dice in a scene', () => {
  it('draw a scene without marbled dice as before the swirls changed (the dice take the same random draws)', () => {
    // Pixel sums of three scenes, taken with drilled pips (drill.ts, 2026-11-27); they matched the sums taken
    // before marble.ts existed until then. A change to how many numbers a die draws would move every die after it.
    const sums = [1, 2, 3].map((seed) => {
      const sc = renderScene({ width: 160, height: 120, faces: [1, 3, 5, 6], seed, mode: 'test', colour: 'red', dieSize: 30 });
      return Math.round(sc.image.data.reduce((s, v) => s + v, 0));
    });
    expect(sums).toEqual(EXPECTED_RED_SUMS);
  });
});

const EXPECTED_RED_SUMS = [13535, 21616, 26486];
