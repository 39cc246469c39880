/**
 * Game state + clock -> what the box LEDs show. Pure; the service calls it on every state
 * change and every second (blinking is done by the box itself).
 *
 * Plane LEDs: destroyed or no game: off; else what the plane is (the plane rolling now: pulse; the
 *   selected plane: on; else off), and with low fuel while away from the flight deck (fuel <= lowFuel,
 *   landing no longer automatic; during its roll, the fuel left after the 1s rolled so far): blink,
 *   taking turns every `lowFuelSwapMs` (2 s) with pulse or on when the plane is also rolling or selected,
 *   so that low fuel hides neither (the firmware has four modes: off, on, blink, pulse).
 * Spotted LED: on while the Yorktown is spotted; blinking while a chain of Japanese planes runs from an
 *   orange to a red island (it will be spotted: the dashboard's warning).
 * Roll LED: during a roll: off before the first reading and while the camera sees a die it cannot
 *   read (Confirm is refused then), greenBlink while the dice reach a success, redBlink while they do
 *   not, red when the plane ran out of fuel; after a roll (the service passes lastRoll from the events):
 *   green/red for resultMs; in the last minute of the game with no roll showing: redBlink (the alarm);
 *   game over: green won, red lost. A roll's success: a plane's roll reaching a result (a landing:
 *   the safe one; an attack: a target taken); the Japanese attack on the Yorktown: no hit on it.
 */
import { spottedChain } from '../../games/yorktown1942/board.ts';
import { readYorktownAttack } from '../../games/yorktown1942/japanese.ts';
import type { LedMode, LedState } from '../ports.ts';
import type { ControlsState } from './controls.ts';
import type { BoxGameView, BoxRollView } from './game-view.ts';

/** The rule values that judge a roll: the Yorktown attack's pairs. */
export type RollRules = BoxGameView['rules'];

export interface LedInputs {
  game: BoxGameView | null;
  controls: ControlsState;
  now: number;
  /** the last finished roll, from the table's events */
  lastRoll?: { success: boolean; at: number } | null;
  /** fuel at or below which a plane in the air blinks (default 4: landing is automatic from 5) */
  lowFuel?: number;
  /** how long a finished roll's result stays lit (default 5 s) */
  resultMs?: number;
  /** when the last-minute alarm starts (default 60 s before the deadline) */
  alarmMs?: number;
  /** dice of the roll in progress the camera cannot read (the table refuses its confirmation meanwhile) */
  diceUnread?: number;
  /** the dice in the tray are moving or being read (a re-throw): what they show is not the roll's yet */
  trayBusy?: boolean;
  /** how long low fuel and selected/rolling take turns on a plane LED (default 2 s) */
  lowFuelSwapMs?: number;
}

const OFF: LedState = { planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'off' };

/** Is the roll in progress a success so far? null when there is nothing to judge (no reading, or a plain reading of faces). */
export function rollSuccess(roll: BoxRollView, rules: RollRules): boolean | null {
  const t = roll.tracker;
  if (t.faces === null) return null;
  if (t.outOfFuel) return false;
  const best = t.best;
  if (best.kind === 'targets') return best.taken.length > 0;
  if (best.kind === 'faces') return roll.purpose === 'yorktownAttack' ? readYorktownAttack(rules.yorktown, t.faces).hits === 0 : null;
  if (best.tierId === null) return false;
  if (roll.purpose === 'landing' || roll.purpose === 'emergencyLanding') return best.tierId === 'safe';
  return true;
}

export function ledsFor(input: LedInputs): LedState {
  const { game, controls, now } = input;
  const lowFuel = input.lowFuel ?? 4;
  const resultMs = input.resultMs ?? 5000;
  const alarmMs = input.alarmMs ?? 60_000;
  const swapMs = input.lowFuelSwapMs ?? 2000;
  if (!game || game.phase === 'setup') return structuredClone(OFF);
  if (game.phase === 'over') {
    return { ...structuredClone(OFF), roll: game.outcome?.result === 'won' ? 'green' : 'red' };
  }

  const planes = ([1, 2, 3, 4] as const).map((id): LedMode => {
    const p = game.planes.find((x) => x.id === id);
    if (!p || p.destroyed) return 'off';
    // during its roll a plane's fuel is what it had at the start minus the 1s rolled since
    const rolling = game.roll?.plane === id ? game.roll : null;
    const fuel = rolling?.fuelAtStart !== undefined ? rolling.fuelAtStart - rolling.tracker.fuelSpent : p.fuel;
    const shown: LedMode = rolling ? 'pulse' : controls.selectedPlane === id ? 'on' : 'off';
    if (fuel > lowFuel || p.position.at === 'deck') return shown;
    return shown === 'off' || Math.floor(now / swapMs) % 2 === 0 ? 'blink' : shown;
  }) as LedState['planes'];

  let roll: LedState['roll'] = 'off';
  if (game.roll) {
    const ok = rollSuccess(game.roll, game.rules);
    if (game.roll.tracker.outOfFuel) roll = 'red';
    else if ((input.diceUnread ?? 0) > 0 || input.trayBusy) roll = 'off';
    else if (ok !== null) roll = ok ? 'greenBlink' : 'redBlink';
  } else if (input.lastRoll && now - input.lastRoll.at >= 0 && now - input.lastRoll.at < resultMs) {
    roll = input.lastRoll.success ? 'green' : 'red';
  } else if (game.deadline !== null && game.deadline - now > 0 && game.deadline - now <= alarmMs) {
    roll = 'redBlink';
  }

  const spotted = game.spotted ? 'on' : spottedChain(game.rules.board, game.islands) ? 'blink' : 'off';
  return { planes, spotted, roll };
}
