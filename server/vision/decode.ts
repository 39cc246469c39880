/** Image bytes (JPEG/PNG/...) or raw RGB → 8-bit RGB pixels, with clear errors for bad input. */
import sharp from 'sharp';
import { VisionInputError } from './errors.ts';

export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Raw interleaved RGB (3 bytes a pixel, row-major). */
export interface RawRgb {
  raw: Uint8Array;
  width: number;
  height: number;
}

const MAX_SIDE = 8192;

export function checkRaw(input: RawRgb): RgbPixels {
  const { raw, width, height } = input;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 8 || height < 8 || width > MAX_SIDE || height > MAX_SIDE) {
    throw new VisionInputError(`raw image size ${width}x${height} is not 8..${MAX_SIDE} pixels a side`);
  }
  if (!(raw instanceof Uint8Array) || raw.length !== width * height * 3) {
    throw new VisionInputError(`raw RGB image ${width}x${height} needs ${width * height * 3} bytes, got ${raw?.length ?? 'none'}`);
  }
  return { data: raw, width, height };
}

export async function decodeImage(bytes: Buffer | Uint8Array): Promise<RgbPixels> {
  if (!(bytes instanceof Uint8Array)) throw new VisionInputError('image must be a Buffer of JPEG/PNG bytes');
  if (bytes.length === 0) throw new VisionInputError('image is empty (0 bytes)');
  try {
    // upright as a viewer shows it: a phone photo's pixels may be stored turned, with an EXIF Orientation tag
    const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_SIDE * MAX_SIDE, autoOrient: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new VisionInputError(`decoded image has ${info.channels} channels, expected 3`);
    if (info.width < 8 || info.height < 8) throw new VisionInputError(`image ${info.width}x${info.height} is too small`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof VisionInputError) throw err;
    throw new VisionInputError(`cannot decode image (${bytes.length} bytes): ${(err as Error).message}`, { cause: err });
  }
}
