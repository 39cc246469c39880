/** Saving and loading the two Layers models as model.json + weights.bin (no tfjs-node, no fetch). */
import type { TaughtPhotos } from '../hardware/ports.ts';
import * as tf from '@tensorflow/tfjs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VisionModelError } from './errors.ts';
import { writeModelName } from './model-name.ts';
import { classifierInputOf, MODEL_SPEC, specFor, type ClassifierInput, type ModelSpec } from './spec.ts';

/** models/ at the repository root. */
export const DEFAULT_MODEL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'models');

export async function saveLayersModel(model: tf.LayersModel, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await model.save(
    tf.io.withSaveHandler(async (artifacts) => {
      if (!artifacts.weightData || !artifacts.weightSpecs) throw new Error('model has no weights to save');
      const weights = Buffer.from(tf.io.concatenateArrayBuffers([artifacts.weightData].flat() as ArrayBuffer[]));
      const manifest = {
        format: 'layers-model',
        generatedBy: `TensorFlow.js ${tf.version_core}`,
        modelTopology: artifacts.modelTopology,
        weightsManifest: [{ paths: ['weights.bin'], weights: artifacts.weightSpecs }],
      };
      await writeFile(join(dir, 'model.json'), JSON.stringify(manifest));
      await writeFile(join(dir, 'weights.bin'), weights);
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON', weightDataBytes: weights.length } };
    }),
  );
}

export async function loadLayersModel(dir: string): Promise<tf.LayersModel> {
  let manifest: { modelTopology: object; weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[] };
  let weights: Buffer;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8'));
    weights = await readFile(join(dir, manifest.weightsManifest[0].paths[0]));
  } catch (err) {
    throw new VisionModelError(`cannot read the model in ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const weightData = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer;
  try {
    return await tf.loadLayersModel(tf.io.fromMemory({ modelTopology: manifest.modelTopology, weightSpecs: manifest.weightsManifest[0].weights, weightData }));
  } catch (err) {
    throw new VisionModelError(`the model in ${dir} does not load: ${(err as Error).message}`, { cause: err });
  }
}

export interface ShippedSpec {
  spec: ModelSpec;
  training: Record<string, unknown>;
  /** how the classifier's crops are normalised (named by spec.classifier.normalisation) */
  classifierInput: ClassifierInput;
}

/** The classifier training runs a model's spec.json records (none for a folder without any). */
export function classifierRunsOf(shipped: ShippedSpec | null): unknown[] {
  return (shipped?.training.classifierRuns as unknown[] | undefined) ?? [];
}

/** A model's name for people: its version, and the table's dice it was taught when `npm run model:adapt` taught it some. */
export function modelName(shipped: Pick<ShippedSpec, 'spec' | 'training'>): string {
  const taught = shipped.training.tableDice as { teachPhotos?: unknown; date?: unknown } | undefined;
  if (!taught || typeof taught.teachPhotos !== 'number') return writeModelName({ version: shipped.spec.version, taughtPhotos: null, taughtOn: null });
  return writeModelName({ version: shipped.spec.version, taughtPhotos: taught.teachPhotos, taughtOn: typeof taught.date === 'string' ? taught.date.slice(0, 10) : null });
}

/** The photos `npm run model:adapt` taught a model, where its spec records them. */
export function taughtPhotosOf(shipped: Pick<ShippedSpec, 'training'>): TaughtPhotos | null {
  const taught = shipped.training.tableDice as { photos?: unknown; taught?: unknown } | undefined;
  if (!taught || typeof taught.photos !== 'string' || !Array.isArray(taught.taught)) return null;
  return { folder: taught.photos, photos: taught.taught.filter((p): p is string => typeof p === 'string') };
}

/** The check model:adapt ran on the photos kept back, before and after teaching (its JSON summary). */
export interface CheckFigures {
  photos: number;
  dice: number;
  faceAccuracy: number;
  recall: number;
  precision: number;
  extra: number;
}

/** The photos kept back a taught model was checked on, as model:adapt records them in its spec (null: none recorded). */
export function taughtCheckOf(shipped: Pick<ShippedSpec, 'training'>): { before: CheckFigures; after: CheckFigures } | null {
  const check = (shipped.training.tableDice as { check?: { before?: unknown; after?: unknown } } | undefined)?.check;
  const figures = (v: unknown): CheckFigures | null => {
    const o = v as Record<string, unknown> | null;
    const keys = ['photos', 'dice', 'faceAccuracy', 'recall', 'precision', 'extra'] as const;
    if (typeof o !== 'object' || o === null || !keys.every((k) => typeof o[k] === 'number' && Number.isFinite(o[k]))) return null;
    return Object.fromEntries(keys.map((k) => [k, o[k]])) as unknown as CheckFigures;
  };
  const before = figures(check?.before);
  const after = figures(check?.after);
  return before && after ? { before, after } : null;
}

export async function writeSpec(modelDir: string, training: Record<string, unknown>, classifierInput: ClassifierInput): Promise<void> {
  await writeFile(join(modelDir, 'spec.json'), JSON.stringify({ spec: specFor(classifierInput), training }, null, 2) + '\n');
}

/**
 * The spec with what need not match the code's masked out: the classifier's normalisation (checked on
 * its own: any known input) and, for a training run continuing the model, the version and the detector's
 * input size (it is fully convolutional).
 */
function comparable(spec: ModelSpec, forContinuing: boolean): unknown {
  const classifier = { ...spec.classifier, normalisation: undefined };
  if (!forContinuing) return { ...spec, classifier };
  return { ...spec, version: undefined, detector: { ...spec.detector, inputWidth: undefined, inputHeight: undefined }, classifier };
}

/**
 * Reads models/spec.json and checks it matches the preprocessing this code does, naming the classifier
 * input it declares. `forContinuing`: a training run continuing the model also accepts another version
 * and detector input size.
 */
export async function readSpec(modelDir: string, forContinuing = false): Promise<ShippedSpec> {
  let shipped: Omit<ShippedSpec, 'classifierInput'>;
  try {
    shipped = JSON.parse(await readFile(join(modelDir, 'spec.json'), 'utf8'));
  } catch (err) {
    throw new VisionModelError(`cannot read ${join(modelDir, 'spec.json')}: ${(err as Error).message}`, { cause: err });
  }
  const classifierInput = shipped.spec ? classifierInputOf(shipped.spec) : null;
  if (classifierInput === null || JSON.stringify(comparable(shipped.spec, forContinuing)) !== JSON.stringify(comparable(MODEL_SPEC, forContinuing))) {
    throw new VisionModelError(`model spec ${shipped.spec?.version} in ${modelDir} differs from the code's spec ${MODEL_SPEC.version}: retrain (npm run model:train)`);
  }
  return { ...shipped, classifierInput };
}
