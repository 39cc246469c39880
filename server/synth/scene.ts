/**
 * A whole synthetic tray scene: surface, tray, dice (some touching, leaning, blurred or cut by the frame
 * edge: unreadable only when a pip of the top face is cut), distractors, things lying over dice when
 * asked (a die with a pip covered is unreadable), light, noise. Returns float RGB pixels and per-die
 * labels. Deterministic from the seed.
 */
import { addNoise, applyLighting, paintSurface, paintTrayWall, SURFACES, type Rect, type Surface } from './background.ts';
import { dieBox, drawDie, drawShadow, topPipCentres, topPipRadius, topPipsInFrame, type DieLook, type DiePose } from './die.ts';
import { dieFootprint, polygonsOverlap, topFaceCorners } from './footprint.ts';
import { drawOccluder, hidesPip, placeOccluder, type Occluder } from './occluder.ts';
import { dieSupport, leaningPose, pipSquare, wallSupport } from './leaning.ts';
import { RgbImage, type Rgb } from './image.ts';
import { Rng } from './random.ts';

export type Unreadable = 'cocked' | 'blurred' | 'edge' | 'hidden';

export interface SceneDie {
  /** centre of the top face, pixels */
  x: number;
  y: number;
  /** axis-aligned box of the whole visible die, pixels */
  w: number;
  h: number;
  /** top face side length, pixels */
  size: number;
  face: number;
  /** centres of the top face's pips, pixels */
  pips: [number, number][];
  unreadable?: Unreadable;
  /** what a leaning ('cocked') die rests on, and how far it is tilted from lying flat (degrees) */
  leansOn?: 'die' | 'wall';
  tilt?: number;
}

export type DiceColour = 'white' | 'black' | 'red' | 'blue' | 'green' | 'yellow' | 'purple' | 'translucent' | 'marbled' | 'any';

export interface SceneOptions {
  width: number;
  height: number;
  /** faces to show in the tray (readable, lying flat) */
  faces: number[];
  seed: number;
  /** top-face size in pixels at 640 px width; random in [20, 120] when absent */
  dieSize?: number;
  /**
   * 'demo': a tidy tray with a kept-dice zone and no hard cases; 'train': everything (leaning, blurred,
   * cut dice); 'test': the variety of 'train' but every die lies flat and readable (touching allowed).
   * A die lying flat never covers another's top face (`coversAnother`); a leaning die covers only the
   * one it rests on
   */
  mode: 'demo' | 'train' | 'test';
  /** extra dice set aside in the kept zone (demo) */
  keptFaces?: number[];
  colour?: DiceColour;
  surface?: Surface;
  /**
   * a webcam's focal length in frame widths (about 0.7–1.3): each die's sides then also show towards the
   * frame centre, by size × (distance from the centre) / focal length: at the middle of the frame's side
   * half a die for a 53° webcam (focal 1), whatever its height; 0.9 × size in the corners at focal 0.7.
   * Absent: a far, zoomed-in camera, whose dice show their sides only by the camera's tilt.
   */
  focal?: number;
  /**
   * marbled dice get the pips closest to their swirl colours that `MARBLED_PIP_CONTRAST` allows (the
   * hardest readable ones, for training); the random stream is drawn as without it
   */
  faintPips?: boolean;
  /**
   * one or two things lying over dice (a fingertip, a pencil, a card's corner; occluder.ts), drawn from a
   * random stream of their own: a die they hide a pip of is unreadable ('hidden'), one whose top face they
   * hide wholly is not labelled; the rest of the scene is drawn as without them
   */
  occluders?: boolean;
  /**
   * one to three dice besides `faces` leaning on a die lying flat or against the tray wall (leaning.ts),
   * unreadable ('cocked'), placed by a random stream of their own; none hides a pip of another die.
   * A number asks for that many (fewer where the tray has no room for them)
   */
  leaning?: boolean | number;
  /**
   * every die of the scene in this look (one table's own dice set, e.g. `randomLook` drawn once for many
   * scenes) instead of a look drawn from the scene's stream; `colour` and `faintPips` are then unused
   */
  look?: DieLook;
}

/** Focal lengths (frame widths) of the webcams close-camera scenes are seen by: 42–71° across. */
export const CLOSE_CAMERA_FOCAL: [number, number] = [0.7, 1.3];

/** How many dice a full tray holds (the real trays of ../shared/docs/dice-data.md: up to 25). */
export const CROWDED_DICE: [number, number] = [13, 25];

export interface Scene {
  image: RgbImage;
  dice: SceneDie[];
}

const NAMED: Record<Exclude<DiceColour, 'translucent' | 'marbled' | 'any'>, Rgb> = {
  white: [0.93, 0.92, 0.88],
  black: [0.07, 0.07, 0.08],
  red: [0.75, 0.08, 0.08],
  blue: [0.1, 0.22, 0.7],
  green: [0.1, 0.55, 0.2],
  yellow: [0.95, 0.8, 0.12],
  purple: [0.45, 0.15, 0.6],
};
const PIP_CHOICES: Rgb[] = [[0.05, 0.05, 0.05], [0.95, 0.95, 0.95], [0.85, 0.7, 0.2], [0.75, 0.05, 0.05], [0.1, 0.15, 0.6]];

export function luminance(c: Rgb): number {
  return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
}

function jitter(c: Rgb, rng: Rng, amount: number): Rgb {
  return [0, 1, 2].map((i) => Math.min(1, Math.max(0, c[i] + rng.range(-amount, amount)))) as Rgb;
}

/** Least luminance difference between a plain die's pips and its body. */
const PLAIN_PIP_CONTRAST = 0.35;
/**
 * Least luminance difference between a marbled die's pips and each of its two colours. Real marbled dice
 * are made readable; a pip that differs from the swirl under it only in hue (or not at all) is lost to the
 * eye at this size and to a webcam's halved colour resolution (4:2:0), so it would not be a readable die.
 */
export const MARBLED_PIP_CONTRAST = 0.15;

function plainPip(body: Rgb, rng: Rng): Rgb {
  const lum = luminance(body);
  const contrasting = PIP_CHOICES.filter((p) => Math.abs(luminance(p) - lum) > PLAIN_PIP_CONTRAST);
  return contrasting.length > 0 ? rng.pick(contrasting) : lum > 0.5 ? PIP_CHOICES[0] : PIP_CHOICES[1];
}

/**
 * A pip colour that shows on both colours of a marbled die (`faintest`: the one that shows least). Draws
 * from `rng` exactly as the rule before it did (one pick, one jitter), so every other look and scene
 * renders as before; the jitter is dropped where it would take the pips below the contrast.
 */
function marbledPip(body: Rgb, marble: Rgb, rng: Rng, faintest: boolean): Rgb {
  const contrast = (p: Rgb): number => Math.min(Math.abs(luminance(p) - luminance(body)), Math.abs(luminance(p) - luminance(marble)));
  const showing = PIP_CHOICES.filter((p) => contrast(p) >= MARBLED_PIP_CONTRAST);
  const picked = rng.pick(showing.length > 0 ? showing : [PIP_CHOICES.reduce((a, b) => (contrast(b) > contrast(a) ? b : a))]);
  const chosen = faintest && showing.length > 0 ? showing.reduce((a, b) => (contrast(b) < contrast(a) ? b : a)) : picked;
  const jittered = jitter(chosen, rng, 0.05);
  return contrast(jittered) >= Math.min(MARBLED_PIP_CONTRAST, contrast(chosen)) ? jittered : chosen;
}

/**
 * A dice set's look: body colour (two for marbled dice), pips that contrast with it, pip geometry.
 * `faintPips`: a marbled die's pips are the least contrasting that still show (`SceneOptions.faintPips`).
 */
export function randomLook(rng: Rng, colour: DiceColour = 'any', faintPips = false): DieLook {
  const kind: DiceColour =
    colour !== 'any'
      ? colour
      : rng.pick<DiceColour>(['white', 'white', 'white', 'black', 'red', 'blue', 'green', 'yellow', 'purple', 'translucent', 'translucent', 'marbled', 'marbled']);
  let body: Rgb;
  let marble: Rgb | undefined;
  let opacity = 1;
  if (kind === 'translucent') {
    body = jitter(rng.pick(Object.values(NAMED)), rng, 0.1);
    opacity = rng.range(0.45, 0.8);
  } else if (kind === 'marbled') {
    body = jitter(rng.pick(Object.values(NAMED)), rng, 0.15);
    marble = jitter(rng.pick(Object.values(NAMED)), rng, 0.15);
  } else {
    body = jitter(NAMED[kind as keyof typeof NAMED], rng, 0.08);
  }
  const pip = marble ? marbledPip(body, marble, rng, faintPips) : jitter(plainPip(body, rng), rng, 0.05);
  return {
    body,
    marble,
    pip,
    opacity,
    pipRadius: rng.range(0.075, 0.115),
    pipSpacing: rng.range(0.23, 0.29),
    corner: rng.range(0.08, 0.3),
    bigOne: rng.chance(0.3) ? rng.range(1.3, 2.0) : 1,
  };
}

interface Placed {
  pose: DiePose;
  face: number;
  look: DieLook;
  unreadable?: Unreadable;
  leansOn?: 'die' | 'wall';
}

function overlaps(a: DiePose, placed: Placed[], minGap: number): boolean {
  return placed.some((p) => Math.hypot(p.pose.cx - a.cx, p.pose.cy - a.cy) < (p.pose.size + a.size) * 0.5 * Math.SQRT2 * minGap);
}

/** Depth (× the smaller die's size) two footprints may share: the rounded corners of real dice leave it empty. */
const FOOTPRINT_SLACK = 0.02;

function footprintsOverlap(a: DiePose, aLeaning: boolean, b: Placed): boolean {
  return polygonsOverlap(dieFootprint(a, aLeaning), dieFootprint(b.pose, b.unreadable === 'cocked'), FOOTPRINT_SLACK * Math.min(a.size, b.pose.size));
}

/** Whether a die would cover (or lie under) any placed die but `except`, the one a leaning die rests on. */
function coversAnother(a: DiePose, leaning: boolean, placed: Placed[], except?: Placed): boolean {
  return placed.some((p) => p !== except && footprintsOverlap(a, leaning, p));
}

/**
 * Where the base of a cube die of top-face side `size` at (cx, cy) shows relative to its top face under a
 * camera looking straight down with focal length `focal` frame widths: towards the frame centre, by
 * size × distance / focal length, all in pixels (a cube is as high as it is wide, and a top face seen
 * `size` pixels wide puts the camera focal length / size die heights above it).
 */
export function closeCameraSides(cx: number, cy: number, size: number, width: number, height: number, focal: number): [number, number] {
  const focalPx = focal * width;
  return [((width / 2 - cx) * size) / focalPx, ((height / 2 - cy) * size) / focalPx];
}

export function renderScene(o: SceneOptions): Scene {
  const rng = new Rng(o.seed);
  const { width: W, height: H } = o;
  const img = new RgbImage(W, H);
  const demo = o.mode === 'demo';
  const unit = W / 640;

  // table and tray
  const table = o.surface ?? (demo ? 'wood' : rng.pick(SURFACES));
  paintSurface(img, { x0: 0, y0: 0, x1: W, y1: H }, table, rng.fork());
  let tray: Rect = { x0: 0, y0: 0, x1: W, y1: H };
  let kept: Rect | null = null;
  let walled = false;
  if (demo || rng.chance(0.5)) {
    walled = true;
    const m = demo ? 0.04 : rng.range(-0.05, 0.12);
    const wall = Math.round(rng.range(8, 22) * unit);
    tray = { x0: Math.round(W * m), y0: Math.round(H * m), x1: Math.round(W * (1 - m)), y1: Math.round(H * (1 - m)) };
    const trayColour: Rgb = jitter(rng.pick<Rgb>([[0.3, 0.18, 0.1], [0.1, 0.1, 0.1], [0.55, 0.4, 0.25], [0.2, 0.2, 0.25]]), rng, 0.05);
    paintSurface(img, tray, demo ? 'felt' : rng.pick(SURFACES), rng.fork());
    paintTrayWall(img, tray, wall, trayColour, rng.fork());
    if (demo || rng.chance(0.3)) {
      const split = Math.round(tray.x0 + (tray.x1 - tray.x0) * 0.74);
      kept = { x0: split + wall, y0: tray.y0, x1: tray.x1, y1: tray.y1 };
      paintSurface(img, kept, 'felt', rng.fork());
      paintTrayWall(img, { x0: tray.x0, y0: tray.y0, x1: split, y1: tray.y1 }, Math.round(wall / 2), trayColour, rng.fork());
      paintTrayWall(img, kept, 0, trayColour, rng.fork());
      tray = { x0: tray.x0, y0: tray.y0, x1: split, y1: tray.y1 };
    }
  }

  const baseSize = (o.dieSize ?? (rng.chance(0.5) ? rng.range(20, 70) : rng.range(20, 120))) * unit;
  const look = o.look ?? randomLook(rng, o.colour ?? (demo ? 'white' : 'any'), o.faintPips);
  const mixedSets = !o.look && !demo && rng.chance(0.4);
  // camera tilt: the sides of every die show in roughly the same direction
  const tiltDir = rng.range(0, Math.PI * 2);
  const tilt = demo ? rng.range(0.05, 0.18) : rng.chance(0.3) ? 0 : rng.range(0, 0.35);
  const placed: Placed[] = [];

  const allowUnreadable = o.mode === 'train';
  const allowTouching = o.mode !== 'demo';
  const place = (face: number, region: Rect, free: boolean): void => {
    const hard = free && allowUnreadable;
    const touchy = free && allowTouching;
    let size = baseSize * rng.range(0.9, 1.1);
    // training scenes may drop a die that does not fit; demo and test trays shrink it until it fits
    const maxAttempts = o.mode === 'train' ? 60 : 400;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (attempt > 0 && attempt % 100 === 0) size *= 0.85;
      const pad = size * 0.75;
      const cutByEdge = hard && rng.chance(0.06);
      let cx: number;
      let cy: number;
      if (cutByEdge) {
        const side = rng.int(0, 3);
        const depth = rng.range(-0.1, 0.5) * size;
        cx = side === 0 ? depth : side === 1 ? W - depth : rng.range(pad, W - pad);
        cy = side === 2 ? depth : side === 3 ? H - depth : rng.range(pad, H - pad);
      } else {
        if (region.x1 - region.x0 < 2 * pad || region.y1 - region.y0 < 2 * pad) return;
        cx = rng.range(region.x0 + pad, region.x1 - pad);
        cy = rng.range(region.y0 + pad, region.y1 - pad);
      }
      const dieLook = mixedSets && rng.chance(0.5) ? randomLook(rng, 'any', o.faintPips) : look;
      const angle = rng.range(0, Math.PI / 2);
      const tiltX = Math.cos(tiltDir) * tilt * size * rng.range(0.8, 1.2);
      const tiltY = Math.sin(tiltDir) * tilt * size * rng.range(0.8, 1.2);
      const pose: DiePose = { cx, cy, size, angle, ox: 0, oy: 0, squash: 1, blurX: 0, blurY: 0 };
      const seeSides = (): void => {
        const [px, py] = o.focal ? closeCameraSides(pose.cx, pose.cy, size, W, H, o.focal) : [0, 0];
        pose.ox = tiltX + px;
        pose.oy = tiltY + py;
      };
      seeSides();
      const touching = touchy && placed.length > 0 && rng.chance(0.25);
      const cocked = hard && !cutByEdge && placed.length > 0 && rng.chance(0.1);
      let other: Placed | undefined;
      if (touching || cocked) {
        const base = rng.pick(placed);
        other = base;
        const a = rng.range(0, Math.PI * 2);
        let dist = (base.pose.size + size) * 0.5 * (cocked ? rng.range(0.7, 1.0) : rng.range(1.02, 1.25));
        const moveTo = (): void => {
          pose.cx = base.pose.cx + Math.cos(a) * dist;
          pose.cy = base.pose.cy + Math.sin(a) * dist;
        };
        moveTo();
        // turned squares touch further apart than their sizes: slide out until the faces no longer overlap
        for (let k = 0; touching && k < 40 && footprintsOverlap(pose, false, base); k++) {
          dist += 0.03 * size;
          moveTo();
        }
        seeSides();
        if (pose.cx < pad || pose.cy < pad || pose.cx > W - pad || pose.cy > H - pad) continue;
      }
      // only the dice drawn to be cut may lose a pip to the frame: a tray reaching past the frame must not
      // label a die whose pips are out of sight with its face
      if (!cutByEdge && !cocked && !topPipsInFrame(pose, face, dieLook, W, H)) continue;
      let leansOn: 'die' | undefined;
      let unreadable: Unreadable | undefined = cutByEdge && !topPipsInFrame(pose, face, dieLook, W, H) ? 'edge' : undefined;
      if (cocked) {
        pose.squash = rng.range(0.45, 0.8);
        const lean = rng.range(0.45, 0.8) * size;
        const la = rng.range(0, Math.PI * 2);
        pose.ox = Math.cos(la) * lean;
        pose.oy = Math.sin(la) * lean;
        pose.size *= rng.range(1.0, 1.15);
        unreadable = 'cocked';
        leansOn = 'die';
      } else if (!touching && !cutByEdge && overlaps(pose, placed, 1.05)) {
        continue;
      }
      if (coversAnother(pose, cocked, placed, cocked ? other : undefined)) continue;
      if (hard && !unreadable && rng.chance(0.05)) {
        const ba = rng.range(0, Math.PI * 2);
        const bl = rng.range(0.45, 1.0) * size;
        pose.blurX = Math.cos(ba) * bl;
        pose.blurY = Math.sin(ba) * bl;
        unreadable = 'blurred';
      }
      placed.push({ pose, face, look: dieLook, unreadable, ...(leansOn ? { leansOn } : {}) });
      return;
    }
  };

  for (const f of o.faces) place(f, tray, !demo);
  for (const f of o.keptFaces ?? []) if (kept) place(f, kept, false);
  if (o.leaning) {
    const lr = new Rng(o.seed * 31 + 17);
    const hidesAPip = (pose: DiePose): boolean => {
      const hull = dieFootprint(pose, true);
      return placed.some((p) => topPipCentres(p.pose, p.face, p.look).some((pip) => polygonsOverlap(hull, pipSquare(pip, topPipRadius(p.pose, p.face, p.look)))));
    };
    for (let n = typeof o.leaning === 'number' ? o.leaning : lr.int(1, 3); n > 0; n--) {
      for (let attempt = 0; attempt < 60; attempt++) {
        const size = baseSize * lr.range(0.9, 1.1);
        const flat = placed.filter((p) => !p.unreadable);
        const base = flat.length > 0 && !(walled && lr.chance(0.5)) ? lr.pick(flat) : undefined;
        const support = base ? dieSupport(base.pose, lr) : walled ? wallSupport(tray, W, H, size, lr) : null;
        if (!support) break;
        // over another die's top edge, or just off the wall
        const pose = leaningPose(support, size, base ? lr.range(0.75, 1.05) : lr.range(1.0, 1.15), lr);
        const b = dieBox(pose);
        const slack = 0.1 * size;
        if (b.x0 < Math.max(0, tray.x0 - slack) || b.y0 < Math.max(0, tray.y0 - slack) || b.x1 > Math.min(W, tray.x1 + slack) || b.y1 > Math.min(H, tray.y1 + slack)) continue;
        if (coversAnother(pose, true, placed, base) || hidesAPip(pose)) continue;
        const dieLook = mixedSets && lr.chance(0.5) ? randomLook(lr, 'any', o.faintPips) : look;
        placed.push({ pose, face: lr.int(1, 6), look: dieLook, unreadable: 'cocked', leansOn: base ? 'die' : 'wall' });
        break;
      }
    }
  }

  // distractors: tokens, coins, pencils (never labelled)
  const distractors = demo ? 0 : rng.int(0, 3);
  for (let i = 0; i < distractors; i++) drawDistractor(img, rng, baseSize);

  const shadowDx = rng.range(-0.2, 0.2) * baseSize;
  const shadowDy = rng.range(-0.2, 0.2) * baseSize;
  const shadowStrength = rng.range(0.15, 0.55);
  for (const d of placed) drawShadow(img, d.pose, shadowDx, shadowDy, shadowStrength, Math.max(1.5, d.pose.size * rng.range(0.08, 0.25)));
  // cocked dice lean on others: draw them last so they lie on top. Under a close camera a die's sides
  // point to the frame centre, under the top faces of dice nearer to it: draw the outer dice first.
  const fromCentre = (d: Placed): number => (o.focal ? -Math.hypot(d.pose.cx - W / 2, d.pose.cy - H / 2) : 0);
  const order = [...placed].sort((a, b) => Number(a.unreadable === 'cocked') - Number(b.unreadable === 'cocked') || fromCentre(a) - fromCentre(b));
  for (const d of order) drawDie(img, d.pose, d.face, d.look, rng);
  const visible = o.occluders ? occlude(img, placed, new Rng(o.seed * 29 + 11)) : placed;

  applyLighting(img, rng);
  if (!demo && rng.chance(0.35)) img.boxBlur(1, rng.int(1, 2));
  addNoise(img, demo ? 0.01 : rng.chance(0.7) ? rng.range(0.003, 0.04) : 0, rng);

  const dice: SceneDie[] = visible.map((d) => {
    const b = dieBox(d.pose);
    const x0 = Math.max(0, b.x0);
    const y0 = Math.max(0, b.y0);
    const x1 = Math.min(W, b.x1);
    const y1 = Math.min(H, b.y1);
    const out: SceneDie = { x: d.pose.cx, y: d.pose.cy, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0), size: d.pose.size, face: d.face, pips: topPipCentres(d.pose, d.face, d.look) };
    if (d.unreadable) out.unreadable = d.unreadable;
    if (d.leansOn) {
      out.leansOn = d.leansOn;
      out.tilt = (Math.acos(d.pose.squash) * 180) / Math.PI;
    }
    return out;
  });
  return { image: img, dice };
}

/** Draws one or two occluders over dice and returns the dice still seen, labelled by what they show. */
function occlude(img: RgbImage, placed: Placed[], rng: Rng): Placed[] {
  if (placed.length === 0) return placed;
  const occluders: Occluder[] = [];
  for (let i = rng.chance(0.3) ? 2 : 1; i > 0; i--) {
    const target = rng.pick(placed).pose;
    const { occluder, colour, shade } = placeOccluder(rng, target.cx, target.cy, target.size);
    drawOccluder(img, occluder, colour, shade);
    occluders.push(occluder);
  }
  const covered = (x: number, y: number): boolean => occluders.some((oc) => oc.distance(x, y) < 0);
  return placed.flatMap((d): Placed[] => {
    const corners = topFaceCorners(d.pose);
    if (covered(d.pose.cx, d.pose.cy) && corners.every(([x, y]) => covered(x, y))) return [];
    if (d.unreadable) return [d];
    const r = topPipRadius(d.pose, d.face, d.look);
    const hidden = topPipCentres(d.pose, d.face, d.look).some((pip) => occluders.some((oc) => hidesPip(oc, pip, r)));
    return [hidden ? { ...d, unreadable: 'hidden' } : d];
  });
}

function drawDistractor(img: RgbImage, rng: Rng, size: number): void {
  const colour: Rgb = [rng.next(), rng.next(), rng.next()];
  const cx = rng.range(0, img.width);
  const cy = rng.range(0, img.height);
  const kind = rng.int(0, 2);
  const r = size * rng.range(0.4, 1.0);
  const len = size * rng.range(2, 5);
  const a = rng.range(0, Math.PI);
  const ca = Math.cos(a);
  const sa = Math.sin(a);
  const ext = Math.max(r, len) + 2;
  for (let y = Math.max(0, Math.floor(cy - ext)); y < Math.min(img.height, cy + ext); y++) {
    for (let x = Math.max(0, Math.floor(cx - ext)); x < Math.min(img.width, cx + ext); x++) {
      const dx = x - cx;
      const dy = y - cy;
      let d: number;
      if (kind === 0) d = Math.hypot(dx, dy) - r; // coin / token
      else if (kind === 1) d = Math.max(Math.abs(dx * ca + dy * sa) - len / 2, Math.abs(-dx * sa + dy * ca) - r * 0.15); // pencil
      else d = Math.max(Math.abs(dx * ca + dy * sa), Math.abs(-dx * sa + dy * ca)) - r * 0.8; // square card / cube without pips
      const cov = Math.min(1, Math.max(0, 0.5 - d));
      if (cov > 0) img.blend(x, y, colour, cov);
    }
  }
}
