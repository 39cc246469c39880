import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import fc from 'fast-check';
import { changedFraction, estimateShift, neighbourhoodRange, SettleDetector, smoothGrey, validateSettleOptions, type GreyFrame } from '../../../server/hardware/camera/settle.ts';
import { watchMask } from '../../../server/hardware/camera/calibration.ts';
import { decodeGrey } from '../../../server/hardware/camera/grey.ts';
import { syntheticSetScene } from '../../../server/synth/test-set.ts';
import { CAMERA_JITTER, stillFrame } from '../../../server/synth/camera-frames.ts';
import { Rng } from '../../../server/synth/random.ts';
import { greyFrame } from './helpers.ts';

const W = 160;
const H = 120;

/** Scene i of the seed-1 coloured set as a still picture, and the JPEG quality that set is saved at. */
function stillPicture(i: number) {
  const { scene, jpegQuality } = syntheticSetScene(i, 1);
  return { scene, jpegQuality, picture: { data: new Uint8Array(scene.image.toBytes()), width: scene.image.width, height: scene.image.height } };
}
async function filmed(picture: ReturnType<typeof stillPicture>['picture'], rng: Rng, jitter: typeof CAMERA_JITTER, quality: number) {
  const frame = stillFrame(picture, rng, jitter);
  return decodeGrey(await sharp(frame.data, { raw: { width: picture.width, height: picture.height, channels: 3 } }).jpeg({ quality }).toBuffer());
}

describe('SettleDetector', () => {
  it('settles after N still frames of a noisy camera, not before', () => {
    const d = new SettleDetector({ stillFrames: 3 });
    const dice = [{ x: 20, y: 30, size: 8 }, { x: 90, y: 60, size: 8 }];
    const states = [1, 2, 3, 4, 5].map((seed) => d.push(greyFrame(W, H, dice, 6, seed)));
    expect(states.map((s) => s.moving)).toEqual([false, false, false, false, false]);
    // the first frame has nothing to compare with: 3 still frames end at the 4th
    expect(states.map((s) => s.settled)).toEqual([false, false, false, true, true]);
    expect(states.map((s) => s.justSettled)).toEqual([false, false, false, true, false]);
  });

  it('never settles while the dice keep moving, and settles once they stop', () => {
    const d = new SettleDetector({ stillFrames: 2 });
    const seq = [];
    for (let i = 0; i < 8; i++) seq.push(d.push(greyFrame(W, H, [{ x: 10 + i * 12, y: 20 + i * 8, size: 8 }], 4, i)));
    expect(seq.slice(1).every((s) => s.moving && !s.settled)).toBe(true);
    const stop = { x: 10 + 7 * 12, y: 20 + 7 * 8, size: 8 };
    const after = [d.push(greyFrame(W, H, [stop], 4, 100)), d.push(greyFrame(W, H, [stop], 4, 101)), d.push(greyFrame(W, H, [stop], 4, 102))];
    expect(after.map((s) => s.settled)).toEqual([false, true, true]);
  });

  it('reports a disturbance of settled dice once, then settles again', () => {
    const d = new SettleDetector({ stillFrames: 2 });
    const a = [{ x: 40, y: 40, size: 10 }];
    for (let i = 0; i < 4; i++) d.push(greyFrame(W, H, a, 0));
    expect(d.isSettled()).toBe(true);
    const moved = d.push(greyFrame(W, H, [{ x: 60, y: 40, size: 10 }], 0));
    expect(moved).toMatchObject({ moving: true, settled: false, justMoved: true });
    const again = d.push(greyFrame(W, H, [{ x: 60, y: 40, size: 10 }], 0));
    expect(again.justMoved).toBe(false);
  });

  it('ignores motion outside the tray mask', () => {
    const mask = watchMask({ tray: { kind: 'rect', x: 0, y: 0, w: 0.5, h: 1 }, keptZone: null }, W, H);
    const d = new SettleDetector({ stillFrames: 2 }, mask);
    const inTray = { x: 20, y: 50, size: 10 };
    const states = [];
    for (let i = 0; i < 5; i++) states.push(d.push(greyFrame(W, H, [inTray, { x: 90 + i * 10, y: 20, size: 14 }], 0)));
    expect(states.some((s) => s.moving)).toBe(false);
    expect(d.isSettled()).toBe(true);
    // the same motion counts when the whole frame is watched
    const whole = new SettleDetector({ stillFrames: 2 });
    const ws = [];
    for (let i = 0; i < 5; i++) ws.push(whole.push(greyFrame(W, H, [inTray, { x: 90 + i * 10, y: 20, size: 14 }], 0)));
    expect(ws.slice(1).every((s) => s.moving)).toBe(true);
  });

  it('measures the changed share of pixels', () => {
    const a = greyFrame(10, 10, []);
    const b = greyFrame(10, 10, [{ x: 0, y: 0, size: 2 }]);
    expect(changedFraction(a, b, { threshold: 10 })).toBeCloseTo(0.04);
    expect(() => changedFraction(a, greyFrame(5, 5, []), { threshold: 10 })).toThrow(/differ in size/);
  });

  it('forgives a camera shake of up to shiftTolerance pixels, not a die that moved further', () => {
    const dice = [{ x: 30, y: 30, size: 12 }, { x: 100, y: 70, size: 12 }];
    const shaken = dice.map((d) => ({ ...d, x: d.x + 1, y: d.y - 1 }));
    const a = smoothGrey(greyFrame(W, H, dice));
    const b = smoothGrey(greyFrame(W, H, shaken));
    expect(changedFraction(a, b, { threshold: 18, tolerance: 1 })).toBe(0);
    expect(changedFraction(a, b, { threshold: 18, tolerance: 0 })).toBeGreaterThan(0.002);
    const rolled = smoothGrey(greyFrame(W, H, [dice[0], { x: 106, y: 70, size: 12 }]));
    expect(changedFraction(a, rolled, { threshold: 18, tolerance: 1 })).toBeGreaterThan(0.002);
  });

  /** A tray (its walls an outline 3 grey pixels thick) with dice, everything moved by (ox, oy) as a shaken camera would. */
  function trayFrame(dice: { x: number; y: number; size: number }[], ox = 0, oy = 0) {
    const f = greyFrame(W, H, dice.map((d) => ({ ...d, x: d.x + ox, y: d.y + oy })));
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const [tx, ty] = [x - ox, y - oy];
        const inWalls = tx >= 10 && tx < 150 && ty >= 10 && ty < 110;
        const inFloor = tx >= 13 && tx < 147 && ty >= 13 && ty < 107;
        if (inWalls && !inFloor) f.data[y * W + x] = 170;
      }
    }
    return smoothGrey(f);
  }
  const trayDice = [{ x: 30, y: 30, size: 12 }, { x: 100, y: 70, size: 12 }, { x: 60, y: 80, size: 10 }];

  it('follows a camera shake beyond shiftTolerance by aligning the frames (alignShift)', () => {
    const shaken = trayFrame(trayDice, 2, -2);
    expect(changedFraction(trayFrame(trayDice), shaken, { threshold: 18, tolerance: 1 })).toBeGreaterThan(0.002);
    expect(changedFraction(trayFrame(trayDice), shaken, { threshold: 18, tolerance: 1, shift: { dx: 2, dy: -2 } })).toBe(0);
    const aligning = new SettleDetector({ stillFrames: 1 });
    aligning.push(trayFrame(trayDice));
    expect(aligning.push(shaken)).toMatchObject({ moving: false, settled: true, shift: { dx: 2, dy: -2 } });
    const strict = new SettleDetector({ stillFrames: 1, alignShift: 0 });
    strict.push(trayFrame(trayDice));
    expect(strict.push(shaken)).toMatchObject({ moving: true, shift: { dx: 0, dy: 0 } });
  });

  it('a shake further than alignShift is motion', () => {
    const d = new SettleDetector({ stillFrames: 1, alignShift: 2 });
    d.push(trayFrame(trayDice));
    expect(d.push(trayFrame(trayDice, 4, 0)).moving).toBe(true);
    const wider = new SettleDetector({ stillFrames: 1, alignShift: 4 });
    wider.push(trayFrame(trayDice));
    expect(wider.push(trayFrame(trayDice, 4, 0))).toMatchObject({ moving: false, shift: { dx: 4, dy: 0 } });
  });

  it('does not take a die nudged within alignShift for shake while the tray stays still', () => {
    const nudged = [trayDice[0], { ...trayDice[1], x: trayDice[1].x + 2, y: trayDice[1].y + 1 }, trayDice[2]];
    const d = new SettleDetector({ stillFrames: 1 });
    d.push(trayFrame(trayDice));
    expect(d.push(trayFrame(nudged))).toMatchObject({ moving: true, shift: { dx: 0, dy: 0 } });
    expect(estimateShift(trayFrame(trayDice), trayFrame(nudged), { threshold: 18, tolerance: 1 }, 2)).toEqual({ dx: 0, dy: 0 });
  });

  it('does not watch the outer ring that shake brings new picture into', () => {
    const a = greyFrame(W, H, []);
    const b = { ...a, data: a.data.map((v, i) => (i < W * 2 ? 250 : v)) }; // the top two rows change
    expect(changedFraction(a, { ...a, data: a.data.map((v, i) => (i < W ? 250 : v)) }, { threshold: 18, tolerance: 1 })).toBe(0);
    expect(changedFraction(a, b, { threshold: 18, tolerance: 0 })).toBeCloseTo(2 / H);
    // the outer row is not watched; of the second, all but its two ends are
    expect(changedFraction(a, b, { threshold: 18, tolerance: 1 })).toBeCloseTo(1 / (H - 2));
  });

  it('does not take what shake brings in at the frame edge, spread one pixel in by the 3 × 3 mean, for motion', () => {
    const a = greyFrame(W, H, [{ x: 60, y: 50, size: 12 }]);
    const b = { ...a, data: a.data.map((v, i) => (i % W === W - 1 ? 250 : v)) }; // a bright edge comes into view
    expect(changedFraction(smoothGrey(a), smoothGrey(b), { threshold: 18, tolerance: 1 })).toBeGreaterThan(0.002);
    expect(changedFraction(smoothGrey(a), smoothGrey(b), { threshold: 18, tolerance: 1, edge: 2 })).toBe(0);
    const d = new SettleDetector({ stillFrames: 1 });
    d.push(a);
    expect(d.push(b).moving).toBe(false);
    // a die moving inside the frame is still seen
    expect(d.push(greyFrame(W, H, [{ x: 70, y: 50, size: 12 }])).moving).toBe(true);
  });

  it('forgives a change of exposure of the whole frame, not a die that appeared', () => {
    const bright = (f: ReturnType<typeof greyFrame>, k: number) => ({ ...f, data: f.data.map((v) => Math.min(255, Math.round(v * k))) });
    const tray = greyFrame(W, H, [{ x: 30, y: 30, size: 12 }]);
    expect(changedFraction(tray, bright(tray, 1.1), { threshold: 18, matchExposure: false })).toBeGreaterThan(0.002);
    expect(changedFraction(tray, bright(tray, 1.1), { threshold: 18, matchExposure: true })).toBe(0);
    const withDie = greyFrame(W, H, [{ x: 30, y: 30, size: 12 }, { x: 90, y: 50, size: 12 }]);
    expect(changedFraction(tray, bright(withDie, 1.05), { threshold: 18, matchExposure: true })).toBeGreaterThan(0.002);
  });

  it('finds the least and greatest level around each pixel', () => {
    const f = { width: 3, height: 2, data: Uint8Array.from([1, 9, 3, 4, 5, 6]) };
    expect(neighbourhoodRange(f, 1)).toEqual({ low: Uint8Array.from([1, 1, 3, 1, 1, 3]), high: Uint8Array.from([9, 9, 9, 9, 9, 9]) });
    expect(smoothGrey(f).data).toEqual(Uint8Array.from([5, 5, 6, 5, 5, 6]));
  });

  it('settles on still trays filmed with sensor noise, flickering exposure and a pixel of shake', async () => {
    const rng = new Rng(11);
    for (const i of [3, 4, 9, 186]) {
      const { picture, jpegQuality } = stillPicture(i);
      const d = new SettleDetector();
      const states = [];
      for (let f = 0; f < 8; f++) states.push(d.push(await filmed(picture, rng, CAMERA_JITTER, jpegQuality)));
      expect(states.map((s) => s.moving)).toEqual(Array(8).fill(false));
      expect(states.slice(3).every((s) => s.settled)).toBe(true);
    }
  });

  it('settles on still trays filmed with four times the assumed shake, by aligning the frames', async () => {
    const shaky = { ...CAMERA_JITTER, shift: 4 };
    const movingFrames = async (alignShift: number) => {
      const rng = new Rng(5);
      let moving = 0;
      for (const i of [3, 4, 9]) {
        const { picture, jpegQuality } = stillPicture(i);
        const d = new SettleDetector({ alignShift });
        for (let f = 0; f < 8; f++) if (d.push(await filmed(picture, rng, shaky, jpegQuality)).moving) moving++;
      }
      return moving;
    };
    expect(await movingFrames(2)).toBe(0);
    // the same frames compared without alignment: shake of up to 8 pixels between frames is taken for motion
    expect(await movingFrames(0)).toBeGreaterThan(3);
  });

  it('does not align away a big die nudged 12 pixels on a still tray', async () => {
    for (const i of [4, 9, 186]) {
      const { scene, picture, jpegQuality } = stillPicture(i);
      const die = [...scene.dice].sort((a, b) => b.size - a.size)[0];
      const nudged = new Uint8Array(picture.data);
      const [x0, x1] = [Math.round(die.x - die.w / 2), Math.min(picture.width - 13, Math.round(die.x + die.w / 2))];
      for (let y = Math.max(0, Math.round(die.y - die.h / 2)); y <= Math.min(picture.height - 1, Math.round(die.y + die.h / 2)); y++) {
        for (let x = x1; x >= Math.max(0, x0); x--) nudged.set(picture.data.subarray((y * picture.width + x) * 3, (y * picture.width + x) * 3 + 3), (y * picture.width + x + 12) * 3);
      }
      const rng = new Rng(3);
      const still = { ...CAMERA_JITTER, shift: 0 };
      const d = new SettleDetector();
      d.push(await filmed(picture, rng, still, jpegQuality));
      expect(d.push(await filmed({ ...picture, data: nudged }, rng, still, jpegQuality))).toMatchObject({ moving: true, shift: { dx: 0, dy: 0 } });
    }
  });

  /** A picture of 4 × 4 blocks of random grey levels, seen through a 64 × 48 camera moved by (dx, dy). */
  function blocks(levels: number[], dx: number, dy: number): GreyFrame {
    const [w, h] = [64, 48];
    const data = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const [bx, by] = [Math.floor((x - dx + 64) / 4) % 20, Math.floor((y - dy + 64) / 4) % 16];
        data[y * w + x] = levels[by * 20 + bx];
      }
    }
    return { width: w, height: h, data };
  }
  const picture = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 320, maxLength: 320 });
  const shake = (max: number) => fc.record({ dx: fc.integer({ min: -max, max }), dy: fc.integer({ min: -max, max }) });

  it('follows any whole-picture shake within alignShift that would otherwise be motion (property)', () => {
    fc.assert(
      fc.property(picture, fc.integer({ min: 1, max: 4 }), shake(4), (levels, alignShift, s) => {
        fc.pre(Math.abs(s.dx) <= alignShift && Math.abs(s.dy) <= alignShift);
        const [before, after] = [blocks(levels, 0, 0), blocks(levels, s.dx, s.dy)];
        const plain = new SettleDetector({ stillFrames: 1, alignShift: 0 });
        plain.push(before);
        fc.pre(plain.push(after).moving);
        const d = new SettleDetector({ stillFrames: 1, alignShift });
        d.push(before);
        const st = d.push(after);
        if (st.moving) throw new Error(`a shake of (${s.dx}, ${s.dy}) was taken for motion (${st.motion}; shift found (${st.shift.dx}, ${st.shift.dy}))`);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('alignment never adds motion, and its shift stays within alignShift (property)', () => {
    const anyFrame = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 64 * 48, maxLength: 64 * 48 }).map((a) => ({ width: 64, height: 48, data: Uint8Array.from(a) }));
    fc.assert(
      fc.property(fc.oneof(anyFrame, picture.map((l) => blocks(l, 0, 0))), fc.oneof(anyFrame, picture.map((l) => blocks(l, 1, -2))), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 }), (a, b, alignShift, shiftTolerance) => {
        const aligned = new SettleDetector({ alignShift, shiftTolerance });
        const plain = new SettleDetector({ alignShift: 0, shiftTolerance });
        aligned.push(a);
        plain.push(a);
        const [st, base] = [aligned.push(b), plain.push(b)];
        if (!(st.motion >= 0 && st.motion <= base.motion)) throw new Error(`motion ${st.motion} with alignment, ${base.motion} without`);
        if (Math.abs(st.shift.dx) > alignShift || Math.abs(st.shift.dy) > alignShift) throw new Error(`shift (${st.shift.dx}, ${st.shift.dy}) beyond ${alignShift}`);
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('rejects bad thresholds with the option named', () => {
    expect(() => validateSettleOptions({ shiftTolerance: 4 })).toThrow(/shiftTolerance: must be an integer from 0 to 3/);
    expect(() => validateSettleOptions({ matchExposure: 'yes' as unknown as boolean })).toThrow(/matchExposure: must be true or false/);
    expect(() => validateSettleOptions({ alignShift: 5 })).toThrow(/alignShift: must be an integer from 0 to 4/);
    expect(() => validateSettleOptions({ alignShift: 1.5 })).toThrow(/alignShift/);
    expect(() => validateSettleOptions({ stillFrames: 0 })).toThrow(/stillFrames/);
    expect(() => validateSettleOptions({ motionFraction: 1.5 })).toThrow(/motionFraction/);
    expect(() => validateSettleOptions({ pixelThreshold: Number.NaN })).toThrow(/pixelThreshold/);
  });
});
