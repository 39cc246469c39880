/** The shapes the dashboard reads: the shared protocol plus the optional fields the service adds. */
import type { TableSnapshot, VisionUpdate } from '../../server/http/protocol.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import type { RollOdds } from '../../server/dice/types.ts';
import type { LedState } from '../../server/hardware/ports.ts';

export type { VisionUpdate };

/** The roll in progress may carry its odds (computed by the dice module on the server). */
export type RollWithOdds = NonNullable<YorktownState['roll']> & { odds?: RollOdds | null };

export type GameState = Omit<YorktownState, 'roll'> & { roll: RollWithOdds | null };

export type Snapshot = TableSnapshot<GameState> & {
  /** the game on the table was started by the demo station's attract mode */
  attract?: boolean;
  /** the table is a demo station */
  kiosk?: boolean;
  /** shown only to the table-side screen */
  pin?: string;
  /** the virtual/real button box's lights, when the service sends them */
  leds?: LedState | null;
};

export interface Rejection {
  code: string;
  message: string;
}

export type Ack = { ok: true; [k: string]: unknown } | { ok: false; error: Rejection };

export interface DayStats {
  tableId: string;
  day: string;
  games: number;
  results: Record<string, number>;
  causes: Record<string, number>;
  durationMs: { median: number | null; mean: number | null; min: number | null; max: number | null };
  attractGames: number;
}
