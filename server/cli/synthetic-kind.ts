/** Which synthetic set `--synthetic N` draws, from the flags the dice commands share. */
import { TABLE_COLOURS, type SyntheticSetKind, type TableColour } from '../synth/test-set.ts';
import { UsageError } from './cli-failure.ts';

type KindFlags = { 'close-camera'?: boolean; crowded?: boolean; occluded?: boolean; 'large-frame'?: boolean; leaning?: boolean; table?: string };

const KIND_FLAGS = ['close-camera', 'crowded', 'occluded', 'large-frame', 'leaning', 'table'] as const;

const given = (flags: KindFlags) => KIND_FLAGS.filter((f) => flags[f] !== undefined && flags[f] !== false);

export function syntheticKindOf(flags: KindFlags): SyntheticSetKind {
  const kinds = given(flags);
  if (kinds.length > 1) throw new UsageError(`${kinds.map((f) => `--${f}`).join(' and ')} are ${kinds.length === 2 ? 'two ' : ''}different sets: give one`);
  return kinds[0] ?? 'coloured';
}

/** The colour `--table COLOUR` gives one table's dice (a 'table' set), checked; 'marbled' for other sets (unused). */
export function tableColourOf(flags: KindFlags): TableColour {
  const colour = flags.table;
  if (colour === undefined) return 'marbled';
  if (!(TABLE_COLOURS as readonly string[]).includes(colour)) throw new UsageError(`--table must be one of ${TABLE_COLOURS.join(', ')}, got "${colour}"`);
  return colour as TableColour;
}

/** A kind's flag, refused without --synthetic N. */
export function refuseKindWithoutSynthetic(flags: KindFlags): void {
  for (const flag of given(flags)) throw new UsageError(`--${flag} goes with --synthetic N`);
}
