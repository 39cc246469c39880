import { describe, expect, it } from 'vitest';
import { drawLightCast, LIGHT_CAST_RANGES, type LightCastRangeName, withLightCast } from '../../server/vision/training/light-cast.ts';
import { CAMERA_VARIATIONS, castPixels } from '../../server/vision/camera-variation.ts';
import type { FrameSample } from '../../server/vision/training/samples.ts';
import { Rng } from '../../server/synth/random.ts';

describe('training photos in another light', () => {
  it.each(Object.keys(LIGHT_CAST_RANGES) as LightCastRangeName[])('draws %s lights between the coolest and the warmest, dim to bright', (name) => {
    const range = LIGHT_CAST_RANGES[name];
    const rng = new Rng(5);
    const [bLo, bHi] = range.brightness;
    let warm = 0;
    let cool = 0;
    for (let i = 0; i < 500; i++) {
      const [r, g, b] = drawLightCast(rng, range);
      const brightness = g; // green's gain is 1 before brightness at both ends
      expect(brightness).toBeGreaterThanOrEqual(bLo);
      expect(brightness).toBeLessThanOrEqual(bHi);
      expect(r / g).toBeGreaterThanOrEqual(range.cool[0] - 1e-9);
      expect(r / g).toBeLessThanOrEqual(range.warm[0] + 1e-9);
      expect(b / g).toBeGreaterThanOrEqual(range.warm[2] - 1e-9);
      expect(b / g).toBeLessThanOrEqual(range.cool[2] + 1e-9);
      if (b < r) warm++;
      else cool++;
    }
    expect(warm).toBeGreaterThan(150);
    expect(cool).toBeGreaterThan(150);
  });

  it('draws the narrow range unless told, and the wide one reaches tungsten but not candle or skylight', () => {
    expect(drawLightCast(new Rng(9))).toEqual(drawLightCast(new Rng(9), LIGHT_CAST_RANGES.narrow));
    const ratios = (g: readonly number[]) => [g[0] / g[1], g[2] / g[1]];
    const [tr, tb] = ratios(CAMERA_VARIATIONS.tungsten.gains);
    const { narrow, wide } = LIGHT_CAST_RANGES;
    expect(tb).toBeLessThan(narrow.warm[2]);
    expect(tb).toBeGreaterThanOrEqual(wide.warm[2]);
    expect(tr).toBeLessThanOrEqual(wide.warm[0]);
    const [cr, cb] = ratios(CAMERA_VARIATIONS.candle.gains);
    expect(cr > wide.warm[0] && cb < wide.warm[2]).toBe(true);
    const [sr, sb] = ratios(CAMERA_VARIATIONS.skylight.gains);
    expect(sr < wide.cool[0] && sb > wide.cool[2]).toBe(true);
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
