/** Which synthetic set `--synthetic N` draws, from the flags the dice commands share. */
import type { SyntheticSetKind } from '../synth/test-set.ts';
import { UsageError } from './cli-failure.ts';

type KindFlags = { 'close-camera'?: boolean; crowded?: boolean; occluded?: boolean; 'large-frame'?: boolean; leaning?: boolean };

const KIND_FLAGS = ['close-camera', 'crowded', 'occluded', 'large-frame', 'leaning'] as const;

export function syntheticKindOf(flags: KindFlags): SyntheticSetKind {
  const given = KIND_FLAGS.filter((f) => flags[f]);
  if (given.length > 1) throw new UsageError(`${given.map((f) => `--${f}`).join(' and ')} are ${given.length === 2 ? 'two ' : ''}different sets: give one`);
  return given[0] ?? 'coloured';
}

/** A kind's flag, refused without --synthetic N. */
export function refuseKindWithoutSynthetic(flags: KindFlags): void {
  for (const flag of KIND_FLAGS) if (flags[flag]) throw new UsageError(`--${flag} goes with --synthetic N`);
}
