/**
 * The hollow of a drilled pip. Nearly every ordinary die has its pips drilled and the paint laid in the
 * hollow, so the wall of the hollow on the light's side falls in shadow, the far wall catches the light,
 * and the rim shows as a dark ring: a pip whose paint matches the swirl beneath it still shows. Casino
 * dice are filled flush and show none of this. Until 2026-11-27 the generator drew every pip flush.
 */
import { clamp01 } from './image.ts';
import { Rng } from './random.ts';

/** Share of dice drawn with flush pips (no hollow). */
export const FLUSH_PIP_SHARE = 0.15;
/** How strongly a drilled hollow is shaded, drawn per die. */
export const DRILL_DEPTH: readonly [number, number] = [0.2, 0.6];

export interface PipDrill {
  /** 0 = flush; otherwise how far the shadowed wall darkens (0..1) */
  depth: number;
  /**
   * Light on the paint at (qx, qy), the point's offset from the pip's centre over the pip's radius, for
   * light coming from (lx, ly) (unit vector, the die's own frame): 1 = as a flush pip.
   */
  shade(qx: number, qy: number, lx: number, ly: number): number;
}

/**
 * A die's drill from three draws it already takes (its glare's place and its top face's shade), so
 * drilling takes no more random numbers and every scene keeps its dice, faces and places.
 */
export function pipDrill(glareX: number, glareY: number, topShade: number): PipDrill {
  const rng = Rng.fromDraws(glareX * 1e6, glareY * 1e7, topShade * 1e8);
  const depth = rng.chance(FLUSH_PIP_SHARE) ? 0 : rng.range(DRILL_DEPTH[0], DRILL_DEPTH[1]);
  return {
    depth,
    shade: (qx, qy, lx, ly) => {
      if (depth === 0) return 1;
      const q = Math.min(1, Math.hypot(qx, qy));
      const towardLight = qx * lx + qy * ly;
      const wall = 1 - depth * towardLight * Math.sqrt(q);
      const rim = 1 - 0.5 * depth * clamp01((q - 0.6) / 0.4);
      return Math.min(1 + 0.5 * depth, wall) * rim;
    },
  };
}
