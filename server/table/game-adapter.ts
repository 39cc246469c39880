/**
 * What the table needs to know about a game beyond the GameModule contract: what clients
 * may see, whether a roll is in progress, how a game ended, and how the attract mode plays.
 */
import type { GameCommand, GameModule } from '../games/game-module.ts';

export interface GameOutcomeFacts {
  result: string;
  cause: string | null;
  /** wall-clock ms when the game ended */
  at: number;
}

export interface GameAdapter<S = unknown> {
  module: GameModule<S>;
  /** the state as clients may see it (hidden information removed) */
  publicView(state: S): unknown;
  /** a key that changes whenever a new roll starts, or null when no roll is in progress */
  rollKey(state: S): string | null;
  /** the faces the roll tracker last accepted, or null */
  rollFaces(state: S): number[] | null;
  /** number of dice the roll in progress expects, or null */
  rollDice(state: S): number | null;
  /** 1s locked in the roll in progress (they stay out of re-rolls) */
  rollLockedOnes(state: S): number;
  /** a game is being played (started and not over) */
  running(state: S): boolean;
  startedAt(state: S): number | null;
  outcome(state: S): GameOutcomeFacts | null;
  /** facts kept with the statistics of a finished game (players, difficulty, turns...) */
  summary(state: S): Record<string, unknown>;
  /** the attract mode's newGame (digital deck) */
  attractNewGame(seed: number): GameCommand;
  /**
   * The next command the attract mode sends, or null to wait. `throwDice(n)` throws n dice
   * on the synthetic camera when the game expects dice; it returns false when there is no
   * synthetic camera (the policy then types the faces in).
   */
  attractStep?(state: S, random: () => number): GameCommand | { throwDice: number } | null;
}
