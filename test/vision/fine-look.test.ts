import { describe, expect, it } from 'vitest';
import { mosaicLabels } from '../../server/vision/photo-mosaic.ts';
import { FINE_LOOK_MAX_PX, FIRST_LOOK_MIN_PX, fineLookInput, firstLookScale, mergeLooks } from '../../server/vision/fine-look.ts';

const die = (x: number, y: number, size: number, score = 0.6) => ({ x, y, size, score });

describe('fine look input', () => {
  it('is not needed where the first look sees the frame at a 640×480 frame\'s scale or closer', () => {
    expect(fineLookInput(640, 480)).toBeNull();
    expect(fineLookInput(320, 240)).toBeNull();
    // 1.2 × closer than the first look's 320 / 768 is not worth a second pass
    expect(fineLookInput(768, 576)).toBeNull();
  });

  it('shows a larger frame at half size, rounded up to the detector\'s multiples of 16', () => {
    expect(fineLookInput(800, 600)).toEqual({ width: 400, height: 304 });
    // a portrait frame: the first look fits its height, at 0.375
    expect(fineLookInput(480, 640)).toEqual({ width: 240, height: 320 });
    expect(fineLookInput(1280, 960)).toEqual({ width: 640, height: 480 });
    expect(fineLookInput(1280, 720)).toEqual({ width: 640, height: 368 });
    expect(fineLookInput(1920, 1080)).toEqual({ width: 960, height: 544 });
    expect(firstLookScale(1920, 1080)).toBeCloseTo(1 / 6, 9);
  });

  it('shows a frame too large for that at the largest input it allows, its aspect kept', () => {
    expect(fineLookInput(3840, 2160)).toEqual({ width: 1024, height: 576 });
    expect(fineLookInput(4000, 3000)).toEqual({ width: 1024, height: 768 });
  });
});

describe('merging the two looks', () => {
  // a 1280×960 frame: the first look at 0.25, the fine look at 0.5
  const [firstScale, fineScale] = [0.25, 0.5];

  it('takes a small die both looks found from the fine look, and keeps one only the first look found', () => {
    const first = [die(100, 100, 40, 0.9), die(500, 300, 30, 0.5)];
    const fine = [die(103, 98, 36, 0.7), die(900, 600, 24, 0.4)];
    expect(mergeLooks(first, fine, firstScale, fineScale, 0.6)).toEqual([die(103, 98, 36, 0.7), die(500, 300, 30, 0.5), die(900, 600, 24, 0.4)]);
  });

  it('leaves a die the first look sees well to it, and drops what the fine look finds on its face and sides', () => {
    const size = FIRST_LOOK_MIN_PX / firstScale;
    const first = [die(400, 400, size, 0.5)];
    const pip = die(400 - size / 4, 400 - size / 4, 20, 0.8);
    const side = die(400 + size * 0.7, 400, 40, 0.6);
    const neighbour = die(400 + size * 1.3, 400, 40, 0.6);
    expect(mergeLooks(first, [pip, side, neighbour], firstScale, fineScale, 0.6)).toEqual([neighbour, die(400, 400, size, 0.5)]);
  });

  it('trusts the fine look only with dice up to the size it learned', () => {
    const tooBig = die(700, 500, (FINE_LOOK_MAX_PX + 2) / fineScale, 0.9);
    const largest = die(200, 500, FINE_LOOK_MAX_PX / fineScale, 0.9);
    expect(mergeLooks([], [tooBig, largest], firstScale, fineScale, 0.6)).toEqual([largest]);
  });

  it('gives the first look\'s dice when the fine look found none, strongest first', () => {
    expect(mergeLooks([die(1, 1, 20, 0.3), die(200, 1, 20, 0.8)], [], firstScale, fineScale, 0.6)).toEqual([die(200, 1, 20, 0.8), die(1, 1, 20, 0.3)]);
  });
});

describe('photo mosaics', () => {
  it('place each photo\'s labels in its tile of the larger frame, in reading order', () => {
    const one = [{ cx: 0.5, cy: 0.5, w: 0.1, h: 0.1, face: 3 }];
    const two = [{ cx: 0.25, cy: 0.75, w: 0.2, h: 0.1, face: 6 }];
    expect(mosaicLabels([one, [], [], two], 2)).toEqual([
      { cx: 0.25, cy: 0.25, w: 0.05, h: 0.05, face: 3 },
      { cx: 0.625, cy: 0.875, w: 0.1, h: 0.05, face: 6 },
    ]);
  });
});
