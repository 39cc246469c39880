import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDiceReader, type VisionDiceReader } from '../../server/vision/reader.ts';
import { DEFAULT_MODEL_DIR, loadLayersModel, readSpec, saveLayersModel, writeSpec } from '../../server/vision/model-store.ts';
import { refitClassifierInput } from '../../server/vision/architecture.ts';
import { matchImage } from '../../server/vision/scoring.ts';
import { syntheticSetScene } from '../../server/synth/test-set.ts';

const FRAMES = 40;
const SEED = 9;
const work = await mkdtemp(join(tmpdir(), 'classifier-input-'));

interface Read {
  face: number | null;
  score: number;
}

/** what `reader` says of each labelled die of a synthetic coloured set (null: not found) */
async function readSet(reader: VisionDiceReader): Promise<(Read | null)[]> {
  const out: (Read | null)[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const { scene } = syntheticSetScene(i, SEED);
    const seen = (await reader.read(await scene.image.toJpeg(90))).dice;
    const labels = scene.dice.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face }));
    const found = new Map(matchImage(labels, seen).pairs);
    labels.forEach((_, li) => {
      const pi = found.get(li);
      out.push(pi === undefined ? null : { face: seen[pi].face, score: seen[pi].score });
    });
  }
  return out;
}

/** mean difference in score between two readings of the same dice (a die found by one only counts 1) */
function scoreDistance(a: (Read | null)[], b: (Read | null)[]): number {
  return a.reduce((sum, r, i) => sum + (r && b[i] ? Math.abs(r.score - b[i]!.score) + (r.face === b[i]!.face ? 0 : 1) : r || b[i] ? 1 : 0), 0) / a.length;
}

describe('a model whose spec.json names the lightness-colour input', () => {
  const readers: Record<'shipped' | 'moved' | 'movedReadAsRgb', VisionDiceReader | null> = { shipped: null, moved: null, movedReadAsRgb: null };

  beforeAll(async () => {
    // the shipped classifier moved to the new input (no training): it should read much as before, but only from lightness-colour crops
    const moved = join(work, 'moved');
    await cp(DEFAULT_MODEL_DIR, moved, { recursive: true });
    const classifier = await loadLayersModel(join(DEFAULT_MODEL_DIR, 'classifier'));
    refitClassifierInput(classifier, 'rgb', 'lightness-colour');
    await saveLayersModel(classifier, join(moved, 'classifier'));
    classifier.dispose();
    await writeSpec(moved, (await readSpec(DEFAULT_MODEL_DIR)).training, 'lightness-colour');
    const misnamed = join(work, 'misnamed');
    await cp(moved, misnamed, { recursive: true });
    await cp(join(DEFAULT_MODEL_DIR, 'spec.json'), join(misnamed, 'spec.json'));
    readers.shipped = await createDiceReader();
    readers.moved = await createDiceReader({ modelDir: moved });
    readers.movedReadAsRgb = await createDiceReader({ modelDir: misnamed });
  }, 60_000);

  afterAll(async () => {
    for (const r of Object.values(readers)) r?.dispose();
    await rm(work, { recursive: true, force: true });
  });

  it('is read with the crops it names: the moved classifier answers close to the shipped one, and far from it fed rgb crops', async () => {
    const shipped = await readSet(readers.shipped!);
    const moved = scoreDistance(shipped, await readSet(readers.moved!));
    const misread = scoreDistance(shipped, await readSet(readers.movedReadAsRgb!));
    expect(misread).toBeGreaterThan(2 * moved);
  }, 120_000);
});
