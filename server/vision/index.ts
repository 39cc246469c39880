export { createDiceReader, type VisionDiceReader, type DiceReading, type ReaderOptions } from './reader.ts';
export { VisionInputError, VisionModelError } from './errors.ts';
export { MODEL_SPEC } from './spec.ts';
