/**
 * Where the tray is in the camera image, and where the kept dice go.
 * Areas are in normalised image coordinates (0..1, origin top-left), so they survive a change of
 * resolution. A die belongs to the zone its centre falls in; dice outside the tray are ignored.
 */

import type { ReadRegion } from '../ports.ts';

export type NormPoint = [number, number];

export type Area =
  | { kind: 'rect'; x: number; y: number; w: number; h: number }
  | { kind: 'quad'; points: [NormPoint, NormPoint, NormPoint, NormPoint] };

export interface TrayCalibration {
  /** null: the whole image is the tray */
  tray: Area | null;
  /** null: no kept-dice zone, every die in the tray is rolling */
  keptZone: Area | null;
}

export type Zone = 'rolling' | 'kept' | 'outside';

export class CalibrationError extends Error {
  override name = 'CalibrationError';
}

/** Smallest side accepted for an area, as a fraction of the image. */
export const MIN_SIDE = 0.02;

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function checkUnit(v: unknown, where: string): number {
  if (!isFiniteNumber(v)) throw new CalibrationError(`${where}: must be a number between 0 and 1 (got ${JSON.stringify(v)})`);
  if (v < 0 || v > 1) throw new CalibrationError(`${where}: must be between 0 and 1, in normalised image coordinates (got ${v})`);
  return v;
}

/**
 * Parses an area from configuration: `{x, y, w, h}` (a rectangle) or `{quad: [[x,y] ×4]}`
 * (corners in order around the tray, for a camera that looks at the tray at an angle).
 */
export function parseArea(raw: unknown, where: string): Area {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new CalibrationError(`${where}: must be {x, y, w, h} or {quad: [[x,y],[x,y],[x,y],[x,y]]} in 0..1 image coordinates`);
  }
  const o = raw as Record<string, unknown>;
  if ('quad' in o) {
    const extra = Object.keys(o).filter((k) => k !== 'quad');
    if (extra.length) throw new CalibrationError(`${where}: unknown field(s) ${extra.join(', ')} beside quad`);
    const q = o.quad;
    if (!Array.isArray(q) || q.length !== 4) throw new CalibrationError(`${where}.quad: must be 4 corners [[x,y],...]`);
    const points = q.map((p, i) => {
      if (!Array.isArray(p) || p.length !== 2) throw new CalibrationError(`${where}.quad[${i}]: must be [x, y]`);
      return [checkUnit(p[0], `${where}.quad[${i}][0]`), checkUnit(p[1], `${where}.quad[${i}][1]`)] as NormPoint;
    }) as [NormPoint, NormPoint, NormPoint, NormPoint];
    if (quadSelfIntersects(points)) throw new CalibrationError(`${where}.quad: corners must go around the tray in order (the edges cross)`);
    const area = Math.abs(polygonArea(points));
    if (area < MIN_SIDE * MIN_SIDE) throw new CalibrationError(`${where}.quad: the area is too small (${area.toFixed(4)} of the image)`);
    return { kind: 'quad', points };
  }
  const extra = Object.keys(o).filter((k) => !['x', 'y', 'w', 'h'].includes(k));
  if (extra.length) throw new CalibrationError(`${where}: unknown field(s) ${extra.join(', ')} (expected x, y, w, h or quad)`);
  const x = checkUnit(o.x, `${where}.x`);
  const y = checkUnit(o.y, `${where}.y`);
  const w = checkUnit(o.w, `${where}.w`);
  const h = checkUnit(o.h, `${where}.h`);
  if (w < MIN_SIDE || h < MIN_SIDE) throw new CalibrationError(`${where}: w and h must be at least ${MIN_SIDE} (got ${w} × ${h})`);
  if (x + w > 1 + 1e-9 || y + h > 1 + 1e-9) throw new CalibrationError(`${where}: the rectangle goes past the image edge (x+w=${+(x + w).toFixed(4)}, y+h=${+(y + h).toFixed(4)})`);
  return { kind: 'rect', x, y, w, h };
}

/** Builds and checks a calibration from the raw `tray` and `keptZone` configuration values. */
export function parseCalibration(tray: unknown, keptZone: unknown, where = 'camera'): TrayCalibration {
  const t = tray === undefined || tray === null ? null : parseArea(tray, `${where}.tray`);
  const k = keptZone === undefined || keptZone === null ? null : parseArea(keptZone, `${where}.keptZone`);
  return { tray: t, keptZone: k };
}

/** The configuration form of an area (what parseArea accepts). */
export type AreaConfig = { x: number; y: number; w: number; h: number } | { quad: NormPoint[] };

/** A calibration as the tables file and the API write it (`null`: the whole image / no kept zone). */
export interface CalibrationConfig {
  tray: AreaConfig | null;
  keptZone: AreaConfig | null;
}

export function areaToConfig(a: Area): AreaConfig {
  return a.kind === 'rect' ? { x: a.x, y: a.y, w: a.w, h: a.h } : { quad: a.points.map((p) => [p[0], p[1]] as NormPoint) };
}

export function calibrationToConfig(cal: TrayCalibration): CalibrationConfig {
  return { tray: cal.tray ? areaToConfig(cal.tray) : null, keptZone: cal.keptZone ? areaToConfig(cal.keptZone) : null };
}

export function areaContains(a: Area, nx: number, ny: number): boolean {
  if (a.kind === 'rect') return nx >= a.x && nx <= a.x + a.w && ny >= a.y && ny <= a.y + a.h;
  // ray casting
  let inside = false;
  const p = a.points;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
    const [xi, yi] = p[i];
    const [xj, yj] = p[j];
    if (yi > ny !== yj > ny && nx < ((xj - xi) * (ny - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The zone of a point given in pixels of an image of the given size. */
export function zoneOf(cal: TrayCalibration, px: number, py: number, width: number, height: number): Zone {
  const nx = px / width;
  const ny = py / height;
  if (cal.keptZone && areaContains(cal.keptZone, nx, ny)) return 'kept';
  if (!cal.tray) return nx >= 0 && nx <= 1 && ny >= 0 && ny <= 1 ? 'rolling' : 'outside';
  return areaContains(cal.tray, nx, ny) ? 'rolling' : 'outside';
}

/** The rectangle an area lies in. */
export function areaBounds(a: Area): ReadRegion {
  if (a.kind === 'rect') return { x: a.x, y: a.y, w: a.w, h: a.h };
  const xs = a.points.map((p) => p[0]);
  const ys = a.points.map((p) => p[1]);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/**
 * Where the reader need look for dice: the rectangle holding the tray and the kept zone (inside the
 * image, whatever rounding the areas carry); null when the whole image is the tray.
 */
export function readingRegion(cal: TrayCalibration): ReadRegion | null {
  if (!cal.tray) return null;
  const areas = [cal.tray, cal.keptZone].flatMap((a) => (a ? [areaBounds(a)] : []));
  const [x, y] = [Math.max(0, Math.min(...areas.map((b) => b.x))), Math.max(0, Math.min(...areas.map((b) => b.y)))];
  const [right, bottom] = [Math.min(1, Math.max(...areas.map((b) => b.x + b.w))), Math.min(1, Math.max(...areas.map((b) => b.y + b.h)))];
  return { x, y, w: right - x, h: bottom - y };
}

/** 1 for pixels (of a width × height image) inside the tray or the kept zone, 0 elsewhere. */
export function watchMask(cal: TrayCalibration, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const ny = (y + 0.5) / height;
    for (let x = 0; x < width; x++) {
      const nx = (x + 0.5) / width;
      const inTray = !cal.tray || areaContains(cal.tray, nx, ny);
      const inKept = cal.keptZone !== null && areaContains(cal.keptZone, nx, ny);
      mask[y * width + x] = inTray || inKept ? 1 : 0;
    }
  }
  return mask;
}

function polygonArea(p: NormPoint[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const [x1, y1] = p[i];
    const [x2, y2] = p[(i + 1) % p.length];
    s += x1 * y2 - x2 * y1;
  }
  return s / 2;
}

function segmentsCross(a: NormPoint, b: NormPoint, c: NormPoint, d: NormPoint): boolean {
  const o = (p: NormPoint, q: NormPoint, r: NormPoint) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return o(a, b, c) * o(a, b, d) < 0 && o(c, d, a) * o(c, d, b) < 0;
}

function quadSelfIntersects(p: NormPoint[]): boolean {
  return segmentsCross(p[0], p[1], p[2], p[3]) || segmentsCross(p[1], p[2], p[3], p[0]);
}

/** An RGB (3 channels) or grey (1 channel) image, row-major, 8 bits per channel. */
export interface RawImage {
  width: number;
  height: number;
  channels: number;
  data: Uint8Array;
}

export interface TrayEstimate {
  tray: Area & { kind: 'rect' };
  /** the uniform region's share of its bounding rectangle (1: a clean rectangle) */
  fill: number;
  /** the region's share of the image */
  coverage: number;
  /** mean colour of the region, 0..255 per channel */
  colour: number[];
}

export interface EstimateOptions {
  /** block side in pixels of the given image (default: width / 40) */
  block?: number;
  /** a block is uniform when every channel's standard deviation is below this (default 10) */
  maxStd?: number;
  /** neighbouring uniform blocks join when their mean colours differ less than this (default 8) */
  joinDistance?: number;
  /** the region must cover at least this share of the image (default 0.1) */
  minCoverage?: number;
}

/**
 * Estimates the tray from a frame of the empty tray: the largest connected region of uniform colour
 * (the matte felt), returned as its bounding rectangle. Throws when nothing large and uniform is found.
 */
export function estimateTrayFromEmptyFrame(img: RawImage, opts: EstimateOptions = {}): TrayEstimate {
  const { width, height, channels, data } = img;
  if (width < 16 || height < 16) throw new CalibrationError(`estimate: the image is too small (${width}×${height})`);
  if (data.length < width * height * channels) throw new CalibrationError('estimate: the image data is shorter than width × height × channels');
  const block = Math.max(2, Math.round(opts.block ?? width / 40));
  const join = opts.joinDistance ?? 8;
  const minCoverage = opts.minCoverage ?? 0.1;
  const gw = Math.floor(width / block);
  const gh = Math.floor(height / block);
  const means = new Float64Array(gw * gh * channels);
  const stds = new Float64Array(gw * gh);
  for (let by = 0; by < gh; by++) {
    for (let bx = 0; bx < gw; bx++) {
      let worst = 0;
      for (let c = 0; c < channels; c++) {
        let s = 0;
        let s2 = 0;
        for (let y = by * block; y < (by + 1) * block; y++) {
          for (let x = bx * block; x < (bx + 1) * block; x++) {
            const v = data[(y * width + x) * channels + c];
            s += v;
            s2 += v * v;
          }
        }
        const n = block * block;
        const m = s / n;
        means[(by * gw + bx) * channels + c] = m;
        worst = Math.max(worst, Math.sqrt(Math.max(0, s2 / n - m * m)));
      }
      stds[by * gw + bx] = worst;
    }
  }
  // a felt's own grain (the smoothest quarter of the image) sets what counts as uniform, within bounds
  const grain = [...stds].sort((a, b) => a - b)[Math.floor(stds.length / 4)] ?? 0;
  const maxStd = opts.maxStd ?? Math.min(Math.max(10, 3 * grain), 20);
  const uniform = stds.map((v) => (v < maxStd ? 1 : 0));
  const dist = (a: number, b: number) => {
    let d = 0;
    for (let c = 0; c < channels; c++) d = Math.max(d, Math.abs(means[a * channels + c] - means[b * channels + c]));
    return d;
  };
  /** Same surface under other light: brightness within ×2 of the seed's, and the colour's proportions alike. */
  const sameSurface = (a: number, b: number) => {
    let sa = 1;
    let sb = 1;
    for (let c = 0; c < channels; c++) {
      sa += means[a * channels + c];
      sb += means[b * channels + c];
    }
    if (sb > sa * 2 || sa > sb * 2) return false;
    if (channels === 1) return true;
    for (let c = 0; c < channels; c++) if (Math.abs(means[a * channels + c] / sa - means[b * channels + c] / sb) > 0.04) return false;
    return true;
  };
  const label = new Int32Array(gw * gh).fill(-1);
  let best: { cells: number[] } | null = null;
  let next = 0;
  for (let start = 0; start < gw * gh; start++) {
    if (!uniform[start] || label[start] >= 0) continue;
    const cells: number[] = [start];
    label[start] = next;
    for (let k = 0; k < cells.length; k++) {
      const i = cells[k];
      const x = i % gw;
      const y = (i - x) / gw;
      const around = [x > 0 ? i - 1 : -1, x < gw - 1 ? i + 1 : -1, y > 0 ? i - gw : -1, y < gh - 1 ? i + gw : -1];
      for (const j of around) {
        // neighbours close to each other, and the region not drifting from its seed's surface: a lamp's
        // bright spot or a shadow across the felt changes its brightness, not its colour
        if (j >= 0 && uniform[j] && label[j] < 0 && dist(i, j) < join && sameSurface(start, j)) {
          label[j] = next;
          cells.push(j);
        }
      }
    }
    next++;
    if (!best || cells.length > best.cells.length) best = { cells };
  }
  const coverage = best ? best.cells.length / (gw * gh) : 0;
  if (!best || coverage < minCoverage) {
    throw new CalibrationError(
      `estimate: no large uniform region found (largest covers ${(coverage * 100).toFixed(1)}% of the image, needs ${(minCoverage * 100).toFixed(0)}%); ` +
        'take the frame of the empty tray with even light, or set camera.tray by hand',
    );
  }
  let minX = gw, minY = gh, maxX = -1, maxY = -1;
  const colour = new Array<number>(channels).fill(0);
  for (const i of best.cells) {
    const x = i % gw;
    const y = (i - x) / gw;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
    for (let c = 0; c < channels; c++) colour[c] += means[i * channels + c] / best.cells.length;
  }
  const bw = maxX - minX + 1;
  const bh = maxY - minY + 1;
  const round = (v: number) => Math.round(v * 10000) / 10000;
  const tray = {
    kind: 'rect' as const,
    x: round((minX * block) / width),
    y: round((minY * block) / height),
    w: round((bw * block) / width),
    h: round((bh * block) / height),
  };
  return { tray, fill: best.cells.length / (bw * bh), coverage, colour: colour.map((v) => Math.round(v)) };
}
