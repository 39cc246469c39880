/**
 * The classifier's input encodings, by the text a model's spec.json names its crop normalisation with.
 * "rgb" is the input of every shipped version. "lightness-colour" gives the lightness and the two colour
 * contrasts each their own scale, so that a hue difference is not scaled down by a crop's lightness
 * contrast (tried for marbled dice; it read them no better: models/TRAINING.md, steps 125–131).
 */
export const CLASSIFIER_INPUTS = {
  rgb: 'x/255, minus the crop mean, divided by (crop std + 0.05)',
  'lightness-colour':
    'x/255 as lightness (R+G+B)/3 and colours R-G, (R+G)/2-B; the lightness minus its crop mean, divided by (its crop std + 0.05); each colour minus its crop mean, divided by (the two colours\' joint crop std + 0.05)',
} as const;
export type ClassifierInput = keyof typeof CLASSIFIER_INPUTS;

export function isClassifierInput(name: string): name is ClassifierInput {
  return Object.hasOwn(CLASSIFIER_INPUTS, name);
}

/**
 * The model's input and preprocessing contract, shared by training and inference (one code path).
 * A copy is written as models/spec.json next to the weights; the reader refuses a model whose spec
 * differs, but for the classifier's normalisation, which may be any of CLASSIFIER_INPUTS.
 */
export const MODEL_SPEC = {
  version: '1.22.0',
  detector: {
    /** the frame is letterboxed (aspect kept, zero padding after normalisation) into this size */
    inputWidth: 320,
    inputHeight: 240,
    /** output cell size in detector-input pixels */
    stride: 4,
    /** outputs per cell: [die-centre heatmap (sigmoid), log(top-face size / stride)] */
    outputs: ['heatmap', 'logSize'],
    normalisation: 'x/255, minus the frame mean, divided by (frame std + 0.05)',
  },
  classifier: {
    /** square crop around the detected centre, side = cropScale × detected top-face size, from the full-resolution frame */
    cropSize: 48,
    cropScale: 1.7,
    normalisation: CLASSIFIER_INPUTS.rgb as string,
    classes: ['1', '2', '3', '4', '5', '6', 'none', 'cocked', 'blurred'] as const,
  },
} as const;

export type ClassName = (typeof MODEL_SPEC.classifier.classes)[number];
export const CLASS_NONE = 6;
export const CLASS_COCKED = 7;
export const CLASS_BLURRED = 8;
export const NUM_CLASSES = MODEL_SPEC.classifier.classes.length;

export type ModelSpec = typeof MODEL_SPEC;

/** The code's spec with the classifier reading `input`. */
export function specFor(input: ClassifierInput): ModelSpec {
  return { ...MODEL_SPEC, classifier: { ...MODEL_SPEC.classifier, normalisation: CLASSIFIER_INPUTS[input] } };
}

/** The classifier input a spec's normalisation text names, or null for one this code does not know. */
export function classifierInputOf(spec: ModelSpec): ClassifierInput | null {
  const found = Object.entries(CLASSIFIER_INPUTS).find(([, text]) => text === spec.classifier?.normalisation);
  return found ? (found[0] as ClassifierInput) : null;
}
