/**
 * Camera variations of a labelled photo: the same dice seen smaller, in other light, out of focus or
 * through a cheaper encoder. They turn the held-out real photos into real dice under conditions those
 * photos lack (YOLO labels are normalised, so they hold through every variation).
 */
import sharp from 'sharp';
import { Rng } from '../synth/random.ts';
import { decodeImage, type RgbPixels } from './decode.ts';
import type { LabelledDie } from './yolo-dataset.ts';
import { drawMarbledRecolour, marbledRecolourPixels } from './training/marbled-recolour.ts';
import { realDice } from './training/samples.ts';

/** A recolouring by lightness: black becomes `dark`, white `light`, every shade between on the line joining them. */
export interface Duotone {
  dark: [number, number, number];
  light: [number, number, number];
}

export interface CameraVariation {
  /** what it stands for, as the figures name it */
  about: string;
  /** the frame resized by this factor */
  scale?: number;
  /** the frame stretched to this width and height, its aspect lost (as data set exports often resize) */
  stretch?: [number, number];
  /** per-channel gain on the 8-bit values (R, G, B): light of another colour or strength */
  gains?: [number, number, number];
  /** standard deviation of the added sensor noise, in 8-bit levels */
  noise?: number;
  /** Gaussian blur, sigma in pixels */
  blur?: number;
  /** JPEG quality of the varied frame (default 90) */
  quality?: number;
  /**
   * the photo recoloured by lightness (before the gains): white dice with black pips become dice of
   * `light`'s colour with pips of `dark`'s; the table is recoloured too
   */
  duotone?: Duotone;
  /**
   * the photo's labelled dice made marbled (a look and swirls drawn from the photo's name, as training's
   * `--marbled-recolours` draws them), the rest of the photo recoloured with them
   */
  marbled?: true;
}

export const CAMERA_VARIATIONS = {
  half: { about: 'the frame at half size, its dice half as wide', scale: 0.5 },
  third: { about: 'the frame at a third of its size, its dice a third as wide', scale: 1 / 3 },
  double: { about: 'the frame at twice its size, its dice twice as wide (a camera of twice the resolution)', scale: 2 },
  square: { about: 'the frame stretched to 640×640, as data set exports often resize: dice a third taller than wide', stretch: [640, 640] },
  warm: { about: 'warm room light: red up, blue down', gains: [1.1, 0.97, 0.7] },
  tungsten: { about: 'a bulb with no white balance at all: blue at half', gains: [1.15, 0.95, 0.5] },
  cool: { about: 'cool light (daylight LED): red down, blue up', gains: [0.82, 0.97, 1.1] },
  candle: { about: 'a candle-coloured bulb with no white balance: blue at a third', gains: [1.2, 0.9, 0.35] },
  skylight: { about: 'blue daylight from a window with no white balance: red at 0.7', gains: [0.7, 0.95, 1.35] },
  negative: { about: 'the photo\'s negative: black dice with white pips, on a dark table', duotone: { dark: [255, 255, 255], light: [0, 0, 0] } },
  red: { about: 'recoloured: red dice with white pips, on a pink table', duotone: { dark: [250, 250, 250], light: [190, 25, 30] } },
  blue: { about: 'recoloured: blue dice with white pips, on a pale blue table', duotone: { dark: [250, 250, 250], light: [25, 55, 180] } },
  marbled: { about: 'recoloured: marbled dice (two swirled colours, pips showing on both), as training draws them', marbled: true },
  dim: { about: 'a dim room: under half the light, with sensor noise', gains: [0.45, 0.45, 0.45], noise: 5 },
  soft: { about: 'a webcam out of focus (blur sigma 1.5 px)', blur: 1.5 },
  jpeg: { about: 'a cheap encoder: JPEG quality 20', quality: 20 },
} satisfies Record<string, CameraVariation>;

export type CameraVariationName = keyof typeof CAMERA_VARIATIONS;

export function isCameraVariation(name: string): name is CameraVariationName {
  return Object.hasOwn(CAMERA_VARIATIONS, name);
}

/** A stable seed from a name (FNV-1a), so an image gets the same noise on every run and machine. */
export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The frame in light of another colour or strength: each channel times its gain, stopping at white. */
export function castPixels(pixels: RgbPixels, gains: [number, number, number]): RgbPixels {
  const data = new Uint8Array(pixels.data.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.min(255, Math.round(pixels.data[i] * gains[i % 3]));
  return { data, width: pixels.width, height: pixels.height };
}

/** The frame recoloured by lightness (Rec. 601 luma): black to `tone.dark`, white to `tone.light`. */
export function duotonePixels(pixels: RgbPixels, { dark, light }: Duotone): RgbPixels {
  const data = new Uint8Array(pixels.data.length);
  const src = pixels.data;
  for (let i = 0; i < data.length; i += 3) {
    const l = (0.299 * src[i] + 0.587 * src[i + 1] + 0.114 * src[i + 2]) / 255;
    for (let c = 0; c < 3; c++) data[i + c] = Math.round(dark[c] + (light[c] - dark[c]) * l);
  }
  return { data, width: pixels.width, height: pixels.height };
}

/**
 * The photo `bytes` as `variation` sees it, encoded as JPEG; `name` seeds its noise and swirls. `labels`
 * (the photo's dice) are needed by the marbled variation only. An image that cannot be decoded raises the
 * decoder's VisionInputError, as reading it would.
 */
export async function varyPhoto(bytes: Buffer, variation: CameraVariation, name: string, labels: readonly LabelledDie[] = []): Promise<Buffer> {
  let pixels = await decodeImage(bytes);
  if (variation.duotone) pixels = duotonePixels(pixels, variation.duotone);
  if (variation.marbled) {
    const dice = realDice(labels, pixels.width, pixels.height);
    pixels = marbledRecolourPixels(pixels, drawMarbledRecolour(new Rng(seedOf(`marbled:${name}`)), dice));
  }
  const { data: out, width, height } = variation.gains ? castPixels(pixels, variation.gains) : pixels;
  if (variation.noise) {
    const rng = new Rng(seedOf(name));
    for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(out[i] + rng.normal() * variation.noise)));
  }
  let image = sharp(out, { raw: { width, height, channels: 3 } });
  if (variation.blur) image = image.blur(variation.blur);
  if (variation.scale && variation.scale !== 1) {
    image = image.resize(Math.max(8, Math.round(width * variation.scale)), Math.max(8, Math.round(height * variation.scale)), { kernel: 'lanczos3' });
  }
  if (variation.stretch) image = image.resize(variation.stretch[0], variation.stretch[1], { fit: 'fill', kernel: 'lanczos3' });
  return image.jpeg({ quality: variation.quality ?? 90 }).toBuffer();
}
