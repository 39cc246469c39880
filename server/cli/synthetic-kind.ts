/** Which synthetic set `--synthetic N` draws, from the flags the dice commands share. */
import type { SyntheticSetKind } from '../synth/test-set.ts';
import { UsageError } from './cli-failure.ts';

export function syntheticKindOf(flags: { 'close-camera'?: boolean; crowded?: boolean }): SyntheticSetKind {
  if (flags['close-camera'] && flags.crowded) throw new UsageError('--close-camera and --crowded are two different sets: give one');
  return flags['close-camera'] ? 'close-camera' : flags.crowded ? 'crowded' : 'coloured';
}

/** A kind's flag, refused without --synthetic N. */
export function refuseKindWithoutSynthetic(flags: { 'close-camera'?: boolean; crowded?: boolean }): void {
  for (const flag of ['close-camera', 'crowded'] as const) if (flags[flag]) throw new UsageError(`--${flag} goes with --synthetic N`);
}
