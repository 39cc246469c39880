/**
 * Bilinear resampling of 8-bit RGB pixels, computed as TensorFlow defines `resizeBilinear` (half-pixel
 * centres) and `cropAndResize` (bilinear, an extrapolation value beyond the image). The networks' inputs are
 * made here rather than from a tensor of the whole frame: on the wasm backend a frame made a tensor is
 * copied as int32 and cast again by each kernel that reads it, which cost more than resampling the few
 * pixels the inputs need (models/README.md, "Speed and memory").
 */
import type { RgbPixels } from './decode.ts';

/** A rectangle of a frame, in frame pixels. */
export interface FrameWindow {
  x0: number;
  y0: number;
  width: number;
  height: number;
}

function checkWindow(px: RgbPixels, window: FrameWindow): void {
  const { x0, y0, width, height } = window;
  if (![x0, y0, width, height].every(Number.isInteger)) throw new RangeError(`window ${width}x${height} at ${x0},${y0} is not in whole pixels`);
  if (x0 < 0 || y0 < 0 || width < 1 || height < 1 || x0 + width > px.width || y0 + height > px.height) {
    throw new RangeError(`window ${width}x${height} at ${x0},${y0} is not inside the ${px.width}x${px.height} image`);
  }
}

/**
 * The bilinear blend of channel `c` of four pixels (byte offsets of the top-left, top-right, bottom-left,
 * bottom-right pixel) at fractions `fx`, `fy`, in TensorFlow's order: along each row, then between rows.
 */
function blend(d: Uint8Array, tl: number, tr: number, bl: number, br: number, fx: number, fy: number): number {
  const upper = d[tl] + (d[tr] - d[tl]) * fx;
  const lower = d[bl] + (d[br] - d[bl]) * fx;
  return upper + (lower - upper) * fy;
}

/** Source index, lower and upper neighbours and weight of each output index of a half-pixel-centre resize. */
function halfPixelTaps(from: number, to: number, offset: number): { lo: Int32Array; hi: Int32Array; frac: Float64Array } {
  const ratio = from / to;
  const lo = new Int32Array(to);
  const hi = new Int32Array(to);
  const frac = new Float64Array(to);
  for (let i = 0; i < to; i++) {
    const source = ratio * (i + 0.5) - 0.5;
    const floor = Math.max(0, Math.floor(source));
    lo[i] = offset + floor;
    hi[i] = offset + Math.min(from - 1, Math.ceil(source));
    frac[i] = source - floor;
  }
  return { lo, hi, frac };
}

/**
 * `window` of the pixels (the whole image by default) resized to width × height: [height, width, 3]
 * values 0..255, row-major, as tf.image.resizeBilinear(image, [height, width], false, true) gives them.
 */
export function resizedPixels(px: RgbPixels, width: number, height: number, window: FrameWindow = { x0: 0, y0: 0, width: px.width, height: px.height }): Float32Array {
  checkWindow(px, window);
  if (window.width === 2 * width && window.height === 2 * height) return halvedPixels(px, window);
  const out = new Float32Array(width * height * 3);
  const cols = halfPixelTaps(window.width, width, window.x0);
  const rows = halfPixelTaps(window.height, height, window.y0);
  const d = px.data;
  const rowLength = px.width * 3;
  let o = 0;
  for (let y = 0; y < height; y++) {
    const top = rows.lo[y] * rowLength;
    const bottom = rows.hi[y] * rowLength;
    const fy = rows.frac[y];
    for (let x = 0; x < width; x++) {
      const left = cols.lo[x] * 3;
      const right = cols.hi[x] * 3;
      const fx = cols.frac[x];
      for (let c = 0; c < 3; c++) out[o++] = blend(d, top + left + c, top + right + c, bottom + left + c, bottom + right + c, fx, fy);
    }
  }
  return out;
}

/**
 * resizedPixels to half the window's width and height: each output pixel lies at the corner four pixels
 * share, so it is their mean (the interpolation's weights are all 0.5, and that mean of four 8-bit values
 * is exact in a float32). The first look's input of a 640×480 frame and the fine look's of a 1920×1080 one.
 */
function halvedPixels(px: RgbPixels, window: FrameWindow): Float32Array {
  const width = window.width / 2;
  const height = window.height / 2;
  const out = new Float32Array(width * height * 3);
  const d = px.data;
  const rowLength = px.width * 3;
  let o = 0;
  for (let y = 0; y < height; y++) {
    let top = (window.y0 + 2 * y) * rowLength + window.x0 * 3;
    let bottom = top + rowLength;
    for (let x = 0; x < width; x++, top += 6, bottom += 6) {
      out[o++] = (d[top] + d[top + 3] + d[bottom] + d[bottom + 3]) * 0.25;
      out[o++] = (d[top + 1] + d[top + 4] + d[bottom + 1] + d[bottom + 4]) * 0.25;
      out[o++] = (d[top + 2] + d[top + 5] + d[bottom + 2] + d[bottom + 5]) * 0.25;
    }
  }
  return out;
}

/** A square of the image: its top-left corner and side, in pixels (it may reach beyond the image). */
export interface PixelSquare {
  x0: number;
  y0: number;
  side: number;
}

/**
 * Each square resampled to size × size: [n, size, size, 3] values 0..255, as tf.image.cropAndResize with
 * bilinear sampling gives them for boxes whose corners are the squares' (sample k of a side lies at
 * x0 + k × side / (size − 1)); a sample beyond the image takes `outside`.
 */
export function resampledSquares(px: RgbPixels, squares: PixelSquare[], size: number, outside: number): Float32Array {
  const perSquare = size * size * 3;
  const out = new Float32Array(squares.length * perSquare).fill(outside);
  const d = px.data;
  const rowLength = px.width * 3;
  const lastX = px.width - 1;
  const lastY = px.height - 1;
  const left = new Int32Array(size);
  const right = new Int32Array(size);
  const fxs = new Float64Array(size);
  const inside = new Uint8Array(size);
  squares.forEach((sq, n) => {
    const step = size > 1 ? sq.side / (size - 1) : 0;
    const at = (start: number, k: number): number => (size > 1 ? start + k * step : start + sq.side / 2);
    for (let k = 0; k < size; k++) {
      const x = at(sq.x0, k);
      inside[k] = x >= 0 && x <= lastX ? 1 : 0;
      left[k] = Math.floor(x) * 3;
      right[k] = Math.ceil(x) * 3;
      fxs[k] = x - Math.floor(x);
    }
    for (let j = 0; j < size; j++) {
      const y = at(sq.y0, j);
      if (y < 0 || y > lastY) continue;
      const top = Math.floor(y) * rowLength;
      const bottom = Math.ceil(y) * rowLength;
      const fy = y - Math.floor(y);
      let o = n * perSquare + j * size * 3;
      for (let k = 0; k < size; k++, o += 3) {
        if (!inside[k]) continue;
        const l = left[k];
        const r = right[k];
        const fx = fxs[k];
        for (let c = 0; c < 3; c++) out[o + c] = blend(d, top + l + c, top + r + c, bottom + l + c, bottom + r + c, fx, fy);
      }
    }
  });
  return out;
}

/** The image mirrored left to right. */
export function mirroredPixels(px: RgbPixels): RgbPixels {
  const data = new Uint8Array(px.data.length);
  const rowLength = px.width * 3;
  for (let y = 0; y < px.height; y++) {
    const row = y * rowLength;
    for (let x = 0; x < px.width; x++) {
      const from = row + x * 3;
      const to = row + (px.width - 1 - x) * 3;
      data[to] = px.data[from];
      data[to + 1] = px.data[from + 1];
      data[to + 2] = px.data[from + 2];
    }
  }
  return { data, width: px.width, height: px.height };
}
