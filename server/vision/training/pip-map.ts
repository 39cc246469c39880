/**
 * The pip map: an auxiliary training target for the classifier. For a crop of a synthetic frame, a
 * PIP_GRID × PIP_GRID map (one cell per 4 × 4 crop pixels, the grid of the classifier's k3 features)
 * that is 1 at the centre of every top-face pip in the crop and falls off as a Gaussian of PIP_SIGMA
 * crop pixels. It teaches the classifier's features where pips are, not only which face a crop shows,
 * so a stripe of a marbled die that looks like a row of pips costs it a dense error, not one label's.
 * Training only: the shipped classifier has no pip-map output.
 */
import { MODEL_SPEC } from '../spec.ts';

const { cropSize: CS, cropScale } = MODEL_SPEC.classifier;

/** cells across the map: the classifier's k3 features (48 px, a stride-2 conv and one pooling) */
export const PIP_GRID = CS / 4;
/** spread of one pip's peak, in crop pixels (a pip is about 4–5 crop pixels across) */
export const PIP_SIGMA = 2;

export interface PipMapCrop {
  x: number;
  y: number;
  /** top-face size the crop is cut at; the crop's side is cropScale × size */
  size: number;
}

/**
 * The map of `crop` for pips at `pips` (frame pixels), or null when `unknown` — a region whose pips the
 * labels do not give (a leaning or blurred die) — reaches into the crop: its pips would be taught as
 * "no pip".
 */
export function pipMap(crop: PipMapCrop, pips: readonly (readonly [number, number])[], unknown: readonly PipMapCrop[] = []): Float32Array | null {
  const side = crop.size * cropScale;
  const x0 = crop.x - side / 2;
  const y0 = crop.y - side / 2;
  for (const u of unknown) {
    const reach = u.size * 0.75;
    if (u.x + reach > x0 && u.x - reach < x0 + side && u.y + reach > y0 && u.y - reach < y0 + side) return null;
  }
  const map = new Float32Array(PIP_GRID * PIP_GRID);
  // cropAndResize maps the crop box's corners onto pixels 0 and CS - 1
  const toCrop = (v: number, origin: number) => ((v - origin) / side) * (CS - 1);
  const cell = CS / PIP_GRID;
  const reach = PIP_SIGMA * 3;
  for (const [px, py] of pips) {
    const u = toCrop(px, x0);
    const v = toCrop(py, y0);
    if (u < -reach || v < -reach || u > CS - 1 + reach || v > CS - 1 + reach) continue;
    for (let gy = 0; gy < PIP_GRID; gy++) {
      const dy = gy * cell + (cell - 1) / 2 - v;
      for (let gx = 0; gx < PIP_GRID; gx++) {
        const dx = gx * cell + (cell - 1) / 2 - u;
        const value = Math.exp(-(dx * dx + dy * dy) / (2 * PIP_SIGMA * PIP_SIGMA));
        const i = gy * PIP_GRID + gx;
        if (value > map[i]) map[i] = value;
      }
    }
  }
  return map;
}
