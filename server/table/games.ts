/** The games a table can run, as the table service sees them. */
import type { GameAdapter } from './game-adapter.ts';
import { yorktownAdapter } from './yorktown-adapter.ts';

export const tableGames: Record<string, GameAdapter<any>> = {
  [yorktownAdapter.module.id]: yorktownAdapter,
};
