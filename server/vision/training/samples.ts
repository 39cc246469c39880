/** Training samples: synthetic scenes (with a JPEG round trip) and the real labelled photos. */
import { CLOSE_CAMERA_FOCAL, CROWDED_DICE, renderScene, type DiceColour, type SceneDie } from '../../synth/scene.ts';
import { Rng } from '../../synth/random.ts';
import { decodeImage, type RgbPixels } from '../decode.ts';
import type { LabelledDie, LabelledImage } from '../yolo-dataset.ts';
import { readFile } from 'node:fs/promises';

export interface FrameSample {
  pixels: RgbPixels;
  /**
   * centre of each die's top face (frame pixels), size when known, class label for the classifier; a real
   * photo's dice give instead the longer side of the box their labels draw around the pips (`pipSpan`)
   */
  dice: { x: number; y: number; size: number | null; cls: number; pips?: [number, number][]; pipSpan?: number }[];
  source: 'synthetic' | 'real';
}

const SIZES: [number, number][] = [[640, 480], [640, 480], [640, 480], [800, 600], [1280, 720], [480, 640]];

/** Class index for the classifier: face-1, or 7 (unreadable pose, pips cut by the frame or hidden under something), or 8 (blurred). */
export function classOf(d: SceneDie): number {
  if (d.unreadable === 'blurred') return 8;
  if (d.unreadable) return 7;
  return d.face - 1;
}

/** The looks the first model read worst (small, dark, see-through, two-coloured), over-sampled by `focus` scenes. */
const HARD_COLOURS: DiceColour[] = ['black', 'translucent', 'translucent', 'marbled', 'marbled', 'blue', 'purple', 'red', 'green', 'yellow', 'any'];

/** How a synthetic training scene is drawn, beyond its seed. */
export interface SceneKind {
  /** only small dice (18–45 px per 640 px width) of the hard looks */
  focus?: boolean;
  /** seen by a close webcam: the sides of the dice show towards the frame centre */
  closeCamera?: boolean;
  /** dice of any size (20–120 px), their look drawn from the hard looks (ignored for focus scenes) */
  hardLook?: boolean;
  /** a focus or hard-look scene whose dice are all marbled instead of a drawn hard look */
  marbled?: boolean;
  /** marbled dice with the faintest pips the contrast rule allows (`SceneOptions.faintPips`) */
  faintPips?: boolean;
  /** a full tray: 13–25 dice of 20–70 px (18–45 px for focus scenes), as many as real trays hold */
  crowded?: boolean;
  /** with a fingertip, pencil or card over some dice (`SceneOptions.occluders`) */
  occluded?: boolean;
  /** with one to three dice more leaning on a die or against the tray wall (`SceneOptions.leaning`) */
  leaning?: boolean;
}

function withMarbled(drawn: DiceColour, marbled: boolean): DiceColour {
  return marbled ? 'marbled' : drawn;
}

/**
 * One synthetic training frame. Without a kind the scene draws any look at 20–120 px (the first model's
 * recipe, unchanged). The close webcam's focal length comes from a random stream of its own, so the rest of
 * the scene is the same as without it; so does the hard look, but a scene given its look places its dice
 * from a different point of its own stream.
 */
export async function syntheticSample(seed: number, kind: SceneKind = {}): Promise<FrameSample> {
  const { focus = false, closeCamera = false, hardLook = false, marbled = false, faintPips = false, crowded = false, occluded = false, leaning = false } = kind;
  const rng = new Rng(seed * 7 + 1);
  const focal = closeCamera ? new Rng(seed * 13 + 5).range(...CLOSE_CAMERA_FOCAL) : undefined;
  const [width, height] = rng.pick(SIZES);
  const drawn = rng.chance(0.15) ? rng.int(0, 2) : rng.int(1, 12);
  // a stream of its own, so a crowded scene's other draws start as the plain scene's do
  const crowdRng = new Rng(seed * 19 + 7);
  const n = crowded ? crowdRng.int(...CROWDED_DICE) : drawn;
  const faces = Array.from({ length: n }, () => rng.int(1, 6));
  // the look is drawn even when `marbled` overrides it, so the rest of the scene's stream is unchanged
  const scene = focus
    ? renderScene({ width, height, faces, seed, mode: 'train', colour: withMarbled(rng.pick(HARD_COLOURS), marbled), dieSize: rng.range(18, 45), focal, faintPips, occluders: occluded, leaning })
    : renderScene({ width, height, faces, seed, mode: 'train', colour: hardLook ? withMarbled(new Rng(seed * 17 + 3).pick(HARD_COLOURS), marbled) : undefined, dieSize: crowded ? crowdRng.range(20, 70) : undefined, focal, faintPips, occluders: occluded, leaning });
  const jpeg = await scene.image.toJpeg(rng.int(35, 95));
  const pixels = await decodeImage(jpeg);
  return { pixels, dice: scene.dice.map((d) => ({ x: d.x, y: d.y, size: d.size, cls: classOf(d), pips: d.pips })), source: 'synthetic' };
}

/** A labelled photo's dice in a width × height frame: no size, its pip box's longer side instead. */
export function realDice(labels: readonly LabelledDie[], width: number, height: number): FrameSample['dice'] {
  return labels.map((l) => ({ x: l.cx * width, y: l.cy * height, size: null, cls: l.face - 1, pipSpan: Math.max(l.w * width, l.h * height) }));
}

export async function realSample(img: LabelledImage): Promise<FrameSample> {
  const pixels = await decodeImage(await readFile(img.path));
  return {
    pixels,
    dice: realDice(img.labels, pixels.width, pixels.height),
    source: 'real',
  };
}
