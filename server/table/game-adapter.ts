/**
 * What the table needs to know about a game beyond the GameModule contract: what clients
 * may see, whether a roll is in progress, how a game ended, and how the attract mode plays.
 */
import type { GameCommand, GameEvent, GameModule } from '../games/game-module.ts';
import type { BuzzerCue, ButtonEvent, LedState } from '../hardware/ports.ts';
import type { CommandDefaults } from './command-defaults.ts';

/** How a game uses the button box (absent: the box's buttons do nothing for this game). */
export interface BoxBehaviour<S, C = unknown> {
  initialControls: C;
  /**
   * a press -> the command to send (or none), the new controls, a cue when no command goes out, and what it
   * did in words (English) and as a key with parameters (the dashboard's words); `lastGame` is the command
   * that started the table's last game played by people (null: none)
   */
  press(event: ButtonEvent, state: S, controls: C, context: { lastGame: GameCommand | null }): BoxPress<C>;
  /** the piece (plane) the box has selected, shown on the table screen (null: none) */
  selected(controls: C): number | null;
  /** what the box shows for Confirm to do, shown on the table screen too (null: nothing) */
  shown?(controls: C): { key: string; params: Record<string, string | number>; text: string } | null;
  /** the table changed by someone else (not a press of this box): what of the controls still holds */
  afterChange?(controls: C, state: S): C;
  /** `diceUnread`: dice of the roll in progress the camera cannot read; `trayBusy`: dice moving or being read (its confirmation is refused meanwhile) */
  leds(input: { state: S; controls: C; now: number; lastRoll: { success: boolean; at: number } | null; diceUnread: number; trayBusy: boolean }): LedState;
  /** did the roll that these events finished succeed? null when they finished none (`before` is the state before them) */
  finishedRoll(before: S, events: GameEvent[]): boolean | null;
}

export interface BoxPress<C> {
  controls: C;
  command: GameCommand | null;
  note: string;
  noteKey?: string;
  noteParams?: Record<string, string | number>;
  cue: BuzzerCue | null;
}

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
  /** the events as clients may see them (default: as they are) */
  publicEvents?(events: GameEvent[]): GameEvent[];
  /** a key that changes whenever a new roll starts, or null when no roll is in progress */
  rollKey(state: S): string | null;
  /** the faces the roll tracker last accepted, or null */
  rollFaces(state: S): number[] | null;
  /** the roll's last reading was refused (a wrong number of dice...): a reading of the faces accepted before is news again */
  rollReadingRefused(state: S): boolean;
  /** number of dice the roll in progress expects, or null */
  rollDice(state: S): number | null;
  /** 1s locked in the roll in progress (they stay out of re-rolls) */
  rollLockedOnes(state: S): number;
  /** the command that ends a roll on the dice showing (refused while the camera sees a die it cannot read) */
  confirmsRoll(command: GameCommand): boolean;
  /** a game is being played (started and not over) */
  running(state: S): boolean;
  startedAt(state: S): number | null;
  outcome(state: S): GameOutcomeFacts | null;
  /** facts kept with the statistics of a finished game (players, difficulty, turns...) */
  summary(state: S): Record<string, unknown>;
  /** The command that starts an attract-mode game (digital deck). */
  attractStart(seed: number): GameCommand;
  /**
   * The attract mode's next command for the game on the table, by the engine's built-in policy (null: none
   * to play). The kiosk asks again after each command at a human pace, so the game follows the table's own
   * state and clock to its real end, and carries on from the state the journal restores after a restart;
   * `dice` commands are shown on the synthetic camera when there is one (the camera → vision path is part
   * of the show), `random` throws the dice.
   */
  attractNext(state: S, random: () => number): GameCommand | null;
  /**
   * A whole game of the same policy played on a simulated clock, as a list of commands (newGame first):
   * tests and load drivers replay it. Not the attract mode's: a list made on another clock does not end
   * the table's game.
   */
  attractPlan(seed: number): GameCommand[];
  box?: BoxBehaviour<S, any>;
  /** fields a client may leave out, with their values (e.g. newGame's player count): filled in before validation, and published in the schemas */
  commandDefaults?: CommandDefaults;
  /** why the owner's rule corrections cannot make a game (null: they can), checked before they are saved; absent: the game takes none */
  checkRuleOverrides?(overrides: Record<string, unknown>): string | null;
  /** what one seat may look at and the table display does not show (a digital game's expert manoeuvre tiles); absent: nothing */
  seatSecrets?(state: S, seat: number): unknown;
}
