/**
 * The model's input and preprocessing contract, shared by training and inference (one code path).
 * A copy is written as models/spec.json next to the weights; the reader refuses a model whose spec differs.
 */
export const MODEL_SPEC = {
  version: '1.12.0',
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
    normalisation: 'x/255, minus the crop mean, divided by (crop std + 0.05)',
    classes: ['1', '2', '3', '4', '5', '6', 'none', 'cocked', 'blurred'] as const,
  },
} as const;

export type ClassName = (typeof MODEL_SPEC.classifier.classes)[number];
export const CLASS_NONE = 6;
export const CLASS_COCKED = 7;
export const CLASS_BLURRED = 8;
export const NUM_CLASSES = MODEL_SPEC.classifier.classes.length;
