/** Draws one d6 seen from above (top face, visible sides with their pips, shadow, glare, optional motion blur). */
import { clamp01, type RgbImage, type Rgb } from './image.ts';
import type { Rng } from './random.ts';
import { marblePattern } from './marble.ts';
import { pipDrill } from './drill.ts';

export interface DieLook {
  body: Rgb;
  /** second colour for marbled dice */
  marble?: Rgb;
  pip: Rgb;
  /** 1 = opaque; translucent dice 0.45..0.8 */
  opacity: number;
  /** pip radius relative to the face side */
  pipRadius: number;
  /** pip offset from the centre relative to the face side */
  pipSpacing: number;
  /** corner radius relative to the face side */
  corner: number;
  /** larger pip for the one */
  bigOne: number;
}

export interface DiePose {
  cx: number;
  cy: number;
  /** top face side length in pixels */
  size: number;
  angle: number;
  /** where the base of the die appears relative to its top face (perspective), pixels */
  ox: number;
  oy: number;
  /** top face foreshortening along its local y (1 = flat; < 1 = tilted/cocked) */
  squash: number;
  /** motion blur vector in pixels (0,0 = sharp) */
  blurX: number;
  blurY: number;
}

export const PIP_LAYOUT: readonly (readonly [number, number][])[] = [
  [[0, 0]],
  [[-1, -1], [1, 1]],
  [[-1, -1], [0, 0], [1, 1]],
  [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]],
];

/** Centres of the top face's pips, frame pixels. */
export function topPipCentres(p: DiePose, face: number, look: DieLook): [number, number][] {
  const cos = Math.cos(p.angle);
  const sin = Math.sin(p.angle);
  const spacing = p.size * look.pipSpacing;
  return PIP_LAYOUT[face - 1].map(([ax, ay]) => {
    const lx = ax * spacing;
    const ly = ay * spacing * p.squash;
    return [p.cx + lx * cos - ly * sin, p.cy + lx * sin + ly * cos];
  });
}

/** Radius in pixels of the top face's pips (a one's may be bigger). */
export function topPipRadius(p: DiePose, face: number, look: DieLook): number {
  return p.size * look.pipRadius * (face === 1 ? look.bigOne : 1);
}

/**
 * Whether every pip of the top face lies wholly inside the width×height frame (with a pixel to spare):
 * a die cut by the frame edge can still be read when no pip is cut.
 */
export function topPipsInFrame(p: DiePose, face: number, look: DieLook, width: number, height: number): boolean {
  const r = topPipRadius(p, face, look) + 1;
  return topPipCentres(p, face, look).every(([x, y]) => x - r >= 0 && y - r >= 0 && x + r <= width && y + r <= height);
}

/** Axis-aligned box of everything the die covers (top face and sides), before blur. */
export function dieBounds(p: DiePose): { x0: number; y0: number; x1: number; y1: number } {
  const half = (p.size / 2) * Math.SQRT2;
  return {
    x0: Math.min(p.cx - half, p.cx - half + p.ox),
    y0: Math.min(p.cy - half, p.cy - half + p.oy),
    x1: Math.max(p.cx + half, p.cx + half + p.ox),
    y1: Math.max(p.cy + half, p.cy + half + p.oy),
  };
}

/** Tight axis-aligned box of the rotated top face plus its extrusion. */
export function dieBox(p: DiePose): { x0: number; y0: number; x1: number; y1: number } {
  const c = Math.abs(Math.cos(p.angle));
  const s = Math.abs(Math.sin(p.angle));
  const hx = (p.size / 2) * (c + s * p.squash);
  const hy = (p.size / 2) * (s + c * p.squash);
  return {
    x0: Math.min(p.cx - hx, p.cx - hx + p.ox),
    y0: Math.min(p.cy - hy, p.cy - hy + p.oy),
    x1: Math.max(p.cx + hx, p.cx + hx + p.ox),
    y1: Math.max(p.cy + hy, p.cy + hy + p.oy),
  };
}

function roundedBoxSdf(x: number, y: number, half: number, r: number): number {
  const qx = Math.abs(x) - half + r;
  const qy = Math.abs(y) - half + r;
  const ox = Math.max(qx, 0);
  const oy = Math.max(qy, 0);
  return Math.sqrt(ox * ox + oy * oy) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Soft shadow cast on the table under the die. */
export function drawShadow(img: RgbImage, p: DiePose, dx: number, dy: number, strength: number, softness: number): void {
  const b = dieBounds(p);
  const m = softness * 2 + Math.abs(dx) + Math.abs(dy);
  const half = p.size / 2;
  const cos = Math.cos(-p.angle);
  const sin = Math.sin(-p.angle);
  const cx = p.cx + p.ox + dx;
  const cy = p.cy + p.oy + dy;
  for (let y = Math.max(0, Math.floor(b.y0 - m)); y < Math.min(img.height, Math.ceil(b.y1 + m)); y++) {
    for (let x = Math.max(0, Math.floor(b.x0 - m)); x < Math.min(img.width, Math.ceil(b.x1 + m)); x++) {
      const lx = (x - cx) * cos - (y - cy) * sin;
      const ly = (x - cx) * sin + (y - cy) * cos;
      const d = roundedBoxSdf(lx, ly, half, half * 0.3);
      const a = strength * clamp01(0.5 - d / softness);
      if (a > 0) img.scale(x, y, 1 - a);
    }
  }
}

interface SideFace {
  /** edge midpoint relative to the die centre, and edge direction, in image coordinates */
  mx: number;
  my: number;
  ex: number;
  ey: number;
  shade: number;
  pips: readonly (readonly [number, number])[];
}

/** Render the die into an RGBA patch (premultiplied), blur it if moving, and composite it onto the image. */
export function drawDie(img: RgbImage, p: DiePose, face: number, look: DieLook, rng: Rng): void {
  const b = dieBounds(p);
  const blurPad = Math.ceil(Math.abs(p.blurX) + Math.abs(p.blurY)) + 2;
  const px0 = Math.floor(b.x0) - blurPad;
  const py0 = Math.floor(b.y0) - blurPad;
  const pw = Math.ceil(b.x1) + blurPad - px0;
  const ph = Math.ceil(b.y1) + blurPad - py0;
  let patch: Float32Array = new Float32Array(pw * ph * 4);

  const s = p.size;
  const half = s / 2;
  const r = s * look.corner;
  const cos = Math.cos(p.angle);
  const sin = Math.sin(p.angle);
  const light = rng.range(0, Math.PI * 2);
  const lx = Math.cos(light);
  const ly = Math.sin(light);
  const topShade = rng.range(0.85, 1.08);
  const glareStrength = rng.chance(look.opacity < 1 ? 0.7 : 0.35) ? rng.range(0.1, 0.7) : 0;
  const glareX = rng.range(-0.35, 0.35) * s;
  const glareY = rng.range(-0.35, 0.35) * s;
  const glareR = rng.range(0.12, 0.45) * s;
  const marbleFrequency = rng.range(0.6, 1.8);
  const marbleA = rng.range(0, Math.PI);
  const marbleW = rng.range(1, 4);
  const drill = pipDrill(glareX, glareY, topShade);
  const pips = PIP_LAYOUT[face - 1];
  const pipR = s * look.pipRadius;
  const spacing = s * look.pipSpacing;
  const olen = Math.hypot(p.ox, p.oy);

  const sides: SideFace[] = [];
  if (olen > s * 0.1) {
    const normals: [number, number][] = [[1, 0], [-1, 0], [0, 1], [0, -1]];
    for (const [nxl, nyl] of normals) {
      const nx = nxl * cos - nyl * sin;
      const ny = nxl * sin + nyl * cos;
      if ((nx * p.ox + ny * p.oy) / olen < 0.2) continue;
      const scaleY = nyl !== 0 ? p.squash : 1;
      const mxl = nxl * half;
      const myl = nyl * half * scaleY;
      const sideFaceValue = rng.pick([1, 2, 3, 4, 5, 6].filter((f) => f !== face && f !== 7 - face));
      sides.push({
        mx: mxl * cos - myl * sin,
        my: mxl * sin + myl * cos,
        ex: -ny * (nyl !== 0 ? 1 : p.squash),
        ey: nx * (nyl !== 0 ? 1 : p.squash),
        shade: clamp01(0.5 + 0.3 * (nx * lx + ny * ly) + rng.range(-0.05, 0.05)) * 0.8 + 0.15,
        pips: PIP_LAYOUT[sideFaceValue - 1],
      });
    }
  }

  const marble = look.marble ? { colour: look.marble, swirl: marblePattern(s, marbleFrequency, marbleA, marbleW) } : null;
  const bodyAt = (lxp: number, lyp: number): Rgb => {
    if (!marble) return look.body;
    const m = marble.swirl.at(lxp, lyp);
    const a = look.body;
    const c = marble.colour;
    return [a[0] + (c[0] - a[0]) * m, a[1] + (c[1] - a[1]) * m, a[2] + (c[2] - a[2]) * m];
  };

  const steps = 8;
  for (let y = 0; y < ph; y++) {
    for (let x = 0; x < pw; x++) {
      const wx = px0 + x + 0.5 - p.cx;
      const wy = py0 + y + 0.5 - p.cy;
      // top face in its local frame
      const tlx = wx * cos + wy * sin;
      const tly = (-wx * sin + wy * cos) / p.squash;
      const dTop = roundedBoxSdf(tlx, tly, half, r) * Math.min(1, p.squash * 1.2);
      let dBody = dTop;
      if (olen > 0.5) {
        for (let k = 1; k <= steps; k++) {
          const t = k / steps;
          const sx = wx - p.ox * t;
          const sy = wy - p.oy * t;
          const llx = sx * cos + sy * sin;
          const lly = (-sx * sin + sy * cos) / p.squash;
          const d = roundedBoxSdf(llx, lly, half, r);
          if (d < dBody) dBody = d;
        }
      }
      const bodyCov = clamp01(0.5 - dBody);
      if (bodyCov <= 0) continue;
      const topCov = clamp01(0.5 - dTop);
      let cr = 0;
      let cg = 0;
      let cb = 0;
      let pipCov = 0;
      if (topCov < 1) {
        // side faces
        let shade = 0.55;
        let sidePip = 0;
        for (const f of sides) {
          const qx = wx - f.mx;
          const qy = wy - f.my;
          const det = f.ex * p.oy - f.ey * p.ox;
          if (Math.abs(det) < 1e-6) continue;
          const u = (qx * p.oy - qy * p.ox) / det;
          const v = (f.ex * qy - f.ey * qx) / det;
          if (v < 0 || v > 1 || Math.abs(u) > half) continue;
          shade = f.shade;
          const fa = u;
          const fb = (v - 0.5) * s;
          for (const [ax, ay] of f.pips) {
            const d = Math.hypot(fa - ax * spacing, fb - ay * spacing);
            const pc = clamp01((pipR - d) * Math.min(1, olen / s + 0.3) + 0.5);
            if (pc > sidePip) sidePip = pc;
          }
        }
        const base = bodyAt(tlx, tly);
        const k = 1 - topCov;
        cr += (base[0] * shade * (1 - sidePip) + look.pip[0] * shade * sidePip) * k;
        cg += (base[1] * shade * (1 - sidePip) + look.pip[1] * shade * sidePip) * k;
        cb += (base[2] * shade * (1 - sidePip) + look.pip[2] * shade * sidePip) * k;
        pipCov += sidePip * k;
      }
      if (topCov > 0) {
        const base = bodyAt(tlx, tly);
        let pc = 0;
        let hollow = 1;
        const rr = face === 1 ? pipR * look.bigOne : pipR;
        for (const [ax, ay] of pips) {
          const dx = tlx - ax * spacing;
          const dy = tly - ay * spacing;
          const c = clamp01(rr - Math.hypot(dx, dy) + 0.5);
          if (c > pc) {
            pc = c;
            hollow = rr > 0 ? drill.shade(dx / rr, dy / rr, lx, ly) : 1;
          }
        }
        const grad = topShade * (1 + 0.08 * (tlx * lx + tly * ly) / half);
        const g = glareStrength * Math.exp(-((tlx - glareX) ** 2 + (tly - glareY) ** 2) / (glareR * glareR));
        const edge = 1 - 0.15 * clamp01(1 + dTop / (s * 0.08));
        const paint = pc * hollow;
        cr += ((base[0] * (1 - pc) + look.pip[0] * paint) * grad * edge + g) * topCov;
        cg += ((base[1] * (1 - pc) + look.pip[1] * paint) * grad * edge + g) * topCov;
        cb += ((base[2] * (1 - pc) + look.pip[2] * paint) * grad * edge + g) * topCov;
        pipCov += pc * topCov;
      }
      const alpha = bodyCov * Math.max(look.opacity, Math.min(1, pipCov));
      const i = (y * pw + x) * 4;
      patch[i] = cr * alpha;
      patch[i + 1] = cg * alpha;
      patch[i + 2] = cb * alpha;
      patch[i + 3] = alpha;
    }
  }

  const blurLen = Math.hypot(p.blurX, p.blurY);
  if (blurLen >= 1) patch = motionBlur(patch, pw, ph, p.blurX, p.blurY);

  for (let y = 0; y < ph; y++) {
    const iy = py0 + y;
    if (iy < 0 || iy >= img.height) continue;
    for (let x = 0; x < pw; x++) {
      const ix = px0 + x;
      if (ix < 0 || ix >= img.width) continue;
      const i = (y * pw + x) * 4;
      const a = patch[i + 3];
      if (a <= 0) continue;
      const j = (iy * img.width + ix) * 3;
      const d = img.data;
      d[j] = d[j] * (1 - a) + patch[i];
      d[j + 1] = d[j + 1] * (1 - a) + patch[i + 1];
      d[j + 2] = d[j + 2] * (1 - a) + patch[i + 2];
    }
  }
}

function motionBlur(src: Float32Array, w: number, h: number, bx: number, by: number): Float32Array {
  const n = Math.max(2, Math.ceil(Math.hypot(bx, by)));
  const out = new Float32Array(src.length);
  for (let k = 0; k < n; k++) {
    const t = k / (n - 1) - 0.5;
    const dx = Math.round(bx * t);
    const dy = Math.round(by * t);
    for (let y = 0; y < h; y++) {
      const sy = y - dy;
      if (sy < 0 || sy >= h) continue;
      for (let x = 0; x < w; x++) {
        const sx = x - dx;
        if (sx < 0 || sx >= w) continue;
        const i = (y * w + x) * 4;
        const j = (sy * w + sx) * 4;
        out[i] += src[j] / n;
        out[i + 1] += src[j + 1] / n;
        out[i + 2] += src[j + 2] / n;
        out[i + 3] += src[j + 3] / n;
      }
    }
  }
  return out;
}
