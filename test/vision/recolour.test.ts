import { describe, expect, it } from 'vitest';
import { drawRecolour, RECOLOUR_KINDS, withRecolour } from '../../server/vision/training/recolour.ts';
import type { FrameSample } from '../../server/vision/training/samples.ts';
import { Rng } from '../../server/synth/random.ts';

const luma = (c: readonly number[]) => (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255;

describe('training photos recoloured', () => {
  it('draws dice of the taught colours whose pips stand out from them, and never blue ones', () => {
    expect(RECOLOUR_KINDS).not.toContain('blue');
    const rng = new Rng(3);
    let darkDice = 0;
    for (let i = 0; i < 300; i++) {
      const { dark, light } = drawRecolour(rng);
      expect(Math.abs(luma(dark) - luma(light))).toBeGreaterThan(0.3);
      for (const c of [...dark, ...light]) expect(c >= 0 && c <= 255 && Number.isInteger(c)).toBe(true);
      const nearBlue = [0.1, 0.22, 0.7].every((v, c) => Math.abs(light[c] - v * 255) <= 0.08 * 255 + 1);
      expect(nearBlue).toBe(false);
      if (luma(light) < luma(dark)) darkDice++;
    }
    expect(darkDice).toBeGreaterThan(60);
  });

  it('keeps the frame\'s dice and source and leaves the photo as it was', () => {
    const sample: FrameSample = { pixels: { data: new Uint8Array(4 * 4 * 3).fill(255), width: 4, height: 4 }, dice: [{ x: 2, y: 2, size: null, cls: 5 }], source: 'real' };
    const red = withRecolour(sample, { dark: [250, 250, 250], light: [190, 20, 30] });
    expect(red.dice).toBe(sample.dice);
    expect(red.source).toBe('real');
    expect([...red.pixels.data.slice(0, 3)]).toEqual([190, 20, 30]);
    expect(sample.pixels.data[1]).toBe(255);
  });
});
