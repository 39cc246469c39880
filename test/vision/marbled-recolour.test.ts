import { describe, expect, it } from 'vitest';
import { dieSizeFromPips, drawMarbledRecolour, marbledRecolourPixels, withMarbledRecolour } from '../../server/vision/training/marbled-recolour.ts';
import type { FrameSample } from '../../server/vision/training/samples.ts';
import { MARBLED_PIP_CONTRAST } from '../../server/synth/scene.ts';
import { Rng } from '../../server/synth/random.ts';

const luma = (c: readonly number[]) => (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255;

/** A white 64×48 photo with one die (a 2, pips spanning 10 px) at (20, 24) and a black pip at its centre. */
function photo(): FrameSample {
  const width = 64;
  const height = 48;
  const data = new Uint8Array(width * height * 3).fill(255);
  data.fill(0, (24 * width + 20) * 3, (24 * width + 20) * 3 + 3);
  return { pixels: { data, width, height }, dice: [{ x: 20, y: 24, size: null, cls: 1, pipSpan: 10 }], source: 'real' };
}

describe('training photos made marbled', () => {
  it('sizes a die from the box its labels draw around the pips', () => {
    expect(dieSizeFromPips(1, 6)).toBe(30);
    expect(dieSizeFromPips(6, 20)).toBe(36);
  });

  it('draws marbled looks whose pips show on both colours, and a swirl for every die', () => {
    const rng = new Rng(8);
    const sample = photo();
    for (let i = 0; i < 200; i++) {
      const tone = drawMarbledRecolour(rng, sample.dice);
      expect(tone.swirls).toHaveLength(1);
      expect(tone.swirls[0]).toMatchObject({ x: 20, y: 24 });
      expect(tone.swirls[0].reach).toBeCloseTo(18 * 0.6);
      const faintest = Math.min(Math.abs(luma(tone.pip) - luma(tone.body)), Math.abs(luma(tone.pip) - luma(tone.marble)));
      expect(faintest).toBeGreaterThan(MARBLED_PIP_CONTRAST - 0.05);
    }
  });

  it('swirls both colours on the die, leaves the table the first colour and paints the pips', () => {
    const sample = photo();
    const body: [number, number, number] = [200, 30, 30];
    const marble: [number, number, number] = [30, 30, 200];
    const halfway = { style: 'bands' as const, at: (x: number) => (x < 0 ? 0 : 1) };
    const out = marbledRecolourPixels(sample.pixels, { pip: [240, 240, 240], body, marble, swirls: [{ x: 20, y: 24, reach: 10, swirl: halfway }] });
    const at = (x: number, y: number) => [...out.data.slice((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    expect(at(60, 5)).toEqual(body);
    expect(at(16, 26)).toEqual(body);
    expect(at(24, 22)).toEqual(marble);
    expect(at(20, 24)).toEqual([240, 240, 240]);
  });

  it('keeps the frame\'s dice and source and leaves the photo as it was', () => {
    const sample = photo();
    const marbled = withMarbledRecolour(sample, drawMarbledRecolour(new Rng(2), sample.dice));
    expect(marbled.dice).toBe(sample.dice);
    expect(marbled.source).toBe('real');
    expect(marbled.pixels.data).not.toEqual(sample.pixels.data);
    expect(sample.pixels.data[3]).toBe(255);
  });
});
