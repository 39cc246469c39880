import { describe, expect, it } from 'vitest';
import { CAMERA_JITTER, stillFrame, validateCameraJitter, type StillPicture } from '../../server/synth/camera-frames.ts';
import { Rng } from '../../server/synth/random.ts';

function flat(width: number, height: number, level: number): StillPicture {
  return { data: new Uint8Array(width * height * 3).fill(level), width, height };
}

describe('stillFrame: a still picture as a webcam films it', () => {
  it('gives the picture back unchanged with no jitter', () => {
    const pic = flat(8, 6, 90);
    pic.data[40] = 250;
    const f = stillFrame(pic, new Rng(3), { noise: 0, gain: 0, shift: 0 });
    expect(f).toMatchObject({ dx: 0, dy: 0 });
    expect(Buffer.from(f.data).equals(Buffer.from(pic.data))).toBe(true);
  });

  it('is the same from the same seed, and differs from one frame to the next', () => {
    const pic = flat(16, 12, 128);
    const a = stillFrame(pic, new Rng(7), CAMERA_JITTER);
    const b = stillFrame(pic, new Rng(7), CAMERA_JITTER);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
    const rng = new Rng(7);
    stillFrame(pic, rng, CAMERA_JITTER);
    expect(Buffer.from(stillFrame(pic, rng, CAMERA_JITTER).data).equals(Buffer.from(a.data))).toBe(false);
  });

  it('adds sensor noise of the standard deviation asked for, in 8-bit levels', () => {
    const f = stillFrame(flat(100, 100, 128), new Rng(1), { noise: 4, gain: 0, shift: 0 });
    const d = Array.from(f.data, (v) => v - 128);
    const mean = d.reduce((s, v) => s + v, 0) / d.length;
    const sd = Math.sqrt(d.reduce((s, v) => s + (v - mean) ** 2, 0) / d.length);
    expect(Math.abs(mean)).toBeLessThan(0.1);
    expect(sd).toBeGreaterThan(3.9);
    expect(sd).toBeLessThan(4.1);
  });

  it('changes the exposure of a whole frame within 1 ± gain, brighter and darker', () => {
    const rng = new Rng(2);
    const ratios = Array.from({ length: 30 }, () => stillFrame(flat(4, 4, 200), rng, { noise: 0, gain: 0.1, shift: 0 }).data[0] / 200);
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.9 - 1 / 200);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(1.1 + 1 / 200);
    expect(ratios.some((r) => r < 0.97) && ratios.some((r) => r > 1.03)).toBe(true);
  });

  it('moves the picture by whole pixels, up to the shake asked for, and says by how much', () => {
    const pic = flat(20, 20, 0);
    pic.data[(10 * 20 + 10) * 3] = 255;
    const rng = new Rng(5);
    const moves = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const f = stillFrame(pic, rng, { noise: 0, gain: 0, shift: 2 });
      expect(Math.abs(f.dx)).toBeLessThanOrEqual(2);
      expect(Math.abs(f.dy)).toBeLessThanOrEqual(2);
      expect(f.data[((10 + f.dy) * 20 + 10 + f.dx) * 3]).toBe(255);
      moves.add(`${f.dx},${f.dy}`);
    }
    expect(moves.size).toBeGreaterThan(10);
  });

  it('names a bad setting or a picture of the wrong size', () => {
    expect(() => validateCameraJitter({ noise: -1 })).toThrow(/camera noise must be 0..64/);
    expect(() => validateCameraJitter({ gain: 0.6 })).toThrow(/camera gain must be 0..0.5/);
    expect(() => validateCameraJitter({ shift: 1.5 })).toThrow(/camera shift must be a whole number/);
    expect(validateCameraJitter({ noise: 0 })).toEqual({ ...CAMERA_JITTER, noise: 0 });
    expect(() => stillFrame({ data: new Uint8Array(10), width: 4, height: 4 }, new Rng(1), CAMERA_JITTER)).toThrow(/needs 48 bytes, got 10/);
  });
});
