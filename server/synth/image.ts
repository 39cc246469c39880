import sharp from 'sharp';

/** A float RGB image (values 0..1, row-major, 3 channels) that the synthetic renderer draws into. */
export class RgbImage {
  readonly data: Float32Array;

  constructor(readonly width: number, readonly height: number) {
    this.data = new Float32Array(width * height * 3);
  }

  /** Alpha-blend colour c over pixel (x, y) with opacity a (0..1). */
  blend(x: number, y: number, c: Rgb, a: number): void {
    if (a <= 0) return;
    const i = (y * this.width + x) * 3;
    const d = this.data;
    if (a >= 1) {
      d[i] = c[0];
      d[i + 1] = c[1];
      d[i + 2] = c[2];
      return;
    }
    d[i] += (c[0] - d[i]) * a;
    d[i + 1] += (c[1] - d[i + 1]) * a;
    d[i + 2] += (c[2] - d[i + 2]) * a;
  }

  /** Multiply pixel (x, y) by factor f. */
  scale(x: number, y: number, f: number): void {
    const i = (y * this.width + x) * 3;
    this.data[i] *= f;
    this.data[i + 1] *= f;
    this.data[i + 2] *= f;
  }

  /** 8-bit RGB bytes, clamped. */
  toBytes(): Buffer {
    const out = Buffer.alloc(this.width * this.height * 3);
    const d = this.data;
    for (let i = 0; i < d.length; i++) {
      const v = d[i] * 255 + 0.5;
      out[i] = v <= 0 ? 0 : v >= 255 ? 255 : v;
    }
    return out;
  }

  /** The image as a JPEG of the given quality (1–100). */
  toJpeg(quality: number): Promise<Buffer> {
    return sharp(this.toBytes(), { raw: { width: this.width, height: this.height, channels: 3 } }).jpeg({ quality }).toBuffer();
  }

  /** In-place separable box blur of radius r (pixels), repeated `passes` times (≈ gaussian). */
  boxBlur(r: number, passes = 2): void {
    if (r < 1) return;
    const { width: w, height: h } = this;
    const tmp = new Float32Array(this.data.length);
    for (let p = 0; p < passes; p++) {
      blur1d(this.data, tmp, w, h, r, 3, w * 3);
      blur1d(tmp, this.data, h, w, r, w * 3, 3);
    }
  }
}

export type Rgb = [number, number, number];

/** A 0..1 colour as 8-bit channel values. */
export function to8bit(c: Rgb): Rgb {
  return [Math.round(c[0] * 255), Math.round(c[1] * 255), Math.round(c[2] * 255)];
}

/** A colour channel or blend weight held to 0..1. */
export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** Box blur along one axis: `n` samples per line with element stride `step`, lines `stride` apart. */
function blur1d(src: Float32Array, dst: Float32Array, n: number, lines: number, r: number, step: number, stride: number): void {
  const norm = 1 / (2 * r + 1);
  for (let line = 0; line < lines; line++) {
    const base = line * stride;
    for (let c = 0; c < 3; c++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += src[base + clampIndex(k, n) * step + c];
      for (let i = 0; i < n; i++) {
        dst[base + i * step + c] = acc * norm;
        acc += src[base + clampIndex(i + r + 1, n) * step + c] - src[base + clampIndex(i - r, n) * step + c];
      }
    }
  }
}

function clampIndex(i: number, n: number): number {
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}
