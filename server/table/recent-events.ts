/**
 * The events of a table's last commands, as "What happened" shows them: an `undone` event takes
 * the undone commands' events away, a new game starts the list again, a table reset leaves it empty
 * (the next players, at a demo station, see nothing of the last ones), the oldest go past `limit`.
 * Kept by the table (for a page that opens mid-game) and by the dashboard (from each push).
 */
import type { GameEvent } from '../games/game-module.ts';

export interface RecentEvent {
  seq: number;
  event: GameEvent;
}

export const RECENT_EVENTS_LIMIT = 60;

/** the event of a table reset (game-session.ts) */
const RESET_TABLE_EVENT = 'tableReset';

/** The list with the events of command `seq` added (a new list; the one given is not changed). */
export function withEvents(list: readonly RecentEvent[], seq: number, events: readonly GameEvent[], limit = RECENT_EVENTS_LIMIT): RecentEvent[] {
  let next = [...list];
  for (const event of events) {
    if (event.type === 'undone') {
      const gone = new Set(((event.commands as { seq: number }[] | undefined) ?? []).map((c) => c.seq));
      next = next.filter((x) => !gone.has(x.seq));
    } else if (event.type === RESET_TABLE_EVENT) {
      next = [];
    } else {
      if (event.type === 'gameStarted') next = [];
      next.push({ seq, event });
    }
  }
  return next.length > limit ? next.slice(next.length - limit) : next;
}
