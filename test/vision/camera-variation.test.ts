import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CAMERA_VARIATIONS, duotonePixels, isCameraVariation, seedOf, varyPhoto } from '../../server/vision/camera-variation.ts';
import { decodeImage } from '../../server/vision/decode.ts';
import { VisionInputError } from '../../server/vision/errors.ts';

/** A flat grey 64×48 photo with a darker square, as PNG. */
async function photo(): Promise<Buffer> {
  const data = new Uint8Array(64 * 48 * 3).fill(160);
  for (let y = 10; y < 30; y++) for (let x = 10; x < 30; x++) data.fill(40, (y * 64 + x) * 3, (y * 64 + x) * 3 + 3);
  return sharp(data, { raw: { width: 64, height: 48, channels: 3 } }).png().toBuffer();
}

function channelMeans(p: { data: Uint8Array }): number[] {
  const sums = [0, 0, 0];
  p.data.forEach((v, i) => (sums[i % 3] += v));
  return sums.map((s) => s / (p.data.length / 3));
}

describe('camera variations of a photo', () => {
  it('knows its variations by name and nothing else', () => {
    expect(isCameraVariation('half')).toBe(true);
    expect(isCameraVariation('sepia')).toBe(false);
    expect(isCameraVariation('toString')).toBe(false);
  });

  it('resizes the frame by the variation\'s scale', async () => {
    const half = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.half, 'a.jpg'));
    expect([half.width, half.height]).toEqual([32, 24]);
    const third = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.third, 'a.jpg'));
    expect([third.width, third.height]).toEqual([21, 16]);
    const double = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.double, 'a.jpg'));
    expect([double.width, double.height]).toEqual([128, 96]);
    const square = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.square, 'a.jpg'));
    expect([square.width, square.height]).toEqual([640, 640]);
  });

  it('tints the light by the variation\'s gains', async () => {
    const before = channelMeans(await decodeImage(await photo()));
    const warm = channelMeans(await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.warm, 'a.jpg')));
    expect(warm[0] / before[0]).toBeCloseTo(1.1, 1);
    expect(warm[2] / before[2]).toBeCloseTo(0.7, 1);
  });

  it('adds the same noise to the same image name, other noise to another', async () => {
    const a1 = await varyPhoto(await photo(), CAMERA_VARIATIONS.dim, 'tray/a.jpg');
    const a2 = await varyPhoto(await photo(), CAMERA_VARIATIONS.dim, 'tray/a.jpg');
    const b = await varyPhoto(await photo(), CAMERA_VARIATIONS.dim, 'tray/b.jpg');
    expect(a1.equals(a2)).toBe(true);
    expect(a1.equals(b)).toBe(false);
    expect(seedOf('tray/a.jpg')).not.toBe(seedOf('tray/b.jpg'));
    const dim = channelMeans(await decodeImage(a1));
    const before = channelMeans(await decodeImage(await photo()));
    expect(dim[1] / before[1]).toBeCloseTo(0.45, 1);
  });

  it('recolours by lightness: black to the dark colour, white to the light one, grey between', () => {
    const out = duotonePixels({ data: Uint8Array.from([0, 0, 0, 255, 255, 255, 128, 128, 128]), width: 3, height: 1 }, { dark: [250, 250, 250], light: [190, 20, 30] });
    expect([...out.data.slice(0, 6)]).toEqual([250, 250, 250, 190, 20, 30]);
    expect([...out.data.slice(6)]).toEqual([220, 135, 140]);
  });

  it('turns a white die with black pips into a dark die with white pips (negative)', async () => {
    const before = await decodeImage(await photo());
    const neg = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.negative, 'a.jpg'));
    const at = (p: { data: Uint8Array; width: number }, x: number, y: number) => p.data[(y * p.width + x) * 3];
    expect(at(before, 20, 20)).toBeLessThan(at(before, 50, 40));
    expect(at(neg, 20, 20)).toBeGreaterThan(at(neg, 50, 40));
    expect(at(neg, 20, 20)).toBeCloseTo(255 - 40, -1);
  });

  it('makes the labelled dice marbled, the same swirls for the same image name', async () => {
    const die = [{ cx: 20 / 64, cy: 20 / 48, w: 12 / 64, h: 12 / 48, face: 4 }];
    const a1 = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.marbled, 'tray/a.jpg', die));
    const a2 = await varyPhoto(await photo(), CAMERA_VARIATIONS.marbled, 'tray/a.jpg', die);
    expect((await decodeImage(a2)).data).toEqual(a1.data);
    const b = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.marbled, 'tray/b.jpg', die));
    expect(b.data).not.toEqual(a1.data);
    // without dice there is nothing to swirl: the photo is one tone, its two greys two shades of it
    const plain = await decodeImage(await varyPhoto(await photo(), CAMERA_VARIATIONS.marbled, 'tray/a.jpg'));
    const at = (p: { data: Uint8Array; width: number }, x: number, y: number) => [...p.data.slice((y * p.width + x) * 3, (y * p.width + x) * 3 + 3)];
    for (const [x, y] of [[40, 5], [60, 44]]) at(plain, x, y).forEach((v, c) => expect(Math.abs(v - at(plain, 50, 40)[c])).toBeLessThan(6));
    expect(plain.data).not.toEqual(a1.data);
  });

  it('gives the decoder\'s clear error for an image it cannot read', async () => {
    await expect(varyPhoto(Buffer.from([0xff, 0xd8, 0xff, 1, 2]), CAMERA_VARIATIONS.soft, 'x.jpg')).rejects.toBeInstanceOf(VisionInputError);
    await expect(varyPhoto(Buffer.alloc(0), CAMERA_VARIATIONS.soft, 'x.jpg')).rejects.toThrow(/empty/);
  });
});
