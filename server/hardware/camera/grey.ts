/** Decodes a camera frame into the small grey image the settle detector compares. */
import sharp from 'sharp';
import type { GreyFrame } from './settle.ts';

export const GREY_WIDTH = 160;
export const GREY_HEIGHT = 120;

/** The image's own size, from its header (throws when it is not an image). */
export async function imageSize(image: Buffer): Promise<{ width: number; height: number }> {
  const m = await sharp(image).metadata();
  if (!m.width || !m.height) throw new Error('image has no size');
  return { width: m.width, height: m.height };
}

/** Throws when the image is corrupt or truncated. */
export async function decodeGrey(image: Buffer, width = GREY_WIDTH, height = GREY_HEIGHT): Promise<GreyFrame> {
  const { data, info } = await sharp(image, { failOn: 'truncated' })
    .resize(width, height, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one grey channel, got ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Decodes to RGB at about `width` pixels wide (for the empty-tray estimate). */
export async function decodeRgb(image: Buffer, width = 160): Promise<{ width: number; height: number; channels: number; data: Uint8Array }> {
  const { data, info } = await sharp(image, { failOn: 'truncated' })
    .resize({ width })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}
