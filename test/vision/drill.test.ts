import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DRILL_DEPTH, FLUSH_PIP_SHARE, pipDrill } from '../../server/synth/drill.ts';
import { drawDie, type DieLook, type DiePose } from '../../server/synth/die.ts';
import { RgbImage } from '../../server/synth/image.ts';
import { Rng } from '../../server/synth/random.ts';
import { renderScene } from '../../server/synth/scene.ts';

/** The draws `drawDie` takes for a die's glare place and top shade, at size 60. */
function draws(rng: Rng): [number, number, number] {
  return [rng.range(-0.35, 0.35) * 60, rng.range(-0.35, 0.35) * 60, rng.range(0.85, 1.08)];
}

describe('pipDrill', () => {
  it('leaves about its share of dice flush and drills the rest within the depth range, the same for the same draws', () => {
    const rng = new Rng(7);
    const n = 3000;
    let flush = 0;
    for (let k = 0; k < n; k++) {
      const d = draws(rng);
      const drill = pipDrill(...d);
      expect(pipDrill(...d).depth).toBe(drill.depth);
      if (drill.depth === 0) flush++;
      else {
        expect(drill.depth).toBeGreaterThanOrEqual(DRILL_DEPTH[0]);
        expect(drill.depth).toBeLessThanOrEqual(DRILL_DEPTH[1]);
      }
    }
    expect(Math.abs(flush / n - FLUSH_PIP_SHARE)).toBeLessThan(0.025);
  });

  it('shades the wall on the light side darker than the far wall, darkens the rim, and leaves a flush pip alone', () => {
    const rng = new Rng(3);
    let drill = pipDrill(...draws(rng));
    while (drill.depth === 0) drill = pipDrill(...draws(rng));
    const [lx, ly] = [Math.cos(1), Math.sin(1)];
    expect(drill.shade(0, 0, lx, ly)).toBe(1);
    expect(drill.shade(0.8 * lx, 0.8 * ly, lx, ly)).toBeLessThan(0.9);
    expect(drill.shade(-0.5 * lx, -0.5 * ly, lx, ly)).toBeGreaterThan(1);
    expect(drill.shade(0.95 * -ly, 0.95 * lx, lx, ly)).toBeLessThan(drill.shade(0.3 * -ly, 0.3 * lx, lx, ly));

    let flush = pipDrill(...draws(rng));
    while (flush.depth !== 0) flush = pipDrill(...draws(rng));
    for (const [qx, qy] of [[0, 0], [0.9, 0], [-0.5, 0.7]]) expect(flush.shade(qx, qy, lx, ly)).toBe(1);
  });
});

describe('drilled pips on a die', () => {
  const pose: DiePose = { cx: 40, cy: 40, size: 50, angle: 0.3, ox: 0, oy: 0, squash: 1, blurX: 0, blurY: 0 };
  const look = (pipRadius: number): DieLook => ({ body: [0.8, 0.3, 0.2], pip: [0.8, 0.3, 0.2], opacity: 1, pipRadius, pipSpacing: 0.27, corner: 0.15, bigOne: 1 });
  const render = (seed: number, pipRadius: number): Float32Array => {
    const img = new RgbImage(80, 80);
    drawDie(img, pose, 5, look(pipRadius), new Rng(seed));
    return img.data;
  };

  it('shows a pip painted in the body colour when drilled, and not when flush', () => {
    const seen = { drilled: 0, flush: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const withPips = render(seed, 0.09);
      const without = render(seed, 0);
      let diff = 0;
      for (let i = 0; i < withPips.length; i++) diff = Math.max(diff, Math.abs(withPips[i] - without[i]));
      if (diff < 1e-6) seen.flush++;
      else {
        expect(diff).toBeGreaterThan(0.1);
        seen.drilled++;
      }
    }
    expect(seen.flush).toBeGreaterThan(0);
    expect(seen.drilled).toBeGreaterThan(seen.flush);
  });

  it('draws finite pixels for a pip of no size, even where a pixel centre lies on the pip\'s centre', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const img = new RgbImage(80, 80);
      drawDie(img, { ...pose, cx: 39.5, cy: 40.5 }, 5, look(0), new Rng(seed));
      expect(img.data.every((v) => Number.isFinite(v))).toBe(true);
    }
  });

  it('keeps every scene\'s dice, faces and places as before the pips were drilled (no new random draws)', () => {
    // Digest taken with flush pips, before drill.ts existed.
    const h = createHash('sha256');
    for (let seed = 1; seed <= 30; seed++) {
      const sc = renderScene({ width: 320, height: 240, faces: [1, 2, 3, 4, 5, 6], seed, mode: 'train' });
      h.update(JSON.stringify(sc.dice.map((d) => [d.x, d.y, d.w, d.h, d.face, d.unreadable ?? null].map((v) => (typeof v === 'number' ? v.toFixed(6) : v)))));
    }
    expect(h.digest('hex').slice(0, 16)).toBe('1880289db571c8a7');
  });
});
