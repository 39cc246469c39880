import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../server/vision/backend.ts';
import { CLOSER_LOOK_INPUT } from '../../server/vision/closer-look.ts';
import { closerLookTrainingWindow, detectorExample, TARGET_CHANNELS as C } from '../../server/vision/training/train.ts';
import type { FrameSample } from '../../server/vision/training/samples.ts';
import { MODEL_SPEC } from '../../server/vision/spec.ts';
import { Rng } from '../../server/synth/random.ts';

const { inputWidth, inputHeight, stride } = MODEL_SPEC.detector;

/** A grey 640 × 480 frame with the given dice (pixels do not matter to the targets). */
function frame(dice: FrameSample['dice']): FrameSample {
  return { pixels: { data: new Uint8Array(640 * 480 * 3).fill(128), width: 640, height: 480 }, dice, source: 'synthetic' };
}

const peakCells = (target: Float32Array, gw: number): [number, number][] =>
  Array.from({ length: target.length / C }, (_, i) => i).filter((i) => target[i * C] === 1).map((i) => [i % gw, Math.floor(i / gw)]);

beforeAll(async () => {
  await initBackend('wasm');
});

describe('detector training examples', () => {
  it('letterbox the whole frame into the spec input, with a peak at each die', () => {
    const ex = detectorExample(frame([{ x: 100, y: 200, size: 30, cls: 0 }]), false);
    expect([ex.gw, ex.gh]).toEqual([inputWidth / stride, inputHeight / stride]);
    expect(ex.input).toHaveLength(inputWidth * inputHeight * 3);
    // 640 → 320: the die's centre (50, 100) lies in cell (12, 25)
    expect(peakCells(ex.target, ex.gw)).toEqual([[12, 25]]);
  });

  it('cut a closer look window into the closer look input, its dice where that look would see them', () => {
    const window = { x0: 258, y0: 168, width: 85, height: 64 };
    const ex = detectorExample(frame([{ x: 300, y: 200, size: 20, cls: 2 }, { x: 600, y: 50, size: 20, cls: 3 }]), false, window);
    expect([ex.gw, ex.gh]).toEqual([CLOSER_LOOK_INPUT.width / stride, CLOSER_LOOK_INPUT.height / stride]);
    expect(ex.input).toHaveLength(CLOSER_LOOK_INPUT.width * CLOSER_LOOK_INPUT.height * 3);
    // 85 × 64 px → 128 × 96: scale 1.5; (300, 200) is window pixel (42, 32), input (63, 48): cell (15, 12); the far die is outside
    expect(peakCells(ex.target, ex.gw)).toEqual([[15, 12]]);
    // its size is learnt at the window's scale: 20 px × 1.5 = 30 input pixels
    const cell = 12 * ex.gw + 15;
    expect(Math.exp(ex.target[cell * C + 1]) * stride).toBeCloseTo(30, 4);
  });

  it('weigh the cells around the pips away from a die\'s centre when told, mirrored with the frame', () => {
    // a 2 of 60 px at (100, 200): pips at (85, 185) and (115, 215), input (42.5, 92.5) and (57.5, 107.5)
    const two = { x: 100, y: 200, size: 60, cls: 1, pips: [[85, 185], [115, 215]] as [number, number][] };
    const weighted = (ex: ReturnType<typeof detectorExample>): [number, number][] =>
      Array.from({ length: ex.gw * ex.gh }, (_, i) => i).filter((i) => ex.target[i * C + 3] !== 1).map((i) => [i % ex.gw, Math.floor(i / ex.gw)]);
    expect(weighted(detectorExample(frame([two]), false))).toEqual([]);
    const ex = detectorExample(frame([two]), false, undefined, 4);
    const cells = weighted(ex);
    // the 3 × 3 cells around each pip's cell, (10, 23) and (14, 26), but those near the die's centre (12, 25)
    expect(cells.length).toBeGreaterThan(8);
    expect(cells.length).toBeLessThanOrEqual(18);
    expect(cells).toContainEqual([10, 23]);
    expect(cells).toContainEqual([14, 26]);
    expect(cells).not.toContainEqual([12, 25]);
    for (const [x, y] of cells) expect(ex.target[(y * ex.gw + x) * C + 3]).toBe(4);
    const flipped = weighted(detectorExample(frame([two]), true, undefined, 4));
    // mirrored: 640 − 85 = 555 → input 277.5, cell 69
    expect(flipped).toContainEqual([69, 23]);
    expect(flipped).not.toContainEqual([10, 23]);
  });

  it('weigh the cells around the detector\'s own false peaks when told, never a die\'s centre', () => {
    const die = { x: 100, y: 200, size: 30, cls: 0 };
    // a false peak at (400, 300): input (200, 150), cell (50, 37); another on the die itself
    const negatives = { peaks: [{ x: 400, y: 300, size: 30 }, { x: 100, y: 200, size: 30 }], weight: 4 };
    const ex = detectorExample(frame([die]), false, undefined, 1, negatives);
    const weight = (x: number, y: number): number => ex.target[(y * ex.gw + x) * C + 3];
    for (let y = 36; y <= 38; y++) for (let x = 49; x <= 51; x++) expect(weight(x, y)).toBe(4);
    expect(weight(48, 37)).toBe(1);
    expect(weight(52, 37)).toBe(1);
    expect(weight(12, 25)).toBe(1);
    expect(ex.target[(25 * ex.gw + 12) * C]).toBe(1);
    const weighted = Array.from({ length: ex.gw * ex.gh }, (_, i) => ex.target[i * C + 3]).filter((w) => w !== 1);
    // the 9 cells of the far peak, and those around the die's centre where its heat is low
    expect(weighted.length).toBeGreaterThanOrEqual(9);
    expect(weighted.length).toBeLessThan(18);
    // mirrored with the frame: 640 − 400 = 240 → input 120, cell 30
    const flipped = detectorExample(frame([die]), true, undefined, 1, negatives);
    expect(flipped.target[(37 * flipped.gw + 30) * C + 3]).toBe(4);
    expect(flipped.target[(37 * flipped.gw + 50) * C + 3]).toBe(1);
  });

  it('take windows around small dice only, near their centres', () => {
    const rng = new Rng(4);
    expect(closerLookTrainingWindow(frame([{ x: 300, y: 200, size: 90, cls: 0 }]), rng, 30)).toBeNull();
    expect(closerLookTrainingWindow(frame([{ x: 300, y: 200, size: null, cls: 0 }]), rng, 30)).toBeNull();
    for (let i = 0; i < 20; i++) {
      const w = closerLookTrainingWindow(frame([{ x: 300, y: 200, size: 90, cls: 0 }, { x: 400, y: 300, size: 20, cls: 0 }]), rng, 30)!;
      expect(w.width).toBe(85);
      // the window's centre within 0.15 × size (3 px) of the small die's, give or take rounding
      expect(Math.abs(w.x0 + w.width / 2 - 400)).toBeLessThanOrEqual(3.5);
      expect(Math.abs(w.y0 + w.height / 2 - 300)).toBeLessThanOrEqual(3.5);
    }
  });
});
