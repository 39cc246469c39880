import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../server/vision/backend.ts';
import { registerWasmTrainingKernels } from '../../server/vision/wasm-training-kernels.ts';
import { buildClassifier } from '../../server/vision/architecture.ts';
import { PIP_GRID, pipMap } from '../../server/vision/training/pip-map.ts';
import { syntheticSample, type FrameSample } from '../../server/vision/training/samples.ts';
import { augmentGrid, classifierExamples, trainClassifier } from '../../server/vision/training/train.ts';
import { MODEL_SPEC } from '../../server/vision/spec.ts';
import { Rng } from '../../server/synth/random.ts';

const { cropSize: CS, cropScale } = MODEL_SPEC.classifier;

function argMax(a: Float32Array): number {
  let best = 0;
  for (let i = 1; i < a.length; i++) if (a[i] > a[best]) best = i;
  return best;
}

let scene: FrameSample;

beforeAll(async () => {
  await initBackend('wasm');
  registerWasmTrainingKernels();
  scene = await syntheticSample(11);
});

describe('pip map', () => {
  it('peaks in the cell under a pip and is empty where no pip lies', () => {
    const crop = { x: 200, y: 100, size: 40 };
    const side = crop.size * cropScale;
    // a pip a quarter of the crop right of and below its centre lies in crop pixel 35.25
    const map = pipMap(crop, [[crop.x + side / 4, crop.y + side / 4]])!;
    expect(map).toHaveLength(PIP_GRID * PIP_GRID);
    const cell = Math.floor(35.25 / (CS / PIP_GRID));
    expect(argMax(map)).toBe(cell * PIP_GRID + cell);
    // the cell's centre (33.5) is 1.75 px off the pip along each axis
    expect(map[cell * PIP_GRID + cell]).toBeCloseTo(Math.exp(-(2 * 1.75 ** 2) / 8), 5);
    expect(map[0]).toBeLessThan(1e-6);
    const far = pipMap(crop, [[crop.x + side * 2, crop.y]])!;
    expect(Math.max(...far)).toBe(0);
  });

  it('is unknown where a die whose pips are not labelled reaches into the crop', () => {
    const crop = { x: 200, y: 100, size: 40 };
    expect(pipMap(crop, [], [{ x: 240, y: 100, size: 40 }])).toBeNull();
    expect(pipMap(crop, [], [{ x: 400, y: 100, size: 40 }])).not.toBeNull();
  });

  it('turns and mirrors with its crop', () => {
    const crop = new Float32Array(CS * CS * 3);
    const [u, v] = [37, 9];
    crop.fill(1, (v * CS + u) * 3, (v * CS + u) * 3 + 3);
    const map = new Float32Array(PIP_GRID * PIP_GRID);
    const cell = CS / PIP_GRID;
    map[Math.floor(v / cell) * PIP_GRID + Math.floor(u / cell)] = 1;
    for (const flip of [false, true]) {
      for (let rot = 0; rot < 4; rot++) {
        const turnedCrop = new Float32Array(crop.length);
        const turnedMap = new Float32Array(map.length);
        augmentGrid(crop, turnedCrop, rot, flip);
        augmentGrid(map, turnedMap, rot, flip, PIP_GRID, 1);
        const pixel = argMax(turnedCrop) / 3;
        const [x, y] = [pixel % CS, Math.floor(pixel / CS)];
        expect(argMax(turnedMap)).toBe(Math.floor(y / cell) * PIP_GRID + Math.floor(x / cell));
      }
    }
  });

  it('comes with the crops of readable synthetic dice, not with real photos', () => {
    const sizes = scene.dice.map((d) => d.size ?? 30);
    const examples = classifierExamples(scene, 'rgb', sizes, new Rng(5), 2, 2, 0, 0.12, true);
    const readable = scene.dice.filter((d) => d.cls <= 5).length;
    expect(readable).toBeGreaterThan(0);
    const dieCrops = examples.filter((e) => e.cls <= 5);
    expect(dieCrops.length).toBe(readable * 2);
    // every crop of a readable die that no unreadable die reaches holds its own pips
    for (const e of dieCrops) if (e.pips) expect(Math.max(...e.pips)).toBeGreaterThan(Math.exp(-1) - 1e-6); // a cell centre is at most 2 px off a pip along each axis
    expect(dieCrops.some((e) => e.pips)).toBe(true);
    const real: FrameSample = { ...scene, source: 'real', dice: scene.dice.map(({ pips: _pips, ...d }) => d) };
    expect(classifierExamples(real, 'rgb', sizes, new Rng(5), 2, 2, 0, 0.12, true).every((e) => e.pips === undefined)).toBe(true);
    expect(classifierExamples(scene, 'rgb', sizes, new Rng(5), 2, 2).every((e) => e.pips === undefined)).toBe(true);
  });

  it('trains the classifier through a head that is not kept', async () => {
    const sizes = scene.dice.map((d) => d.size ?? 30);
    const examples = classifierExamples(scene, 'rgb', sizes, new Rng(5), 4, 4, 0, 0.12, true);
    const model = buildClassifier('small');
    const before = model.getLayer('k1').getWeights()[0].dataSync().slice();
    const infos: string[] = [];
    const trained = await trainClassifier(examples, { architecture: 'small', epochs: 1, batch: 16, learningRate: 1e-3, pipMapWeight: 1 }, new Rng(1), (_s, _d, _t, info) => infos.push(info ?? ''), model);
    expect(trained).toBe(model);
    expect(trained.layers.map((l) => l.name)).not.toContain('pipMap');
    expect(trained.outputs).toHaveLength(1);
    const after = trained.getLayer('k1').getWeights()[0].dataSync();
    expect(after.some((w, i) => w !== before[i])).toBe(true);
    expect(infos.at(-1)).toMatch(/acc \d\.\d{3} pips \d\.\d{3}/);
    trained.dispose();
  });
});
