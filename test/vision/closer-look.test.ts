import { describe, expect, it } from 'vitest';
import { CLOSER_LOOK_INPUT, closerLookWindow, placeAgain } from '../../server/vision/closer-look.ts';
import { letterboxFor } from '../../server/vision/preprocess.ts';

const die = (x: number, y: number, size: number) => ({ x, y, size, score: 0.6 });

describe('closer look window', () => {
  it('zooms a small die to the asked size, inside the frame, at the closer look input aspect', () => {
    // a 20 px die shown at 30 pixels of a 128 × 96 input: an 85 × 64 window around it
    expect(closerLookWindow(die(300, 200, 20), 640, 480, 30)).toEqual({ x0: 258, y0: 168, width: 85, height: 64 });
    // near a corner the window slides into the frame instead of leaving it
    expect(closerLookWindow(die(10, 470, 20), 640, 480, 30)).toEqual({ x0: 0, y0: 416, width: 85, height: 64 });
  });

  it('gives no window where it would hardly be closer than the first look', () => {
    // the first look shows a 640 × 480 frame at half size: a 60 px die is already 30 detector pixels
    expect(closerLookWindow(die(300, 200, 60), 640, 480, 30)).toBeNull();
    // at least 1.05 × closer than the first look: 57 px dice get a 243 × 182 window, 58 px ones none
    expect(closerLookWindow(die(300, 200, 58), 640, 480, 30)).toBeNull();
    expect(closerLookWindow(die(300, 200, 57), 640, 480, 30)).toEqual({ x0: 179, y0: 109, width: 243, height: 182 });
    // a big frame makes the same die small for the first look
    expect(closerLookWindow(die(900, 500, 60), 1920, 1080, 30)).not.toBeNull();
  });
});

describe('placing a die again from the closer look', () => {
  const window = { x0: 258, y0: 168, width: 85, height: 64 };
  const box = letterboxFor(window.width, window.height, CLOSER_LOOK_INPUT);
  const peakAt = (wx: number, wy: number, size: number, score: number) => ({ x: wx * box.scale + box.padX, y: wy * box.scale + box.padY, size: size * box.scale, score });

  it('takes the peak nearest the first centre, in frame pixels, with its size, and keeps the first score', () => {
    // window pixel (42.5, 32.5) is frame (300.5, 200.5)
    const placed = placeAgain(die(302, 198, 20), [peakAt(5, 5, 20, 0.9), peakAt(42.5, 32.5, 22, 0.4)], box, window);
    expect(placed!.x).toBeCloseTo(300.5, 6);
    expect(placed!.y).toBeCloseTo(200.5, 6);
    expect(placed!.size).toBeCloseTo(22, 6);
    expect(placed!.score).toBe(0.6);
  });

  it('finds nothing when no peak lies within half the die', () => {
    expect(placeAgain(die(300, 200, 20), [peakAt(5, 5, 20, 0.9)], box, window)).toBeNull();
    expect(placeAgain(die(300, 200, 20), [], box, window)).toBeNull();
  });
});
