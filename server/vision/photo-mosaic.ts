/**
 * Labelled photos set side by side, `grid` × `grid` to a frame: the dice keep their size in pixels while
 * the frame grows, as a camera of `grid` × the resolution would see them. It measures the reader on large
 * frames with real dice (`scripts/mosaic-set.ts`; models/README.md, "Large frames").
 */
import sharp from 'sharp';
import type { LabelledDie, LabelledImage } from './yolo-dataset.ts';

/** Each photo is resized to this tile (the webcam photos' own size). */
export const MOSAIC_TILE = { width: 640, height: 480 } as const;

/** The labels of `tiles` (normalised to their own photo, in reading order) normalised to the mosaic. */
export function mosaicLabels(tiles: LabelledDie[][], grid: number): LabelledDie[] {
  return tiles.flatMap((labels, i) => {
    const [col, row] = [i % grid, Math.floor(i / grid)];
    return labels.map((l) => ({ cx: (l.cx + col) / grid, cy: (l.cy + row) / grid, w: l.w / grid, h: l.h / grid, face: l.face }));
  });
}

/** `grid` × `grid` photos as one JPEG frame (quality 92) and its labels; a missing tile stays mid-grey. */
export async function photoMosaic(photos: LabelledImage[], grid: number): Promise<{ jpeg: Buffer; labels: LabelledDie[] }> {
  if (!Number.isInteger(grid) || grid < 1) throw new RangeError(`a mosaic needs a whole number of photos a side, got ${grid}`);
  if (photos.length > grid * grid) throw new RangeError(`${photos.length} photos do not fit ${grid} × ${grid}`);
  const { width, height } = MOSAIC_TILE;
  const tiles = await Promise.all(photos.map((p) => sharp(p.path).resize(width, height, { fit: 'fill' }).toBuffer()));
  const jpeg = await sharp({ create: { width: width * grid, height: height * grid, channels: 3, background: '#808080' } })
    .composite(tiles.map((input, i) => ({ input, left: (i % grid) * width, top: Math.floor(i / grid) * height })))
    .jpeg({ quality: 92 })
    .toBuffer();
  return { jpeg, labels: mosaicLabels(photos.map((p) => p.labels), grid) };
}
