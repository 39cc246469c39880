/**
 * A synthetic labelled test set in the YOLO layout of ../shared/docs/dice-data.md: coloured, translucent
 * and marbled dice 20–70 px across, all lying flat and readable, on varied surfaces. Seeds never overlap
 * the training scenes (training uses seed × 1 000 003 + i; this uses 2 000 000 000 + seed × 10 007 + i).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLOSE_CAMERA_FOCAL, CROWDED_DICE, randomLook, renderScene, type DiceColour, type Scene, type SceneDie } from './scene.ts';
import type { DieLook } from './die.ts';
import { Rng } from './random.ts';
import { formatYoloLabels } from '../vision/yolo-dataset.ts';
import { SET_ASIDE_FILES, type SetAsideKind } from '../vision/set-aside-dice.ts';

const COLOURS: DiceColour[] = ['black', 'red', 'blue', 'green', 'yellow', 'purple', 'translucent', 'marbled', 'white', 'any'];

/**
 * 'coloured': the set above. 'close-camera': dice of any look 30–120 px across under a close webcam
 * (CLOSE_CAMERA_FOCAL), so their sides, pips and all, show towards the frame centre;
 * 1–6 dice a frame, seeds 2 500 000 000 + seed × 10 007 + i. 'crowded': the coloured set's dice, 13–25 a
 * frame (as many as the real trays of ../shared/docs/dice-data.md hold; training draws at most 12), a die
 * shrunk where the tray cannot hold it at the drawn size; seeds 3 000 000 000 + seed × 10 007 + i.
 * 'occluded': the coloured set's kind of frames with a fingertip, a pencil or a card's corner over dice
 * (occluder.ts); a die with a pip hidden is not labelled but listed in the set's `hidden.json`;
 * seeds 3 500 000 000 + seed × 10 007 + i.
 * 'large-frame': the coloured set's dice, 1–25 a frame and 20–70 px across whatever the frame, in the
 * frames of HD webcams (LARGE_FRAMES), where each die is a smaller part of the frame than in a 640×480
 * one; seeds 4 000 000 000 + seed × 10 007 + i.
 * 'leaning': the coloured set's kind of frames with one to three dice more leaning on a die or against
 * the tray wall (leaning.ts; against a wall only where the scene has a tray), not labelled but listed in
 * the set's `leaning-on-dice.json` and `leaning-on-wall.json`; seeds 4 500 000 000 + seed × 10 007 + i.
 * 'table': one table's own dice: the coloured set's kind of frames, every die of every frame in the one
 * look the set's seed draws (of the colour `tableColour` names), as a table's dice set is; seeds 5 000 000 000 +
 * seed × 10 007 + i.
 */
export type SyntheticSetKind = 'coloured' | 'close-camera' | 'crowded' | 'occluded' | 'large-frame' | 'leaning' | 'table';

const SEED_BASE: Record<SyntheticSetKind, number> = {
  coloured: 2_000_000_000,
  'close-camera': 2_500_000_000,
  crowded: 3_000_000_000,
  occluded: 3_500_000_000,
  'large-frame': 4_000_000_000,
  leaning: 4_500_000_000,
  table: 5_000_000_000,
};

/** Frame sizes of the 'large-frame' set: 720p, a 4:3 webcam's 1280×960, 1080p. */
export const LARGE_FRAMES: readonly (readonly [number, number])[] = [[1280, 720], [1280, 960], [1920, 1080]];

/** Dice a frame of each set holds, fewest and most. */
const DICE_PER_FRAME: Record<SyntheticSetKind, readonly [number, number]> = { coloured: [1, 12], 'close-camera': [1, 6], crowded: CROWDED_DICE, occluded: [1, 12], 'large-frame': [1, 25], leaning: [1, 12], table: [1, 12] };

/** The unreadable dice each kind draws on purpose, listed apart from the labels (server/vision/set-aside-dice.ts). */
const SET_ASIDE: Partial<Record<SyntheticSetKind, { kind: SetAsideKind; is: (d: SceneDie) => boolean }[]>> = {
  occluded: [{ kind: 'hidden', is: (d) => d.unreadable === 'hidden' }],
  leaning: [
    { kind: 'leaningOnDice', is: (d) => d.unreadable === 'cocked' && d.leansOn === 'die' },
    { kind: 'leaningOnWall', is: (d) => d.unreadable === 'cocked' && d.leansOn === 'wall' },
  ],
};

/** The draws that open scene `i` of a set: its seed, a stream left where they end, its faces and the look of its dice. */
function sceneStart(i: number, seed: number, kind: SyntheticSetKind): { sceneSeed: number; rng: Rng; faces: number[]; colour: DiceColour } {
  const sceneSeed = SEED_BASE[kind] + seed * 10_007 + i;
  const rng = new Rng(sceneSeed);
  const [fewest, most] = DICE_PER_FRAME[kind];
  const faces = Array.from({ length: rng.int(fewest, most) }, () => rng.int(1, 6));
  return { sceneSeed, rng, faces, colour: rng.pick(COLOURS) };
}

/** The one look of every die of a 'table' set of `seed` whose dice are `colour`. */
export function tableDiceLook(seed: number, colour: TableColour): DieLook {
  return randomLook(new Rng(SEED_BASE.table - 1 - seed), colour);
}

/** The colours a 'table' set's dice may be. */
export type TableColour = Exclude<DiceColour, 'any'>;
export const TABLE_COLOURS: readonly TableColour[] = COLOURS.filter((c): c is TableColour => c !== 'any');

/** The look every die of scene `i` shares ('any': each die its own), without drawing the scene. */
export function syntheticSetLook(i: number, seed: number, kind: SyntheticSetKind = 'coloured', tableColour: TableColour = 'marbled'): DiceColour {
  return kind === 'table' ? tableColour : sceneStart(i, seed, kind).colour;
}

/**
 * Scene `i` of the set of `seed` and `kind`: what `writeSyntheticSet` draws and labels, and the JPEG
 * quality it saves it at. `tableColour`: the colour of a 'table' set's dice.
 */
export function syntheticSetScene(i: number, seed: number, kind: SyntheticSetKind = 'coloured', tableColour: TableColour = 'marbled'): { scene: Scene; jpegQuality: number } {
  const { sceneSeed, rng, faces, colour } = sceneStart(i, seed, kind);
  if (kind === 'large-frame') {
    const [width, height] = rng.pick(LARGE_FRAMES);
    // the renderer's die sizes are per 640 px of frame width
    const scene = renderScene({ width, height, faces, seed: sceneSeed, mode: 'test', colour, dieSize: (rng.range(20, 70) * 640) / width });
    return { scene, jpegQuality: rng.int(60, 92) };
  }
  const width = 640;
  const height = 480;
  const scene =
    kind === 'close-camera'
      ? renderScene({ width, height, faces, seed: sceneSeed, mode: 'test', colour, dieSize: rng.range(30, 120), focal: rng.range(...CLOSE_CAMERA_FOCAL) })
      : renderScene({
          width,
          height,
          faces,
          seed: sceneSeed,
          mode: 'test',
          colour,
          dieSize: rng.range(20, 70),
          occluders: kind === 'occluded',
          leaning: kind === 'leaning',
          ...(kind === 'table' ? { look: tableDiceLook(seed, tableColour) } : {}),
        });
  return { scene, jpegQuality: rng.int(60, 92) };
}

/** Where scene `i` is saved in a set's folder (without extension). */
export function syntheticSetName(i: number): string {
  return `synthetic_${String(i).padStart(4, '0')}`;
}

/** The set-aside kind a die of a `kind` set is listed under (not labelled), or null for a labelled die. */
export function setAsideKindOf(kind: SyntheticSetKind, die: SceneDie): SetAsideKind | null {
  return (SET_ASIDE[kind] ?? []).find(({ is }) => is(die))?.kind ?? null;
}

export async function writeSyntheticSet(dir: string, count: number, seed: number, onImage?: (i: number) => void, kind: SyntheticSetKind = 'coloured', tableColour: TableColour = 'marbled'): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'classes.txt'), ['One', 'Two', 'Three', 'Four', 'Five', 'Six'].join('\n') + '\n');
  const asideKinds = SET_ASIDE[kind] ?? [];
  const aside = asideKinds.map(() => ({}) as Record<string, { x: number; y: number; w: number; h: number }[]>);
  for (let i = 0; i < count; i++) {
    const { scene, jpegQuality } = syntheticSetScene(i, seed, kind, tableColour);
    const { width, height } = scene.image;
    const jpeg = await scene.image.toJpeg(jpegQuality);
    const name = syntheticSetName(i);
    await writeFile(join(dir, `${name}.jpg`), jpeg);
    // set-aside dice normalised as the labels are, so a frame read at another size (`dice:eval --camera half`) still matches
    const box = (d: SceneDie) => ({ x: d.x / width, y: d.y / height, w: d.w / width, h: d.h / height });
    asideKinds.forEach(({ is }, k) => {
      const here = scene.dice.filter(is);
      if (here.length > 0) aside[k][`${name}.jpg`] = here.map(box);
    });
    const labels = scene.dice.filter((d) => !d.unreadable).map((d) => {
      const { x, y, w, h } = box(d);
      return { cx: x, cy: y, w, h, face: d.face };
    });
    await writeFile(join(dir, `${name}.txt`), formatYoloLabels(labels));
    onImage?.(i);
  }
  for (const [k, { kind: asideKind }] of asideKinds.entries()) await writeFile(join(dir, SET_ASIDE_FILES[asideKind].file), JSON.stringify(aside[k], null, 1) + '\n');
}
