import { describe, expect, it } from 'vitest';
import { drawLightCast, LIGHT_CAST_RANGE, withLightCast } from '../../server/vision/training/light-cast.ts';
import { castPixels } from '../../server/vision/camera-variation.ts';
import type { FrameSample } from '../../server/vision/training/samples.ts';
import { Rng } from '../../server/synth/random.ts';

describe('training photos in another light', () => {
  it('draws lights between the coolest and the warmest, dim to bright', () => {
    const rng = new Rng(5);
    const [bLo, bHi] = LIGHT_CAST_RANGE.brightness;
    let warm = 0;
    let cool = 0;
    for (let i = 0; i < 500; i++) {
      const [r, g, b] = drawLightCast(rng);
      const brightness = g; // green's gain is 1 before brightness at both ends
      expect(brightness).toBeGreaterThanOrEqual(bLo);
      expect(brightness).toBeLessThanOrEqual(bHi);
      expect(r / g).toBeGreaterThanOrEqual(LIGHT_CAST_RANGE.cool[0] - 1e-9);
      expect(r / g).toBeLessThanOrEqual(LIGHT_CAST_RANGE.warm[0] + 1e-9);
      expect(b / g).toBeGreaterThanOrEqual(LIGHT_CAST_RANGE.warm[2] - 1e-9);
      expect(b / g).toBeLessThanOrEqual(LIGHT_CAST_RANGE.cool[2] + 1e-9);
      if (b < r) warm++;
      else cool++;
    }
    expect(warm).toBeGreaterThan(150);
    expect(cool).toBeGreaterThan(150);
  });

  it('scales each channel by its gain and stops at white', () => {
    const out = castPixels({ data: Uint8Array.from([100, 100, 100, 250, 10, 0]), width: 2, height: 1 }, [1.2, 0.5, 2]);
    expect([...out.data]).toEqual([120, 50, 200, 255, 5, 0]);
  });

  it('keeps the frame\'s dice and source', () => {
    const sample: FrameSample = { pixels: { data: new Uint8Array(8 * 8 * 3).fill(90), width: 8, height: 8 }, dice: [{ x: 4, y: 4, size: null, cls: 2 }], source: 'real' };
    const lit = withLightCast(sample, [1, 1, 0.5]);
    expect(lit.dice).toBe(sample.dice);
    expect(lit.source).toBe('real');
    expect(lit.pixels.data[2]).toBe(45);
    expect(sample.pixels.data[2]).toBe(90);
  });
});
