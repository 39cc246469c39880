import { describe, expect, it } from 'vitest';
import { decodePeaks, encodeTargets } from '../../server/vision/heatmap.ts';
import { decideDice, DEFAULT_THRESHOLDS } from '../../server/vision/decide.ts';

function interleave(heat: Float32Array, logSize: Float32Array): Float32Array {
  const out = new Float32Array(heat.length * 2);
  for (let i = 0; i < heat.length; i++) {
    out[i * 2] = heat[i];
    out[i * 2 + 1] = logSize[i];
  }
  return out;
}

describe('heatmap targets and peaks', () => {
  it('round-trips die centres and sizes through the grid', () => {
    const dice = [{ x: 41, y: 30, size: 24 }, { x: 150, y: 100, size: 40 }, { x: 200, y: 20, size: null }];
    const t = encodeTargets(dice, 64, 48, 4, 28);
    expect(t.heat[Math.floor(30 / 4) * 64 + Math.floor(41 / 4)]).toBe(1);
    expect(t.sizeMask.reduce((a, b) => a + b, 0)).toBe(2);
    // the unknown size decodes as exp(0) × stride; only check positions for it
    const peaks = decodePeaks(interleave(t.heat, t.logSize), 64, 48, 4, 0.5);
    expect(peaks).toHaveLength(3);
    for (const d of dice) {
      const p = peaks.find((q) => Math.hypot(q.x - d.x, q.y - d.y) < 4);
      expect(p, `peak near ${d.x},${d.y}`).toBeDefined();
      if (d.size !== null) expect(p!.size).toBeCloseTo(d.size, 3);
    }
  });

  it('weighs the "no die" loss around off-centre pips only when asked, never near a die\'s centre', () => {
    const dice = [{ x: 100, y: 100, size: 40, pips: [[86, 86], [100, 100], [114, 114]] as [number, number][] }];
    expect(encodeTargets(dice, 64, 48, 4, 28).negWeight.every((w) => w === 1)).toBe(true);
    const t = encodeTargets(dice, 64, 48, 4, 28, 5);
    const at = (x: number, y: number): number => t.negWeight[Math.floor(y / 4) * 64 + Math.floor(x / 4)];
    expect(at(86, 86)).toBe(5);
    expect(at(114, 114)).toBe(5);
    // the centre pip lies on the die's own peak
    expect(at(100, 100)).toBe(1);
    expect(at(20, 20)).toBe(1);
  });

  it('suppresses a weaker peak inside a stronger die and ignores peaks under the threshold', () => {
    const gw = 20;
    const gh = 10;
    const out = new Float32Array(gw * gh * 2);
    const set = (x: number, y: number, v: number, size: number): void => {
      out[(y * gw + x) * 2] = v;
      out[(y * gw + x) * 2 + 1] = Math.log(size / 4);
    };
    set(5, 5, 0.9, 40);
    set(7, 5, 0.6, 40); // 8 px away, inside the first die
    set(15, 5, 0.2, 40); // under threshold
    const peaks = decodePeaks(out, gw, gh, 4, 0.3);
    expect(peaks).toHaveLength(1);
    expect(peaks[0].score).toBeCloseTo(0.9);
  });
});

describe('decideDice', () => {
  const probs = (face: number, p = 0.95): number[] => {
    const a = new Array(9).fill((1 - p) / 8);
    a[face] = p;
    return a;
  };

  it('reads confident faces, drops non-dice and says why it is not sure', () => {
    const dets = [
      { x: 100, y: 100, size: 40, score: 0.9 },
      { x: 200, y: 100, size: 40, score: 0.9 },
      { x: 300, y: 100, size: 40, score: 0.9 },
      { x: 400, y: 100, size: 40, score: 0.9 },
      { x: 5, y: 100, size: 40, score: 0.9 },
      { x: 500, y: 100, size: 40, score: 0.9 },
    ];
    const unsure = new Array(9).fill(0.02);
    unsure[2] = 0.35;
    unsure[4] = 0.33;
    const out = decideDice(dets, [probs(4), probs(6), probs(7), probs(8), probs(2), unsure], 640, 480);
    expect(out).toHaveLength(5);
    expect(out[0]).toMatchObject({ x: 100, y: 100, face: 5 });
    expect(out[0].score).toBeGreaterThan(0.8);
    expect(out[1]).toMatchObject({ face: null, unreadable: 'cocked' });
    expect(out[2]).toMatchObject({ face: null, unreadable: 'blurred' });
    expect(out[3]).toMatchObject({ face: null, unreadable: 'edge' });
    expect(out[4]).toMatchObject({ face: null, unreadable: 'unsure' });
  });

  it('reads a die cut by the frame edge when its pips are in view, and calls an unreadable cut die edge', () => {
    // 6 px of a 40 px face beyond the left edge (0.15 × size): below the hard limit
    const cut = { x: 14, y: 100, size: 40, score: 0.9 };
    expect(decideDice([cut], [probs(3)], 640, 480)[0]).toMatchObject({ face: 4 });
    expect(decideDice([cut], [probs(7)], 640, 480)[0]).toMatchObject({ face: null, unreadable: 'edge' });
    // the same classifier output away from the edge is a leaning die
    expect(decideDice([{ ...cut, x: 300 }], [probs(7)], 640, 480)[0]).toMatchObject({ unreadable: 'cocked' });
    // 14 px beyond the bottom edge (0.35 × size): edge whatever the classifier says
    expect(decideDice([{ x: 300, y: 486, size: 40, score: 0.9 }], [probs(3)], 640, 480)[0]).toMatchObject({ face: null, unreadable: 'edge' });
  });

  it('drops a "not sure" peak on the side of a die it read, and keeps one a die apart', () => {
    const unsure = new Array(9).fill(0.02);
    unsure[2] = 0.35;
    unsure[4] = 0.33;
    const top = { x: 300, y: 200, size: 80, score: 0.9 };
    const side = { x: 300, y: 260, size: 60, score: 0.5 }; // 0.75 × size below the top face's centre, looks smaller
    const neighbour = { x: 300, y: 120, size: 80, score: 0.5 }; // touching, one size away
    const t = { ...DEFAULT_THRESHOLDS, sideFace: 0.9, sideFaceSize: 0.8 };
    const out = decideDice([top, side, neighbour], [probs(5), unsure, unsure], 640, 480, t);
    expect(out.map((d) => [d.y, d.face, d.unreadable])).toEqual([[200, 6, undefined], [120, null, 'unsure']]);
    // a side read with a face is kept (only the classifier can call it "not a die"), and 0 turns the rule off
    expect(decideDice([top, side], [probs(5), probs(1)], 640, 480, t)).toHaveLength(2);
    expect(decideDice([top, side], [probs(5), unsure], 640, 480, { ...t, sideFace: 0 })).toHaveLength(2);
    // as close, but as big as the die read: a die beside it that the detector placed too near
    expect(decideDice([top, { ...side, size: 78 }], [probs(5), unsure], 640, 480, t)).toHaveLength(2);
  });

  it('does not report a faint die it cannot read, but keeps a faint read die and a faint cut die', () => {
    const faint = { x: 300, y: 200, size: 40, score: 0.25 }; // cocked: 0.25 × 0.5 = 0.125 < 0.15
    const cocked = probs(7, 0.5);
    expect(decideDice([faint], [cocked], 640, 480)).toEqual([]);
    expect(decideDice([{ ...faint, score: 0.4 }], [cocked], 640, 480)[0]).toMatchObject({ unreadable: 'cocked', score: 0.2 });
    expect(decideDice([faint], [cocked], 640, 480, { ...DEFAULT_THRESHOLDS, faint: 0 })).toHaveLength(1);
    expect(decideDice([faint], [probs(2, 0.5)], 640, 480)[0]).toMatchObject({ face: 3 });
    expect(decideDice([{ ...faint, x: 2, score: 0.1 }], [cocked], 640, 480)[0]).toMatchObject({ unreadable: 'edge', score: 0.094 });
  });

  it('calls a die cocked when its unreadable-pose probability passes the cocked ratio × the faces\' total', () => {
    const die = { x: 300, y: 200, size: 40, score: 0.9 };
    // faces 0.55 in all (a 4 at 0.5), unreadable pose 0.4
    const leaning = [0.01, 0.01, 0.01, 0.5, 0.01, 0.01, 0.03, 0.4, 0.02];
    expect(decideDice([die], [leaning], 640, 480)[0]).toMatchObject({ face: 4 });
    expect(decideDice([die], [leaning], 640, 480, { ...DEFAULT_THRESHOLDS, cocked: 0.7 })[0]).toMatchObject({ face: null, unreadable: 'cocked' });
    expect(decideDice([die], [leaning], 640, 480, { ...DEFAULT_THRESHOLDS, cocked: 0.75 })[0]).toMatchObject({ face: 4 });
  });

  it('says "not sure" of a die its classifier finds nearly as likely cocked as showing a face (a leaning die), and reads a flat one', () => {
    const leaningDie = { x: 300, y: 200, size: 40, score: 0.9 };
    const flatDie = { x: 400, y: 200, size: 40, score: 0.9 };
    // a leaning die named a 3 at whichever is more likely: faces 0.54 in all, unreadable pose 0.45 (0.83 × the faces)
    const leaning = [0.005, 0.005, 0.52, 0.005, 0.0025, 0.0025, 0.01, 0.45, 0];
    // a flat die touching others: faces 0.7 in all, unreadable pose 0.3 (0.43 × the faces)
    const flat = [0.01, 0.01, 0.01, 0.01, 0.65, 0.01, 0.01, 0.3, 0];
    const out = decideDice([leaningDie, flatDie], [leaning, flat], 640, 480);
    expect(out).toMatchObject([{ x: 300, face: null, unreadable: 'cocked', score: 0.405 }, { x: 400, face: 5 }]);
    // whichever is more likely (the ratio up to 2026-12-02) named the leaning die's face
    expect(decideDice([leaningDie], [leaning], 640, 480, { ...DEFAULT_THRESHOLDS, cocked: 1 })[0]).toMatchObject({ face: 3 });
  });
});
