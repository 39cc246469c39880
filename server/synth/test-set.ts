/**
 * A synthetic labelled test set in the YOLO layout of ../shared/docs/dice-data.md: coloured, translucent
 * and marbled dice 20–70 px across, all lying flat and readable, on varied surfaces. Seeds never overlap
 * the training scenes (training uses seed × 1 000 003 + i; this uses 2 000 000 000 + seed × 10 007 + i).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLOSE_CAMERA_FOCAL, CROWDED_DICE, renderScene, type DiceColour, type Scene } from './scene.ts';
import { Rng } from './random.ts';

const COLOURS: DiceColour[] = ['black', 'red', 'blue', 'green', 'yellow', 'purple', 'translucent', 'marbled', 'white', 'any'];

/**
 * 'coloured': the set above. 'close-camera': dice of any look 30–120 px across under a close webcam
 * (CLOSE_CAMERA_FOCAL), so their sides, pips and all, show towards the frame centre;
 * 1–6 dice a frame, seeds 2 500 000 000 + seed × 10 007 + i. 'crowded': the coloured set's dice, 13–25 a
 * frame (as many as the real trays of ../shared/docs/dice-data.md hold; training draws at most 12), a die
 * shrunk where the tray cannot hold it at the drawn size; seeds 3 000 000 000 + seed × 10 007 + i.
 */
export type SyntheticSetKind = 'coloured' | 'close-camera' | 'crowded';

const SEED_BASE: Record<SyntheticSetKind, number> = { coloured: 2_000_000_000, 'close-camera': 2_500_000_000, crowded: 3_000_000_000 };

/** Scene `i` of the set of `seed` and `kind`: what `writeSyntheticSet` draws and labels, and the JPEG quality it saves it at. */
export function syntheticSetScene(i: number, seed: number, kind: SyntheticSetKind = 'coloured'): { scene: Scene; jpegQuality: number } {
  const close = kind === 'close-camera';
  const sceneSeed = SEED_BASE[kind] + seed * 10_007 + i;
  const rng = new Rng(sceneSeed);
  const width = 640;
  const height = 480;
  const [fewest, most] = close ? [1, 6] : kind === 'crowded' ? CROWDED_DICE : [1, 12];
  const faces = Array.from({ length: rng.int(fewest, most) }, () => rng.int(1, 6));
  const colour = rng.pick(COLOURS);
  const scene = close
    ? renderScene({ width, height, faces, seed: sceneSeed, mode: 'test', colour, dieSize: rng.range(30, 120), focal: rng.range(...CLOSE_CAMERA_FOCAL) })
    : renderScene({ width, height, faces, seed: sceneSeed, mode: 'test', colour, dieSize: rng.range(20, 70) });
  return { scene, jpegQuality: rng.int(60, 92) };
}

export async function writeSyntheticSet(dir: string, count: number, seed: number, onImage?: (i: number) => void, kind: SyntheticSetKind = 'coloured'): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'classes.txt'), ['One', 'Two', 'Three', 'Four', 'Five', 'Six'].join('\n') + '\n');
  for (let i = 0; i < count; i++) {
    const { scene, jpegQuality } = syntheticSetScene(i, seed, kind);
    const { width, height } = scene.image;
    const jpeg = await scene.image.toJpeg(jpegQuality);
    const name = `synthetic_${String(i).padStart(4, '0')}`;
    await writeFile(join(dir, `${name}.jpg`), jpeg);
    const lines = scene.dice.map((d) => `${d.face - 1} ${(d.x / width).toFixed(6)} ${(d.y / height).toFixed(6)} ${(d.w / width).toFixed(6)} ${(d.h / height).toFixed(6)}`);
    await writeFile(join(dir, `${name}.txt`), lines.join('\n') + (lines.length ? '\n' : ''));
    onImage?.(i);
  }
}
