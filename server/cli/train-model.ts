/**
 * `npm run model:train [-- --seed N --quick --scenes N --detector-steps N --classifier-epochs N --out DIR --no-real --backend wasm|cpu
 *   --stage all|detector|classifier --continue --focus F --detector-lr X --classifier-lr X --crop-at-detected --hard-negatives
 *   --classifier-arch small|wide --detector-arch plain|context --real-per-die N --close-camera F --hard-looks F --marbled F --faint-pips F --closer-look-windows F --centre-jitter J --pip-negatives W
 *   --detector-negatives W --crowded F --classifier-input rgb|lightness-colour --pip-map W --hard-crops K --light-casts F]`
 * Reruns the whole training (synthetic scenes + ../shared/datasets/webcam-white-dice/train) and writes
 * the detector, the classifier and spec.json into models/ (or --out). Real labels known wrong
 * (server/vision/training/label-errata.ts) are left out. `--stage detector|classifier`
 * retrains one network and keeps the other one in --out; `--continue` starts from the one in --out.
 * `--focus F` makes that share of the synthetic scenes small dice of the hard looks (dark, translucent,
 * marbled, coloured). `--crop-at-detected` cuts synthetic classifier crops at the size the detector in
 * --out predicts (as inference does) instead of the true size. `--hard-negatives` adds "not a die" crops
 * where the detector in --out finds a peak that no labelled die explains (side faces, stickers).
 * `--detector-arch context` trains (or grows a continued plain detector into) the detector with a
 * stride-16 context branch; a continued detector keeps its own architecture unless this is given, and is
 * refitted to the spec's input size.
 * `--real-per-die N` cuts N jittered classifier crops of each real die (default 5; more weighs the real photos more).
 * `--close-camera F` shows that share of the synthetic scenes through a webcam's perspective (the dice's
 * sides, pips and all, show towards the frame centre, half a die deep or more near the frame's edges).
 * `--hard-looks F` draws that share of the other (not focus) scenes in the hard looks at every size
 * (20–120 px), so big marbled, translucent and dark dice are seen as often as small ones.
 * `--marbled F` makes that share of the focus and hard-look scenes all marbled (two colours, pips of any colour);
 * `--faint-pips F` gives that share of those marbled scenes the pips that show least on their swirls.
 * `--crowded F` fills that share of the scenes (of any kind) with 13–25 dice of 20–70 px, as full as the
 * real trays the model is measured on (the other scenes hold 0–12).
 * `--occluders F` lays a fingertip, a pencil or a card's corner over dice in that share of the scenes (of any
 * kind); a die it hides a pip of is taught as unreadable (server/synth/occluder.ts).
 * `--leaning F` adds one to three dice leaning on a die or against the tray wall to that share of the scenes
 * (of any kind), taught as unreadable (server/synth/leaning.ts), beside the leaning dice training scenes
 * always draw (on another die, tilted any way).
 * `--centre-jitter J` cuts the synthetic and real classifier crops of a die up to J × its size off its centre
 * along each axis (default 0.12; a first look misplaces doubtful dice by a median 0.09–0.16 × size).
 * `--pip-negatives W` weighs W times the detector's "no die here" loss around the pips of synthetic dice that
 * lie away from the die's centre (every pip but the middle one of a 1, 3 or 5; default 1).
 * `--detector-negatives W` (with `--stage detector --continue`) weighs W times the "no die" loss around the peaks
 * that the detector in --out finds in a scene and no labelled die explains (side faces, shadows), as
 * `--hard-negatives` does for the classifier.
 * `--closer-look-windows F` adds, for that share of the scenes, a detector example of the window a closer
 * look would take around one of its small dice (server/vision/closer-look.ts), at the closer look's input.
 * `--classifier-input NAME` normalises the classifier's crops as server/vision/spec.ts's CLASSIFIER_INPUTS
 * names (default: the model in --out's, or rgb); a continued rgb classifier given lightness-colour has its
 * first convolution's kernels recombined for the new input before it trains.
 * `--pip-map W` adds W × a pip-map loss to the classifier's: a training-only head on its k3 features is
 * taught where the top-face pips of the synthetic crops lie (server/vision/training/pip-map.ts).
 * `--classifier-arch wide` with `--stage classifier --continue` on a small classifier widens it first, keeping
 * its answers (server/vision/training/widen-classifier.ts), and then trains the wider one.
 * `--hard-crops K` (with `--stage classifier --continue`) adds K more copies of every training crop the
 * continued classifier gives less than even odds of its own class (server/vision/training/hard-crops.ts).
 * `--light-casts F` adds, for that share of the real training photos, a copy in a random room light (warm to
 * cool, dim to bright: server/vision/training/light-cast.ts), for both networks; `--light-range narrow|wide`
 * names the range drawn from (default narrow, as dice models 1.17.0 to 1.21.0 were taught).
 * `--recolours F` adds, for that share of the real training photos, a copy recoloured by lightness into
 * dice of another colour (black, red, green, yellow or purple, pips contrasting; blue left out to check
 * with: server/vision/training/recolour.ts), for both networks.
 * `--marbled-recolours F` adds, for that share of the real training photos, a copy whose dice are made
 * marbled (two swirled colours, pips showing on both: server/vision/training/marbled-recolour.ts), for
 * both networks.
 */
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { initBackend, type BackendName } from '../vision/backend.ts';
import { registerWasmTrainingKernels } from '../vision/wasm-training-kernels.ts';
import { classifierRunsOf, DEFAULT_MODEL_DIR, loadLayersModel, readSpec, saveLayersModel, writeSpec } from '../vision/model-store.ts';
import { readYoloFolder, sharedDir } from '../vision/yolo-dataset.ts';
import { realSample, syntheticSample, type FrameSample } from '../vision/training/samples.ts';
import { withoutErrata } from '../vision/training/label-errata.ts';
import { hardCropCopies } from '../vision/training/hard-crops.ts';
import { drawLightCast, isLightCastRange, LIGHT_CAST_RANGES, withLightCast } from '../vision/training/light-cast.ts';
import { drawRecolour, withRecolour } from '../vision/training/recolour.ts';
import { drawMarbledRecolour, withMarbledRecolour } from '../vision/training/marbled-recolour.ts';
import {
  CENTRE_JITTER,
  classifierExamples,
  closerLookTrainingWindow,
  detectedSizes,
  detectorExample,
  falsePeaks,
  negativeExamples,
  trainClassifier,
  trainDetector,
  type ClassifierExample,
  type DetectorExample,
} from '../vision/training/train.ts';
import { seedTensorFlowRandom } from '../vision/training/seeded-random.ts';
import { Rng } from '../synth/random.ts';
import { widenClassifier } from '../vision/training/widen-classifier.ts';
import { progressBar } from './progress.ts';
import { reportCliFailure, UsageError, wantsHelp } from './cli-failure.ts';
import { VisionModelError } from '../vision/errors.ts';
import { READER_DEFAULTS } from '../vision/reader.ts';
import { buildDetector, CLASSIFIER_ARCHITECTURES, classifierArchitectureOf, DETECTOR_ARCHITECTURES, detectorArchitectureOf, isClassifierArchitecture, isDetectorArchitecture, refitClassifierInput, refitDetector } from '../vision/architecture.ts';
import { CLASSIFIER_INPUTS, isClassifierInput, type ClassifierInput } from '../vision/spec.ts';
import type * as tf from '@tensorflow/tfjs';

const USAGE = `usage: npm run model:train -- [--out DIR] [--seed N] [--quick] [--scenes N] [--no-real] [--backend wasm|cpu]
  [--stage all|detector|classifier] [--continue] [--detector-steps N] [--classifier-epochs N]
  [--detector-lr X] [--classifier-lr X] [--focus F] [--close-camera F] [--hard-looks F] [--marbled F] [--faint-pips F]
  [--crowded F] [--crop-at-detected] [--hard-negatives] [--real-per-die N] [--centre-jitter J]
  [--classifier-arch small|wide] [--detector-arch plain|context] [--closer-look-windows F] [--pip-negatives W] [--detector-negatives W]
  [--classifier-input rgb|lightness-colour] [--pip-map W] [--hard-crops K] [--light-casts F] [--light-range narrow|wide] [--recolours F] [--marbled-recolours F] [--occluders F] [--leaning F]
(each flag is explained at the top of server/cli/train-model.ts and in models/README.md)`;

/** every peak the reader would classify */
const HARD_NEGATIVE_THRESHOLD = READER_DEFAULTS.detectThreshold;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function positiveNumber(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, got "${v}"`);
  return n;
}

function fraction(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--${name} must be a number from 0 to 1, got "${v}"`);
  return n;
}

function positiveInt(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer, got "${v}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      quick: { type: 'boolean', default: false },
      scenes: { type: 'string' },
      'detector-steps': { type: 'string' },
      'classifier-epochs': { type: 'string' },
      out: { type: 'string' },
      'no-real': { type: 'boolean', default: false },
      backend: { type: 'string' },
      stage: { type: 'string', default: 'all' },
      continue: { type: 'boolean', default: false },
      focus: { type: 'string', default: '0' },
      'detector-lr': { type: 'string' },
      'classifier-lr': { type: 'string' },
      'crop-at-detected': { type: 'boolean', default: false },
      'hard-negatives': { type: 'boolean', default: false },
      'classifier-arch': { type: 'string' },
      'detector-arch': { type: 'string' },
      'real-per-die': { type: 'string' },
      'centre-jitter': { type: 'string' },
      'pip-negatives': { type: 'string' },
      'detector-negatives': { type: 'string' },
      'close-camera': { type: 'string', default: '0' },
      'hard-looks': { type: 'string', default: '0' },
      marbled: { type: 'string', default: '0' },
      'faint-pips': { type: 'string', default: '0' },
      crowded: { type: 'string', default: '0' },
      occluders: { type: 'string', default: '0' },
      leaning: { type: 'string', default: '0' },
      'closer-look-windows': { type: 'string', default: '0' },
      'classifier-input': { type: 'string' },
      'pip-map': { type: 'string' },
      'hard-crops': { type: 'string' },
      'light-casts': { type: 'string', default: '0' },
      'light-range': { type: 'string', default: 'narrow' },
      recolours: { type: 'string', default: '0' },
      'marbled-recolours': { type: 'string', default: '0' },
    },
  });
  const seed = positiveInt(values.seed, 'seed', 1);
  const quick = values.quick ?? false;
  const scenes = positiveInt(values.scenes, 'scenes', quick ? 40 : 700);
  const synthPerDie = 2;
  const realPerDie = positiveInt(values['real-per-die'], 'real-per-die', 5);
  const centreJitter = positiveNumber(values['centre-jitter'], 'centre-jitter', CENTRE_JITTER);
  const pipNegatives = positiveNumber(values['pip-negatives'], 'pip-negatives', 1);
  if (pipNegatives < 1) throw new UsageError(`--pip-negatives must be a weight of 1 or more, got ${pipNegatives}`);
  if (centreJitter >= 0.5) throw new UsageError(`--centre-jitter must be under 0.5 (a crop further off is another die's or none), got ${centreJitter}`);
  const detSteps = positiveInt(values['detector-steps'], 'detector-steps', quick ? 20 : 700);
  const clsEpochs = positiveInt(values['classifier-epochs'], 'classifier-epochs', quick ? 1 : 5);
  const out = resolve(values.out ?? DEFAULT_MODEL_DIR);
  const stage = values.stage;
  if (stage !== 'all' && stage !== 'detector' && stage !== 'classifier') throw new UsageError('--stage must be all, detector or classifier');
  const focus = fraction(values.focus, 'focus', 0);
  const closeCamera = fraction(values['close-camera'], 'close-camera', 0);
  const hardLooks = fraction(values['hard-looks'], 'hard-looks', 0);
  const marbledShare = fraction(values.marbled, 'marbled', 0);
  if (marbledShare > 0 && focus === 0 && hardLooks === 0) throw new UsageError('--marbled is a share of the focus and hard-look scenes: it needs --focus or --hard-looks');
  const faintPipShare = fraction(values['faint-pips'], 'faint-pips', 0);
  if (faintPipShare > 0 && marbledShare === 0) throw new UsageError('--faint-pips is a share of the marbled scenes: it needs --marbled');
  const crowded = fraction(values.crowded, 'crowded', 0);
  const occluders = fraction(values.occluders, 'occluders', 0);
  const leaningShare = fraction(values.leaning, 'leaning', 0);
  const lightCasts = fraction(values['light-casts'], 'light-casts', 0);
  if (lightCasts > 0 && values['no-real']) throw new UsageError('--light-casts copies real photos in other light: it cannot go with --no-real');
  const lightRangeName = values['light-range'];
  if (!isLightCastRange(lightRangeName)) throw new UsageError(`--light-range must be one of ${Object.keys(LIGHT_CAST_RANGES).join(', ')}, got ${lightRangeName}`);
  if (lightRangeName !== 'narrow' && lightCasts === 0) throw new UsageError('--light-range names the light of --light-casts: it needs --light-casts');
  const lightRange = LIGHT_CAST_RANGES[lightRangeName];
  const recolours = fraction(values.recolours, 'recolours', 0);
  if (recolours > 0 && values['no-real']) throw new UsageError('--recolours copies real photos in other colours: it cannot go with --no-real');
  const marbledRecolours = fraction(values['marbled-recolours'], 'marbled-recolours', 0);
  if (marbledRecolours > 0 && values['no-real']) throw new UsageError('--marbled-recolours copies real photos with marbled dice: it cannot go with --no-real');
  const closerLookWindows = fraction(values['closer-look-windows'], 'closer-look-windows', 0);
  if (closerLookWindows > 0 && stage === 'classifier') throw new UsageError('--closer-look-windows trains the detector: it needs --stage detector or all');
  const detectorNegatives = positiveNumber(values['detector-negatives'], 'detector-negatives', 1);
  if (detectorNegatives < 1) throw new UsageError(`--detector-negatives must be a weight of 1 or more, got ${detectorNegatives}`);
  if (values['detector-negatives'] !== undefined && (stage !== 'detector' || !values.continue)) {
    throw new UsageError('--detector-negatives weighs the false peaks of the detector in --out: it needs --stage detector --continue');
  }
  if (values['pip-negatives'] !== undefined && stage === 'classifier') throw new UsageError('--pip-negatives trains the detector: it needs --stage detector or all');
  if (values['centre-jitter'] !== undefined && stage === 'detector') throw new UsageError('--centre-jitter shapes the classifier\'s crops: it needs --stage all or classifier');
  const resumeOk = stage !== 'all' || !values.continue;
  if (!resumeOk) throw new UsageError('--continue needs --stage detector or --stage classifier');
  const trainDet = stage !== 'classifier';
  const trainCls = stage !== 'detector';
  const cropAtDetected = values['crop-at-detected'] ?? false;
  const detLrArg = positiveNumber(values['detector-lr'], 'detector-lr', 0);
  const clsLrArg = positiveNumber(values['classifier-lr'], 'classifier-lr', 0);
  if (cropAtDetected && stage !== 'classifier') throw new UsageError('--crop-at-detected needs --stage classifier (the detector in --out cuts the crops)');
  const hardNegatives = values['hard-negatives'] ?? false;
  if (hardNegatives && stage !== 'classifier') throw new UsageError('--hard-negatives needs --stage classifier (the detector in --out finds them)');
  const classifierArchArg = values['classifier-arch'];
  const classifierArch = classifierArchArg ?? 'small';
  if (!isClassifierArchitecture(classifierArch)) throw new UsageError(`--classifier-arch must be ${Object.keys(CLASSIFIER_ARCHITECTURES).join(' or ')}`);
  const detectorArchArg = values['detector-arch'];
  if (detectorArchArg !== undefined && !isDetectorArchitecture(detectorArchArg)) throw new UsageError(`--detector-arch must be ${DETECTOR_ARCHITECTURES.join(' or ')}`);
  const classifierInputArg = values['classifier-input'];
  if (classifierInputArg !== undefined && !isClassifierInput(classifierInputArg)) throw new UsageError(`--classifier-input must be ${Object.keys(CLASSIFIER_INPUTS).join(' or ')}`);
  if (classifierInputArg !== undefined && stage === 'detector') throw new UsageError('--classifier-input shapes the classifier\'s crops: it needs --stage all or classifier');
  const pipMapWeight = positiveNumber(values['pip-map'], 'pip-map', 0);
  if (pipMapWeight > 0 && stage === 'detector') throw new UsageError('--pip-map trains the classifier: it needs --stage all or classifier');
  const hardCropCopiesWanted = positiveInt(values['hard-crops'], 'hard-crops', 0);
  if (hardCropCopiesWanted > 0 && (stage !== 'classifier' || !values.continue)) {
    throw new UsageError('--hard-crops repeats the crops the classifier in --out reads wrong: it needs --stage classifier --continue');
  }
  const backendArg = values.backend as BackendName | undefined;
  if (backendArg !== undefined && !['wasm', 'cpu'].includes(backendArg)) throw new UsageError('--backend must be wasm or cpu');

  const started = Date.now();
  const backend = await initBackend(backendArg ?? 'wasm');
  if (backend === 'wasm') registerWasmTrainingKernels();
  process.stderr.write(`training on backend ${backend}, seed ${seed}, ${scenes} synthetic scenes, output ${out}\n`);
  const progress = progressBar();
  const rng = new Rng(seed);
  seedTensorFlowRandom(seed);

  // --stage detector|classifier keeps the other network already in --out
  const previous = stage !== 'all' ? await readSpec(out, true) : null;
  const classifierInput: ClassifierInput = classifierInputArg ?? previous?.classifierInput ?? 'rgb';
  const savedDetector = stage === 'classifier' || (stage === 'detector' && values.continue) ? await loadLayersModel(join(out, 'detector')) : undefined;
  const detectorArch = detectorArchArg ?? (savedDetector ? detectorArchitectureOf(savedDetector) : 'plain');
  const keptDetector = savedDetector ? refitDetector(savedDetector, detectorArch) : undefined;
  savedDetector?.dispose();
  // --continue (with --stage classifier) starts from the classifier in --out, at a lower learning rate
  const resume = stage === 'classifier' && values.continue ? await loadLayersModel(join(out, 'classifier')) : undefined;
  if (resume) refitClassifierInput(resume, previous!.classifierInput, classifierInput);
  const resumedArch = resume ? classifierArchitectureOf(resume) : undefined;
  const widenFrom = resume && classifierArchArg !== undefined && resumedArch !== classifierArch ? resumedArch : undefined;
  if (widenFrom && CLASSIFIER_ARCHITECTURES[widenFrom].dense > CLASSIFIER_ARCHITECTURES[classifierArch].dense) {
    throw new UsageError(`--classifier-arch ${classifierArch} cannot continue the ${widenFrom} classifier in ${out}: a classifier can only be widened`);
  }
  const start = resume && widenFrom ? widenClassifier(resume, classifierArch, rng.fork()) : resume;
  if (start !== resume) resume?.dispose();

  const detData: DetectorExample[] = [];
  const detReal: DetectorExample[] = [];
  const clsData: ClassifierExample[] = [];
  let synthDice = 0;
  let focusScenes = 0;
  let closeCameraScenes = 0;
  let hardLookScenes = 0;
  let marbledScenes = 0;
  let faintPipScenes = 0;
  let crowdedScenes = 0;
  let occludedScenes = 0;
  let leaningScenes = 0;
  let detectorFalsePeaks = 0;
  let windowExamples = 0;
  let negativePeaks = 0;
  // the kept detector's unexplained peaks (side faces, stickers) become "not a die" crops
  const addHardNegatives = (detector: tf.LayersModel | undefined, s: FrameSample, perPeak: number) => {
    if (!hardNegatives || !detector) return;
    const peaks = falsePeaks(detector, s, HARD_NEGATIVE_THRESHOLD);
    negativePeaks += peaks.length;
    clsData.push(...negativeExamples(s, classifierInput, peaks, rng, perPeak));
  };
  for (let i = 0; i < scenes; i++) {
    // golden-ratio sequence: focus scenes spread evenly through the run
    const isFocus = (i * 0.6180339887) % 1 < focus;
    if (isFocus) focusScenes++;
    // plastic-number sequence: close-camera scenes spread evenly, independently of the focus scenes
    const isClose = (i * 0.7548776662 + 0.5) % 1 < closeCamera;
    if (isClose) closeCameraScenes++;
    // silver-ratio sequence, over the scenes that are not focus scenes
    const isHardLook = !isFocus && (i * 0.4142135624 + 0.25) % 1 < hardLooks;
    if (isHardLook) hardLookScenes++;
    // another irrational step (sqrt 3 - 1), so marbled scenes fall evenly among the focus and hard-look ones
    const isMarbled = (isFocus || isHardLook) && (i * 0.7320508076 + 0.125) % 1 < marbledShare;
    if (isMarbled) marbledScenes++;
    // and the golden ratio's square, so faint-pip scenes fall evenly among the marbled ones
    const isFaint = isMarbled && (i * 0.3819660113 + 0.375) % 1 < faintPipShare;
    if (isFaint) faintPipScenes++;
    // sqrt 2 / 2: crowded scenes spread evenly, independently of the others
    const isCrowded = (i * 0.7071067812 + 0.625) % 1 < crowded;
    if (isCrowded) crowdedScenes++;
    // sqrt 5 - 2: occluded scenes spread evenly, independently of the others
    const isOccluded = (i * 0.2360679775 + 0.875) % 1 < occluders;
    if (isOccluded) occludedScenes++;
    // sqrt 7 - 2: scenes with leaning dice spread evenly, independently of the others
    const isLeaning = (i * 0.6457513111 + 0.0625) % 1 < leaningShare;
    if (isLeaning) leaningScenes++;
    const s = await syntheticSample(seed * 1_000_003 + i, { focus: isFocus, closeCamera: isClose, hardLook: isHardLook, marbled: isMarbled, faintPips: isFaint, crowded: isCrowded, occluded: isOccluded, leaning: isLeaning });
    synthDice += s.dice.length;
    const ownFalsePeaks = trainDet && detectorNegatives > 1 && keptDetector ? falsePeaks(keptDetector, s, HARD_NEGATIVE_THRESHOLD) : [];
    detectorFalsePeaks += ownFalsePeaks.length;
    if (trainDet) detData.push(detectorExample(s, false, undefined, pipNegatives, { peaks: ownFalsePeaks, weight: detectorNegatives }));
    if (trainDet && closerLookWindows > 0 && rng.chance(closerLookWindows)) {
      const window = closerLookTrainingWindow(s, rng, READER_DEFAULTS.closerLook);
      if (window) {
        detData.push(detectorExample(s, false, window, pipNegatives));
        windowExamples++;
      }
    }
    if (trainCls) {
      const trueSizes = s.dice.map((d) => d.size ?? 30);
      const sizes = cropAtDetected && keptDetector ? detectedSizes(keptDetector, s, trueSizes) : trueSizes;
      clsData.push(...classifierExamples(s, classifierInput, sizes, rng, synthPerDie, 2, 0.3, centreJitter, pipMapWeight > 0));
      addHardNegatives(keptDetector, s, synthPerDie);
    }
    progress('synthetic', i + 1, scenes, `${synthDice} dice`);
  }

  const real: FrameSample[] = [];
  let lightCastPhotos = 0;
  let recolouredPhotos = 0;
  let marbledPhotos = 0;
  let realLabelsLeftOut = 0;
  const realDir = join(sharedDir(repoRoot), 'datasets', 'webcam-white-dice', 'train');
  if (!values['no-real']) {
    if (!existsSync(realDir)) throw new UsageError(`real training photos not found at ${realDir} (set FLIGHTDECK_SHARED, or pass --no-real)`);
    const { images, leftOut } = withoutErrata(await readYoloFolder(realDir));
    realLabelsLeftOut = leftOut;
    const use = quick ? images.slice(0, 20) : images;
    // streams of their own: the photos' other draws are those of a run without casts or recolours
    const castRng = new Rng(seed * 29 + 11);
    const recolourRng = new Rng(seed * 31 + 7);
    const marbledRng = new Rng(seed * 37 + 13);
    for (let i = 0; i < use.length; i++) {
      const photo = await realSample(use[i]);
      const copies = castRng.chance(lightCasts) ? [photo, withLightCast(photo, drawLightCast(castRng, lightRange))] : [photo];
      lightCastPhotos += copies.length - 1;
      if (recolourRng.chance(recolours)) {
        copies.push(withRecolour(photo, drawRecolour(recolourRng)));
        recolouredPhotos++;
      }
      if (marbledRng.chance(marbledRecolours)) {
        copies.push(withMarbledRecolour(photo, drawMarbledRecolour(marbledRng, photo.dice)));
        marbledPhotos++;
      }
      for (const s of copies) {
        real.push(s);
        if (trainDet) detReal.push(detectorExample(s, false), detectorExample(s, true));
      }
      progress('real', i + 1, use.length, leftOut > 0 ? `${leftOut} label(s) known wrong left out` : '');
    }
  }

  const realPhotos = real.length - lightCastPhotos - recolouredPhotos - marbledPhotos;
  const detStart = Date.now();
  const detLr = detLrArg || (keptDetector ? 1e-3 : 2e-3);
  const detector = trainDet
    ? await trainDetector(detData, detReal, { steps: detSteps, batch: 12, cropCells: [24, 32], learningRate: detLr, realFraction: 0.3 }, rng.fork(), progress, keptDetector ?? buildDetector(detectorArch))
    : keptDetector!;
  const detSeconds = (Date.now() - detStart) / 1000;
  detData.length = 0;
  detReal.length = 0;

  let realDice = 0;
  for (let i = 0; i < real.length && trainCls; i++) {
    const s = real[i];
    const sizes = detectedSizes(detector, s, (72 * s.pixels.width) / 640);
    realDice += s.dice.length;
    clsData.push(...classifierExamples(s, classifierInput, sizes, rng, realPerDie, 3, 0.3, centreJitter));
    addHardNegatives(detector, s, realPerDie);
    progress('real crops', i + 1, real.length, `${negativePeaks} hard negatives`);
  }
  let hardCropsFound = 0;
  if (trainCls && start && hardCropCopiesWanted > 0) {
    const mined = hardCropCopies(start, clsData, hardCropCopiesWanted);
    hardCropsFound = mined.hard;
    clsData.push(...mined.copies);
    process.stderr.write(`\n${mined.hard} of ${clsData.length - mined.copies.length} crops read wrong or barely by the continued classifier, each added ${hardCropCopiesWanted} more time(s)\n`);
  }
  const clsStart = Date.now();
  const clsLr = clsLrArg || (resume ? 6e-4 : 2e-3);
  const classifier = trainCls ? await trainClassifier(clsData, { architecture: classifierArch, epochs: clsEpochs, batch: 64, learningRate: clsLr, pipMapWeight }, rng.fork(), progress, start) : null;
  const clsSeconds = (Date.now() - clsStart) / 1000;

  // a classifier-only run still saves the detector: it may have been refitted to a new input size
  await saveLayersModel(detector, join(out, 'detector'));
  if (classifier) await saveLayersModel(classifier, join(out, 'classifier'));
  const command = `npm run model:train -- ${process.argv.slice(2).join(' ')}`.trim();
  // how many scenes of each kind the run drew, as every record of it lists them
  const sceneCounts = {
    focusScenes,
    closeCameraScenes,
    hardLookScenes,
    marbledScenes,
    faintPipScenes,
    crowdedScenes,
    ...(occludedScenes > 0 ? { occludedScenes } : {}),
    ...(leaningScenes > 0 ? { leaningScenes } : {}),
  };
  // what every record of the run starts with, and what it says of the real photos
  const runStart = { date: new Date().toISOString(), command, seed, backend, syntheticScenes: scenes };
  const realPhotoCounts = {
    realTrainImages: realPhotos,
    lightCastPhotos,
    lightCastRange: lightRangeName,
    recolouredPhotos,
    ...(marbledPhotos > 0 ? { marbledPhotos } : {}),
    realLabelsLeftOut,
  };
  const detectorRun = {
    ...runStart,
    ...sceneCounts,
    closerLookWindows: windowExamples,
    pipNegatives,
    detectorNegatives,
    detectorFalsePeaks,
    ...realPhotoCounts,
    detectorSteps: detSteps,
    detectorLearningRate: detLr,
    detectorArchitecture: detectorArch,
    detectorSeconds: Math.round(detSeconds),
    continued: values.continue,
  };
  const classifierRun = {
    ...runStart,
    ...realPhotoCounts,
    classifierExamples: clsData.length,
    classifierEpochs: clsEpochs,
    classifierSeconds: Math.round(clsSeconds),
    ...sceneCounts,
    classifierLearningRate: clsLr,
    classifierArchitecture: widenFrom ? classifierArch : resumedArch ?? classifierArch,
    ...(widenFrom ? { widenedFrom: widenFrom } : {}),
    classifierInput,
    ...(resume && previous!.classifierInput !== classifierInput ? { classifierInputBefore: previous!.classifierInput } : {}),
    realCropsPerDie: realPerDie,
    centreJitter,
    pipMapWeight,
    cropAtDetected,
    hardNegatives,
    hardNegativePeaks: negativePeaks,
    ...(hardCropCopiesWanted > 0 ? { hardCropCopies: hardCropCopiesWanted, hardCropsFound } : {}),
  };
  const earlierClsRuns = classifierRunsOf(previous);
  const earlierDetRuns = (previous?.training.detectorRuns as unknown[] | undefined) ?? [];
  const training =
    stage === 'classifier'
      ? { ...previous!.training, classifierRuns: [...earlierClsRuns, { ...classifierRun, continued: values.continue }] }
      : stage === 'detector'
        ? { ...previous!.training, detectorRuns: [...earlierDetRuns, detectorRun] }
        : {
    ...runStart,
    syntheticDice: synthDice,
    ...sceneCounts,
    ...realPhotoCounts,
    realTrainDice: realDice,
    classifierExamples: clsData.length,
    detectorSteps: detSteps,
    classifierEpochs: clsEpochs,
    detectorSeconds: Math.round(detSeconds),
    classifierSeconds: Math.round(clsSeconds),
    totalSeconds: Math.round((Date.now() - started) / 1000),
  };
  await writeSpec(out, training, classifierInput);
  process.stderr.write(`wrote ${out} in ${Math.round((Date.now() - started) / 1000)}s\n`);
  console.log(JSON.stringify(training));
}

if (wantsHelp(process.argv.slice(2))) process.stdout.write(`${USAGE}\n`);
else main().catch((err: unknown) => reportCliFailure('model:train', USAGE, err, [VisionModelError]));
