import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decodeImage } from '../../server/vision/decode.ts';
import { VisionInputError } from '../../server/vision/errors.ts';

/** A 32×24 image, left half orange (230, 120, 30), right half mid-grey (128). */
async function halves(): Promise<ReturnType<typeof sharp>> {
  const px = Buffer.alloc(32 * 24 * 3);
  for (let y = 0; y < 24; y++) {
    for (let x = 0; x < 32; x++) px.set(x < 16 ? [230, 120, 30] : [128, 128, 128], (y * 32 + x) * 3);
  }
  return sharp(px, { raw: { width: 32, height: 24, channels: 3 } });
}

const at = (px: { data: Uint8Array; width: number }, x: number, y: number) => Array.from(px.data.subarray((y * px.width + x) * 3, (y * px.width + x) * 3 + 3));

describe('decoding a frame to 8-bit RGB', () => {
  it('gives three 8-bit channels of the picture from every JPEG and PNG kind', async () => {
    const kinds: [string, Buffer, number][] = [
      ['PNG', await (await halves()).png().toBuffer(), 0],
      ['JPEG', await (await halves()).jpeg({ quality: 95 }).toBuffer(), 8],
      ['PNG with alpha', await (await halves()).ensureAlpha(0.5).png().toBuffer(), 0],
      ['16-bit PNG', await (await halves()).toColourspace('rgb16').png().toBuffer(), 1],
      // the round trip through CMYK's profile moves the orange's blue by about 30 (as sharp's explicit sRGB conversion does)
      ['CMYK JPEG', await (await halves()).toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer(), 32],
      ['JPEG with a Display P3 profile', await (await halves()).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer(), 16],
    ];
    for (const [kind, bytes, tolerance] of kinds) {
      const px = await decodeImage(bytes);
      expect([px.width, px.height, px.data.length], kind).toEqual([32, 24, 32 * 24 * 3]);
      at(px, 4, 12).forEach((v, c) => expect(Math.abs(v - [230, 120, 30][c]), `${kind} orange, channel ${c}`).toBeLessThanOrEqual(tolerance));
      at(px, 28, 12).forEach((v, c) => expect(Math.abs(v - 128), `${kind} grey, channel ${c}`).toBeLessThanOrEqual(tolerance));
    }
  });

  it('gives a grey picture as three equal channels', async () => {
    for (const bytes of [await (await halves()).greyscale().png().toBuffer(), await (await halves()).greyscale().jpeg().toBuffer()]) {
      const px = await decodeImage(bytes);
      expect(px.data.length).toBe(32 * 24 * 3);
      const [r, g, b] = at(px, 4, 12);
      expect(r).toBe(g);
      expect(g).toBe(b);
      expect(Math.abs(r - 140)).toBeLessThan(12);
    }
  });

  it('refuses what is not a whole image with VisionInputError', async () => {
    const png = await (await halves()).png().toBuffer();
    await expect(decodeImage(Buffer.alloc(0))).rejects.toThrow(/empty/);
    await expect(decodeImage(png.subarray(0, png.length - 30))).rejects.toBeInstanceOf(VisionInputError);
    await expect(decodeImage(Buffer.from('GIF89a not really'))).rejects.toBeInstanceOf(VisionInputError);
    await expect(decodeImage('a string' as never)).rejects.toThrow(/must be a Buffer/);
  });
});
