/**
 * What a page tells in a toast as a state push arrives: an Undo (what it took back, whose plane and
 * seat, and which seat asked) and the events nobody may miss (a plane crashed, the Yorktown hit).
 * Pure: the words only; `App.announce` decides when (once per journal seq).
 */
import type { GameEvent } from '../../server/games/game-module.ts';
import type { Rules } from '../../server/games/yorktown1942/ruleset.ts';
import type { RollFlag } from '../../server/dice/types.ts';
import { isRejection } from '../../server/dice/roll-tracker.ts';
import { describeEvent } from './events.ts';
import { t, tk } from './i18n.ts';

/** One command an Undo took (or would take) back, as the `undone` event and the snapshot's `undoNext` give it. */
export interface UndoneItem {
  type: string;
  /** the plane (the journal's piece) */
  piece?: number | null;
}

/** The seat flying a plane (null: unknown). */
export type SeatOf = (plane: number) => number | null;

/** "plane 2's confirmed roll (seat 1)" for a plane's command, else "a roll confirmed". */
export function undoneWords(c: UndoneItem, seatOf: SeatOf): string {
  if (typeof c.piece !== 'number') return tk(`undo_${c.type}`);
  const key = `undoPlane_${c.type}`;
  const what = tk(key, { plane: c.piece });
  // a command of no known kind keeps the plain words
  if (what === key) return tk(`undo_${c.type}`);
  const seat = seatOf(c.piece);
  return seat === null ? what : t('undoPlaneSeat', { what, seat });
}

/**
 * The roll's last reading in words when it was refused, as an Undo taking it back names it: "the camera's
 * reading 2 3 4 5 6 (5 dice for a 4-dice roll)". `faces`: the dice the camera sees at rest (left out of a
 * wrong count when it sees another number of dice). Null when the last reading was accepted.
 */
export function refusedReadingWords(flags: readonly RollFlag[], faces: readonly number[] | null): string | null {
  const refusal = flags.filter(isRejection);
  if (!refusal.length) return null;
  const count = refusal.find((f) => f.type === 'wrongDiceCount');
  if (!count) return faces?.length ? t('undoRefusedFaces', { faces: faces.join(' ') }) : t('undoRefused');
  const dice = { seen: count.seen, expected: count.expected };
  return faces?.length === count.seen ? t('undoRefusedCountFaces', { ...dice, faces: faces.join(' ') }) : t('undoRefusedCount', dice);
}

/** The commands of an `undone` event in words, joined; `refused`: the last one, a dice reading, was that refused reading. */
export function undoneList(commands: readonly UndoneItem[], seatOf: SeatOf, refused: string | null = null): string {
  const last = commands.length - 1;
  return commands.map((c, i) => (i === last && c.type === 'dice' && refused ? refused : undoneWords(c, seatOf))).join(', ');
}

/**
 * An `undone` event as another page tells it: "Seat 2 undid plane 2's confirmed roll (seat 1)." when the
 * phone that asked said its seat, else "Undone: …". Null when it took nothing back.
 */
export function undoneNews(event: GameEvent, seatOf: SeatOf, refused: string | null = null): string | null {
  const commands = Array.isArray(event.commands) ? (event.commands as UndoneItem[]) : [];
  if (!commands.length) return null;
  const what = undoneList(commands, seatOf, refused);
  return typeof event.seat === 'number' ? t('undoneBy', { seat: event.seat, what }) : t('undoneToast', { what });
}

/** The events every page shows as an alert: a plane crashed (or lost for good), the Yorktown hit. */
export const ALERT_EVENTS: readonly string[] = ['planeCrashed', 'planeDestroyed', 'yorktownHit'];

/** The alert for one command's events, in the "what happened" words (null: nothing to alert). */
export function alertNews(events: readonly GameEvent[], rules: Rules): string | null {
  const texts = events.filter((e) => ALERT_EVENTS.includes(e.type)).map((e) => describeEvent(e, rules)).filter((x): x is string => !!x);
  return texts.length ? texts.join(' · ') : null;
}
