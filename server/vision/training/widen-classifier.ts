/**
 * A trained classifier grown into a wider architecture without changing what it computes (Net2WiderNet,
 * Chen et al. 2016): each new unit of a layer is a copy of one of its old units, and the next layer's
 * weights from a unit and its copies are split among them, so the wider network starts with the trained
 * one's answers and then has room to learn more. A little noise on the copies lets them grow apart.
 */
import * as tf from '@tensorflow/tfjs';
import { buildClassifier, CLASSIFIER_ARCHITECTURES, CLASSIFIER_WIDTH_LAYERS, type ClassifierArchitecture } from '../architecture.ts';
import type { Rng } from '../../synth/random.ts';

/** Unit j of the wider layer copies unit `from[j]` of the old one; `copies[i]` counts the units copying i. */
interface UnitMap {
  from: number[];
  copies: number[];
}

function unitMap(oldUnits: number, newUnits: number, rng: Rng): UnitMap {
  const from = Array.from({ length: newUnits }, (_, j) => (j < oldUnits ? j : rng.int(0, oldUnits - 1)));
  const copies = new Array<number>(oldUnits).fill(0);
  for (const i of from) copies[i]++;
  return { from, copies };
}

/**
 * `values` (row-major, `shape`) with its last axis remapped by `outMap` and its second-to-last by
 * `inMap` (each input row divided by its unit's number of copies); `inGroups` > 1 when the input axis
 * is a flattened [positions, channels] whose channels are remapped.
 */
function remap(values: Float32Array, shape: number[], inMap: UnitMap | null, outMap: UnitMap | null, inGroups = 1): { values: Float32Array; shape: number[] } {
  const outOld = shape[shape.length - 1];
  const inOld = shape.length > 1 ? shape[shape.length - 2] : 1;
  const lead = shape.slice(0, -2).reduce((a, b) => a * b, 1);
  const chOld = inOld / inGroups;
  const chNew = inMap ? inMap.from.length : chOld;
  const inNew = chNew * inGroups;
  const outNew = outMap ? outMap.from.length : outOld;
  const out = new Float32Array(lead * inNew * outNew);
  for (let l = 0; l < lead; l++) {
    for (let g = 0; g < inGroups; g++) {
      for (let c = 0; c < chNew; c++) {
        const cOld = inMap ? inMap.from[c] : c;
        const scale = inMap ? 1 / inMap.copies[cOld] : 1;
        const rowOld = (l * inOld + g * chOld + cOld) * outOld;
        const rowNew = (l * inNew + g * chNew + c) * outNew;
        for (let o = 0; o < outNew; o++) out[rowNew + o] = values[rowOld + (outMap ? outMap.from[o] : o)] * scale;
      }
    }
  }
  const newShape = shape.length > 1 ? [...shape.slice(0, -2), inNew, outNew] : [outNew];
  return { values: out, shape: newShape };
}

/**
 * A classifier of architecture `to` computing what `trained` computes, up to `noise` × each kernel's
 * spread added to the copied units' incoming weights. `trained` must be narrower or as wide in every layer.
 */
export function widenClassifier(trained: tf.LayersModel, to: ClassifierArchitecture, rng: Rng, noise = 0.01): tf.LayersModel {
  const wide = buildClassifier(to);
  const { convs, dense } = CLASSIFIER_ARCHITECTURES[to];
  const newUnits = [...convs, dense];
  let inMap: UnitMap | null = null;
  // each width layer in turn, then 'probs', which only has its input remapped
  for (let k = 0; k <= CLASSIFIER_WIDTH_LAYERS.length; k++) {
    const name = k < CLASSIFIER_WIDTH_LAYERS.length ? CLASSIFIER_WIDTH_LAYERS[k] : 'probs';
    const [kernel, bias] = trained.getLayer(name).getWeights();
    const oldUnits = kernel.shape[kernel.shape.length - 1];
    if (k < CLASSIFIER_WIDTH_LAYERS.length && newUnits[k] < oldUnits) throw new Error(`a classifier cannot be narrowed: layer ${name} has ${oldUnits} units, ${to} has ${newUnits[k]}`);
    const outMap = k < CLASSIFIER_WIDTH_LAYERS.length ? unitMap(oldUnits, newUnits[k], rng) : null;
    // fc reads the flattened [6, 6, k4 channels]: its input rows are grouped by position
    const inGroups = name === 'fc' && inMap ? kernel.shape[0] / inMap.copies.length : 1;
    const k2 = remap(kernel.dataSync() as Float32Array, kernel.shape, inMap, outMap, inGroups);
    const b2 = remap(bias.dataSync() as Float32Array, bias.shape, null, outMap);
    if (outMap && noise > 0) {
      const spread = Math.sqrt(k2.values.reduce((s, v) => s + v * v, 0) / k2.values.length);
      const outNew = outMap.from.length;
      for (let i = 0; i < k2.values.length; i++) if (i % outNew >= oldUnits) k2.values[i] += noise * spread * rng.normal();
    }
    const weights = [tf.tensor(k2.values, k2.shape), tf.tensor(b2.values, b2.shape)];
    wide.getLayer(name).setWeights(weights);
    tf.dispose(weights);
    inMap = outMap;
  }
  return wide;
}
