/**
 * How the reader handles dice cut by the frame edge: renders training-style synthetic scenes (where
 * some dice are cut, labelled unreadable only when a pip of the top face is cut), reads them, and
 * tallies every cut die by its truth, how far it reaches beyond the frame (× top-face size) and what
 * the reader said. `npx tsx scripts/edge-check.ts [--model DIR] [--scenes N] [--edge X]`
 * (scene seeds 900000+, never used in training).
 */
import { parseArgs } from 'node:util';
import { renderScene } from '../server/synth/scene.ts';
import { Rng } from '../server/synth/random.ts';
import { createDiceReader } from '../server/vision/index.ts';
import { beyondFrame } from '../server/vision/decide.ts';
import { matchImage } from '../server/vision/scoring.ts';

const { values } = parseArgs({ options: { model: { type: 'string' }, scenes: { type: 'string', default: '400' }, edge: { type: 'string' } } });
const scenes = Number(values.scenes);
if (!Number.isInteger(scenes) || scenes <= 0) throw new Error(`--scenes must be a positive integer, got "${values.scenes}"`);
const edge = values.edge === undefined ? undefined : Number(values.edge);
if (edge !== undefined && !(edge >= 0)) throw new Error(`--edge must be a number ≥ 0, got "${values.edge}"`);

const reader = await createDiceReader({ modelDir: values.model, thresholds: edge === undefined ? {} : { edge } });
const W = 640;
const H = 480;
const tally = new Map<string, number>();
for (let s = 0; s < scenes; s++) {
  const seed = 900000 + s;
  const rng = new Rng(seed);
  const faces = Array.from({ length: rng.int(3, 10) }, () => rng.int(1, 6));
  const scene = renderScene({ width: W, height: H, faces, seed, mode: 'train' });
  const jpeg = await scene.image.toJpeg(85);
  const { dice: seen } = await reader.read(jpeg);
  // matched as dice:eval matches, over every die of the scene, so a cut die cannot take a neighbour's reading
  const { pairs } = matchImage(scene.dice, seen);
  const readingOf = new Map(pairs);
  scene.dice.forEach((d, i) => {
    const beyond = beyondFrame(d.x, d.y, d.size, W, H) / d.size;
    if (beyond <= 0) return;
    const truth = d.unreadable === 'edge' ? 'pip cut' : d.unreadable ?? 'all pips in view';
    const band = beyond < 0.1 ? 'beyond < 0.1' : beyond < 0.2 ? 'beyond 0.1–0.2' : beyond < 0.3 ? 'beyond 0.2–0.3' : 'beyond ≥ 0.3';
    const matched = readingOf.get(i);
    const p = matched === undefined ? undefined : seen[matched];
    const said = !p ? 'missed' : p.face === null ? `unreadable (${p.unreadable})` : p.face === d.face ? 'right face' : 'WRONG face';
    const key = `${truth} | ${band} | ${said}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  });
}
reader.dispose();
console.log('truth | how far beyond the frame | reader said | dice');
for (const k of [...tally.keys()].sort()) console.log(`${k} | ${tally.get(k)}`);
