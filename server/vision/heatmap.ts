/** Pure helpers around the detector's output grid: training targets and peak decoding. */

export interface GridDie {
  /** centre in detector-input pixels */
  x: number;
  y: number;
  /** top-face size in detector-input pixels, or null when unknown (real photos: boxes hold only the pips) */
  size: number | null;
  /** centres of its top face's pips in detector-input pixels, where known (synthetic scenes) */
  pips?: [number, number][];
}

export interface Targets {
  /** gaussian heatmap, 1 at each die's cell */
  heat: Float32Array;
  /** log(size / stride) at die cells */
  logSize: Float32Array;
  /** 1 where logSize is supervised */
  sizeMask: Float32Array;
  /** weight of the "no die here" loss: `pipWeight` around the pips of a face away from its centre, else 1 */
  negWeight: Float32Array;
}

/**
 * CenterNet targets on a gw × gh grid of `stride`-pixel cells. `pipWeight` > 1 weighs more the cells
 * around pips that lie away from their die's centre (heat under 0.5): on a 2 or a 3 (pips along a
 * diagonal only) a detector may take an end pip for a small die.
 */
export function encodeTargets(dice: GridDie[], gw: number, gh: number, stride: number, defaultSize: number, pipWeight = 1): Targets {
  const heat = new Float32Array(gw * gh);
  const logSize = new Float32Array(gw * gh);
  const sizeMask = new Float32Array(gw * gh);
  const negWeight = new Float32Array(gw * gh).fill(1);
  for (const d of dice) {
    const cx = Math.floor(d.x / stride);
    const cy = Math.floor(d.y / stride);
    if (cx < 0 || cy < 0 || cx >= gw || cy >= gh) continue;
    const sizeCells = (d.size ?? defaultSize) / stride;
    const sigma = Math.max(0.7, sizeCells / 6);
    const r = Math.ceil(sigma * 3);
    for (let y = Math.max(0, cy - r); y <= Math.min(gh - 1, cy + r); y++) {
      for (let x = Math.max(0, cx - r); x <= Math.min(gw - 1, cx + r); x++) {
        const v = Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * sigma * sigma));
        const i = y * gw + x;
        if (v > heat[i]) heat[i] = v;
      }
    }
    const i = cy * gw + cx;
    heat[i] = 1;
    if (d.size !== null) {
      logSize[i] = Math.log(d.size / stride);
      sizeMask[i] = 1;
    }
  }
  const targets = { heat, logSize, sizeMask, negWeight };
  if (pipWeight !== 1) weighNoDieAround(targets, gw, gh, stride, dice.flatMap((d) => d.pips ?? []), pipWeight);
  return targets;
}

/**
 * Weighs the "no die here" loss `weight` times (or more, where a cell already weighs more) in the 3 × 3
 * cells around each point (detector-input pixels), except cells near a die's centre (heat 0.5 or more).
 */
export function weighNoDieAround(t: Targets, gw: number, gh: number, stride: number, points: [number, number][], weight: number): void {
  for (const [px, py] of points) {
    const cx = Math.floor(px / stride);
    const cy = Math.floor(py / stride);
    for (let y = Math.max(0, cy - 1); y <= Math.min(gh - 1, cy + 1); y++) {
      for (let x = Math.max(0, cx - 1); x <= Math.min(gw - 1, cx + 1); x++) {
        const i = y * gw + x;
        if (t.heat[i] < 0.5) t.negWeight[i] = Math.max(t.negWeight[i], weight);
      }
    }
  }
}

export interface Peak {
  /** centre in detector-input pixels */
  x: number;
  y: number;
  /** top-face size in detector-input pixels */
  size: number;
  score: number;
}

/**
 * Two dice lying flat cannot have top-face centres closer than one size; side faces of big dice make
 * peaks closer than that. 0.6 and not 1: sizes are estimates (0.8 lost touching dice in clusters;
 * chosen on the synthetic tuning set, models/TRAINING.md).
 */
export const PEAK_SPACING = 0.6;

/**
 * Local maxima (3×3) of the heatmap above `threshold`, with sub-cell refinement from the neighbours,
 * then suppression of weaker peaks closer than `minDistance` × size to a stronger one.
 * `out` holds [heat, logSize] interleaved per cell (the detector's output layout).
 */
export function decodePeaks(out: Float32Array, gw: number, gh: number, stride: number, threshold: number, minDistance = PEAK_SPACING): Peak[] {
  const heatAt = (x: number, y: number): number => (x < 0 || y < 0 || x >= gw || y >= gh ? 0 : out[(y * gw + x) * 2]);
  const peaks: Peak[] = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const v = heatAt(x, y);
      if (v < threshold) continue;
      let isMax = true;
      for (let dy = -1; dy <= 1 && isMax; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const n = heatAt(x + dx, y + dy);
          // ties: keep the first in scan order
          if (n > v || (n === v && (dy < 0 || (dy === 0 && dx < 0)))) {
            isMax = false;
            break;
          }
        }
      }
      if (!isMax) continue;
      const l = heatAt(x - 1, y);
      const r = heatAt(x + 1, y);
      const u = heatAt(x, y - 1);
      const d = heatAt(x, y + 1);
      const ox = refine(l, v, r);
      const oy = refine(u, v, d);
      const size = Math.exp(out[(y * gw + x) * 2 + 1]) * stride;
      peaks.push({ x: (x + 0.5 + ox) * stride, y: (y + 0.5 + oy) * stride, size, score: v });
    }
  }
  peaks.sort((a, b) => b.score - a.score);
  const kept: Peak[] = [];
  for (const p of peaks) {
    if (kept.some((k) => Math.hypot(k.x - p.x, k.y - p.y) < minDistance * Math.max(k.size, p.size))) continue;
    kept.push(p);
  }
  return kept;
}

/** Offset of a parabola's vertex through (-1, a), (0, b), (1, c), clamped to ±0.5. */
function refine(a: number, b: number, c: number): number {
  const den = a - 2 * b + c;
  if (den >= 0) return 0;
  return Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den));
}
