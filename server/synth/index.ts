/**
 * Synthetic dice-tray images: `renderTray` for the simulated camera and demo, `renderTrainingScene`
 * for model training and synthetic test sets. Deterministic from the seed.
 */
import { renderScene, type DiceColour, type SceneDie } from './scene.ts';
import type { Surface } from './background.ts';

export type { SceneDie, DiceColour, Unreadable } from './scene.ts';
export { renderScene } from './scene.ts';

export interface TrayStyle {
  /** dice colour ('white' by default) */
  colour?: DiceColour;
  /** table surface around the tray ('wood' by default) */
  surface?: Surface;
  /** top-face size in pixels at 640 px width (default: random 45..75) */
  dieSize?: number;
  /** faces of dice set aside in the kept zone at the right of the tray */
  keptFaces?: number[];
  /** JPEG quality 1..100 (default 88) */
  quality?: number;
}

export interface TrayRequest {
  faces: number[];
  /** dice more, leaning on a die of the tray or against its wall (0..3; fewer where there is no room) */
  leaning?: number;
  seed: number;
  width?: number;
  height?: number;
  style?: TrayStyle;
}

export interface TrayImage {
  image: Buffer;
  width: number;
  height: number;
  /** every die drawn (rolled and kept): centre of its top face, box of the whole die, face shown; `leaning`: no face up */
  dice: { x: number; y: number; w: number; h: number; face: number; leaning?: true }[];
}

function checkFaces(faces: unknown, what: string): number[] {
  if (!Array.isArray(faces) || faces.some((f) => !Number.isInteger(f) || f < 1 || f > 6)) {
    throw new RangeError(`${what} must be an array of integers 1..6`);
  }
  if (faces.length > 25) throw new RangeError(`${what}: at most 25 dice`);
  return faces as number[];
}

/** A realistic-looking tray of flat, readable dice showing `faces` (and `leaning` dice more, unreadable), as a JPEG. */
export async function renderTray(req: TrayRequest): Promise<TrayImage> {
  const faces = checkFaces(req.faces, 'faces');
  const keptFaces = checkFaces(req.style?.keptFaces ?? [], 'style.keptFaces');
  const width = req.width ?? 640;
  const height = req.height ?? 480;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 64 || height < 48 || width > 4096 || height > 4096) {
    throw new RangeError('width/height must be integers, 64..4096 by 48..4096');
  }
  if (!Number.isFinite(req.seed)) throw new RangeError('seed must be a number');
  const leaning = req.leaning ?? 0;
  if (!Number.isInteger(leaning) || leaning < 0 || leaning > 3) throw new RangeError('leaning must be an integer 0..3');
  const scene = renderScene({
    width,
    height,
    faces,
    keptFaces,
    seed: req.seed,
    mode: 'demo',
    colour: req.style?.colour,
    surface: req.style?.surface,
    dieSize: req.style?.dieSize ?? 45 + ((Math.abs(Math.floor(req.seed)) * 7919) % 31),
    ...(leaning > 0 ? { leaning } : {}),
  });
  const quality = Math.min(100, Math.max(1, Math.round(req.style?.quality ?? 88)));
  const image = await scene.image.toJpeg(quality);
  return { image, width, height, dice: scene.dice.map(({ x, y, w, h, face, leansOn }: SceneDie) => ({ x, y, w, h, face, ...(leansOn ? { leaning: true as const } : {}) })) };
}
