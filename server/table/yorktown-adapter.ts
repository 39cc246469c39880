/** The table's view of the 1942 USS Yorktown module (server/games/yorktown1942). */
import { readingAccepted, rollOddsNow } from '../dice/index.ts';
import type { RollOdds } from '../dice/types.ts';
import { actionChances, currentRollOdds, publicView, resolveRules, RuleOverrideError, yorktown1942, type YorktownState } from '../games/yorktown1942/index.ts';
import { playGame, policyCommand } from '../games/yorktown1942/simulation.ts';
import { buttonToCommand, controlsAfterChange, INITIAL_CONTROLS, shownChoice, type ControlsState, type NewGameChoices } from '../hardware/serial/controls.ts';
import { ledsFor, rollSuccess } from '../hardware/serial/leds.ts';
import type { GameCommand, GameEvent } from '../games/game-module.ts';
import type { BoxBehaviour, GameAdapter } from './game-adapter.ts';

/** The seed would let anyone work out the digital deck's order: gameStarted goes out without it. */
function withoutSeed(events: GameEvent[]): GameEvent[] {
  return events.map((e) => {
    if (e.type !== 'gameStarted') return e;
    const { seed: _hidden, ...rest } = e;
    return rest as GameEvent;
  });
}

/** The choices of a journaled newGame that a new game from the box starts again (null: not one). */
export function newGameChoices(command: GameCommand | null): NewGameChoices | null {
  if (command?.type !== 'newGame' || typeof command.players !== 'number') return null;
  const { players, inexperienced, difficulty, expansions, deck, planeSeats } = command as unknown as NewGameChoices;
  const choices: NewGameChoices = { players };
  if (inexperienced !== undefined) choices.inexperienced = inexperienced;
  if (difficulty !== undefined) choices.difficulty = difficulty;
  if (expansions !== undefined) choices.expansions = expansions;
  if (deck !== undefined) choices.deck = deck;
  if (planeSeats !== undefined) choices.planeSeats = planeSeats;
  return choices;
}

const yorktownBox: BoxBehaviour<YorktownState, ControlsState> = {
  initialControls: INITIAL_CONTROLS,
  // the chances the dashboard's buttons say, figured from the public view
  press: (event, state, controls, { lastGame }) =>
    buttonToCommand(event, state.setup === null ? null : state, controls, { lastGame: newGameChoices(lastGame), chances: state.setup === null ? [] : actionChances(publicView(state)) }),
  selected: (controls) => controls.selectedPlane,
  shown: shownChoice,
  afterChange: (controls, state) => controlsAfterChange(controls, state.setup === null ? null : state),
  // a plane blinks low on fuel once its landing is no longer automatic, as its card shows it red
  leds: ({ state, controls, now, lastRoll, diceUnread, trayBusy }) => ledsFor({ game: state.setup === null ? null : state, controls, now, lastRoll, diceUnread, trayBusy, lowFuel: state.rules.landing.autoFuel - 1 }),
  finishedRoll: (before, events) => (before.roll && events.some((e) => e.type === 'rollConfirmed') ? rollSuccess(before.roll, before.rules) : null),
};

function safely(odds: () => RollOdds | null): RollOdds | null {
  try {
    return odds();
  } catch {
    return null; // more dice than the odds tables cover
  }
}

/**
 * The public view, with the odds of the roll in progress (from its start, `odds`, and from the dice
 * showing now, `oddsNow`), or of each roll a plane's action may start (`actionChances`, figured from the
 * public view itself, so that they cannot tell what it hides).
 */
function viewWithOdds(state: YorktownState): unknown {
  const view = publicView(state);
  if (!view.roll || !state.roll) return { ...view, actionChances: actionChances(view) };
  const tracker = state.roll.tracker;
  return { ...view, roll: { ...view.roll, odds: safely(() => currentRollOdds(state)), oddsNow: safely(() => rollOddsNow(tracker)) } };
}

/** The attract mode's game: two players, difficulty 30 (the stopwatch's time before the missing players' minutes). */
const ATTRACT_GAME = { players: 2, difficulty: 30 } as const;

export const yorktownAdapter: GameAdapter<YorktownState> = {
  module: yorktown1942,
  publicView: viewWithOdds,
  publicEvents: withoutSeed,
  checkRuleOverrides: (overrides) => {
    try {
      resolveRules(overrides);
      return null;
    } catch (err) {
      if (err instanceof RuleOverrideError) return err.message;
      throw err;
    }
  },
  rollKey: (s) => (s.roll ? `${s.turn}:${s.roll.purpose}:${s.roll.plane ?? '-'}` : null),
  rollFaces: (s) => (s.roll?.tracker.faces ? [...s.roll.tracker.faces] : null),
  rollReadingRefused: (s) => (s.roll ? !readingAccepted(s.roll.tracker) : false),
  rollDice: (s) => (s.roll ? s.roll.tracker.spec.dice : null),
  rollLockedOnes: (s) => s.roll?.tracker.lockedOnes ?? 0,
  confirmsRoll: (c) => c.type === 'confirmRoll',
  running: (s) => s.setup !== null && s.outcome === null,
  startedAt: (s) => s.startedAt,
  outcome: (s) => (s.outcome ? { result: s.outcome.result, cause: s.outcome.cause, at: s.outcome.at } : null),
  summary: (s) => ({
    players: s.setup?.players ?? null,
    difficulty: s.setup?.difficulty ?? null,
    deck: s.setup?.deck ?? null,
    turn: s.turn,
    yorktownHits: s.yorktownHits,
    shohoHits: s.shohoHits,
    planesLost: s.planes.filter((p) => p.destroyed).length,
  }),
  box: yorktownBox,
  // `{"type": "newGame", "seed": 5}` starts a standard game: four players, digital deck (the engine's default deck)
  commandDefaults: { newGame: { players: 4 } },
  // "each player looks at his tile secretly": the tiles the engine dealt to this seat's planes, not yet used
  seatSecrets: (s, seat) => ({
    tiles: s.planes
      .filter((p) => p.seat === seat && !p.destroyed && p.manoeuvre !== null && !p.manoeuvre.used && p.manoeuvre.id !== null)
      .map((p) => ({ plane: p.id, manoeuvre: p.manoeuvre!.id })),
  }),
  attractStart: (seed) => ({ type: 'newGame', seed, ...ATTRACT_GAME, expansions: {} }),
  attractNext: (state, random) => policyCommand(state, random),
  attractPlan: (seed) => {
    const game = playGame({ seed, ...ATTRACT_GAME });
    return game.journal.entries.map((e) => e.command).filter((c) => c.type !== 'undo');
  },
};
