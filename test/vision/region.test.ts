import { describe, expect, it } from 'vitest';
import { VisionInputError } from '../../server/vision/errors.ts';
import { letterboxFor } from '../../server/vision/preprocess.ts';
import { checkRegion, REGION_MARGIN_PX, regionLook, regionWindow, windowHolds } from '../../server/vision/region.ts';

describe('the window a look at part of the frame needs', () => {
  it('holds the region and a margin of REGION_MARGIN_PX detector pixels, in an input of multiples of 16 at the same scale', () => {
    // a 640×480 frame's first look is at 0.5: the margin is 64 frame pixels
    expect(REGION_MARGIN_PX / 0.5).toBe(64);
    const region = { x: 0.3, y: 0.3, w: 0.4, h: 0.38 };
    // x: 192 − 64 .. 448 + 64 = 384 wide, 192 input pixels; y: 144 − 64 .. 326.4 + 64 → 80 .. 391, 311 high,
    // 155.5 → 160 input pixels, so the window grows to 320, 4 pixels up and 5 down
    expect(regionWindow(640, 480, 0.5, region)).toEqual({ x0: 128, y0: 80, width: 384, height: 311 });
    const look = regionLook(640, 480, 0.5, region)!;
    expect(look).toEqual({ window: { x0: 128, y0: 76, width: 384, height: 320 }, input: { width: 192, height: 160 } });
    expect(letterboxFor(384, 320, look.input)).toEqual({ scale: 0.5, padX: 0, padY: 0 });
  });

  it('stays inside the frame: a region at its edge grows inwards', () => {
    const look = regionLook(640, 480, 0.5, { x: 0.9, y: 0, w: 0.1, h: 0.3 })!;
    expect(look.window.x0 + look.window.width).toBe(640);
    expect(look.window.y0).toBe(0);
    expect(look.window.width).toBe(look.input.width / 0.5);
    expect(look.window.height).toBe(look.input.height / 0.5);
  });

  it('takes the whole frame, at the look\'s scale, when the region and its margin cover it', () => {
    // the margin reaches the frame's edges from 4 % in
    expect(regionWindow(640, 480, 0.5, { x: 0.04, y: 0.04, w: 0.92, h: 0.92 })).toEqual({ x0: 0, y0: 0, width: 640, height: 480 });
    expect(regionLook(640, 480, 0.5, { x: 0.04, y: 0.04, w: 0.92, h: 0.92 })).toEqual({ window: { x0: 0, y0: 0, width: 640, height: 480 }, input: { width: 320, height: 240 } });
    // a 1920×1080 frame's first look is at 1/6: 320×180, in an input 192 high
    const look = regionLook(1920, 1080, 1 / 6, { x: 0, y: 0, w: 1, h: 1 });
    expect(look).toEqual({ window: { x0: 0, y0: 0, width: 1920, height: 1080 }, input: { width: 320, height: 192 } });
    expect(letterboxFor(1920, 1080, look.input).scale).toBeCloseTo(1 / 6, 9);
  });

  it('holds a point on its edge', () => {
    const w = { x0: 10, y0: 20, width: 100, height: 50 };
    expect([windowHolds(w, 10, 20), windowHolds(w, 110, 70), windowHolds(w, 9.9, 30), windowHolds(w, 50, 70.1)]).toEqual([true, true, false, false]);
  });

  it('keeps each look at its scale whatever the frame and region', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 500; i++) {
      const [width, height] = [[640, 480], [1280, 720], [1920, 1080], [800, 600], [480, 640]][i % 5];
      const scale = [0.5, 1 / 6, 0.25, 0.375][i % 4];
      const x = rand() * 0.9;
      const y = rand() * 0.9;
      const region = { x, y, w: 0.02 + rand() * rand() * (0.98 - x), h: 0.02 + rand() * rand() * (0.98 - y) };
      const { window: win, input } = regionLook(width, height, scale, region);
      expect(Number.isInteger(win.x0) && Number.isInteger(win.y0) && Number.isInteger(win.width) && Number.isInteger(win.height)).toBe(true);
      expect(win.x0).toBeGreaterThanOrEqual(0);
      expect(win.y0).toBeGreaterThanOrEqual(0);
      expect(win.x0 + win.width).toBeLessThanOrEqual(width);
      expect(win.y0 + win.height).toBeLessThanOrEqual(height);
      expect(input.width % 16).toBe(0);
      expect(input.height % 16).toBe(0);
      // the region and its margin are inside the window, where the frame has them
      const margin = REGION_MARGIN_PX / scale;
      expect(win.x0).toBeLessThanOrEqual(Math.max(0, region.x * width - margin));
      expect(win.x0 + win.width).toBeGreaterThanOrEqual(Math.min(width, (region.x + region.w) * width + margin) - 1e-9);
      expect(win.y0).toBeLessThanOrEqual(Math.max(0, region.y * height - margin));
      expect(win.y0 + win.height).toBeGreaterThanOrEqual(Math.min(height, (region.y + region.h) * height + margin) - 1e-9);
      // the detector sees the window's dice at the size it sees the whole frame's (a pixel's rounding apart)
      expect(letterboxFor(win.width, win.height, input).scale / scale).toBeCloseTo(1, 2);
    }
  });
});

describe('a region asked for', () => {
  it('is accepted inside the image', () => {
    expect(checkRegion({ x: 0, y: 0, w: 1, h: 1 })).toEqual({ x: 0, y: 0, w: 1, h: 1 });
    expect(checkRegion({ x: 0.04, y: 0.04, w: 0.92, h: 0.92 })).toEqual({ x: 0.04, y: 0.04, w: 0.92, h: 0.92 });
  });

  it('is refused with a clear error when it is not a rectangle inside the image', () => {
    const bad: [unknown, RegExp][] = [
      [{ x: 0.1, y: 0.1, w: 0.5 }, /region\.h must be a number/],
      [{ x: '0.1', y: 0.1, w: 0.5, h: 0.5 }, /region\.x must be a number/],
      [{ x: Number.NaN, y: 0.1, w: 0.5, h: 0.5 }, /region\.x must be a number/],
      [{ x: -0.1, y: 0.1, w: 0.5, h: 0.5 }, /must lie inside the image/],
      [{ x: 0.6, y: 0.1, w: 0.5, h: 0.5 }, /must lie inside the image/],
      [{ x: 0.1, y: 0.1, w: 0, h: 0.5 }, /have a size/],
      [null, /region\.x must be a number/],
    ];
    for (const [region, message] of bad) {
      expect(() => checkRegion(region as never)).toThrow(VisionInputError);
      expect(() => checkRegion(region as never)).toThrow(message);
    }
  });
});
