/**
 * Box buttons -> Yorktown table commands, given the game state. Pure: the service keeps the
 * ControlsState (which plane is selected) between presses and sends the command, if any.
 *
 * | button           | short press                                                        | long press                      |
 * |------------------|--------------------------------------------------------------------|---------------------------------|
 * | plane 1..4       | select that plane (press again: deselect)                          | skipAction {plane}              |
 * | move/attack/     | chooseAction {selected plane, action}; if that action is already    | same as short                   |
 * | search/tol       | chosen: search -> search {plane}, take-off/landing in the approach |                                 |
 * |                  | area -> land {plane}; others need the dashboard (destination...)    |                                 |
 * | confirm          | roll in progress -> confirmRoll; Japanese phase or set-up draws,     | endTurn (plane phase, no roll)  |
 * |                  | digital deck -> drawCard; plane phase, every plane done -> endTurn  |                                 |
 * | undo             | undo                                                               | clear the plane selection       |
 *
 * With no game on the table (or one over), a long Confirm starts a standard game (newGame: four
 * planes, digital deck, the table's rule settings); any other press says so.
 *
 * The engine still validates every command; these checks only avoid sending hopeless ones and
 * give the players a reason at once.
 */
import type { YorktownCommand } from '../../games/yorktown1942/commands.ts';
import type { ActionType, PlaneId } from '../../games/yorktown1942/types.ts';
import type { BoxButton, BuzzerCue, ButtonEvent } from '../ports.ts';
import type { BoxGameView, BoxPlaneView } from './game-view.ts';

export interface ControlsState {
  selectedPlane: PlaneId | null;
}

export const INITIAL_CONTROLS: ControlsState = { selectedPlane: null };

export interface ControlOutcome {
  controls: ControlsState;
  /** the command to send to the table, or null */
  command: YorktownCommand | null;
  /** what the press did or why it did nothing, in words */
  note: string;
  /** cue for the buzzer: 'tick' handled on the box side, 'fail' refused; null when a command goes out (its result decides) */
  cue: BuzzerCue | null;
}

const PLANE_BUTTONS: Partial<Record<BoxButton, PlaneId>> = { plane1: 1, plane2: 2, plane3: 3, plane4: 4 };
const ACTION_BUTTONS: Partial<Record<BoxButton, ActionType>> = { move: 'move', attack: 'attack', search: 'search', takeoffLanding: 'takeoffLanding' };
const ACTION_WORDS: Record<ActionType, string> = { move: 'move', attack: 'attack', search: 'search', takeoffLanding: 'take-off/landing' };

function refuse(controls: ControlsState, note: string): ControlOutcome {
  return { controls, command: null, note, cue: 'fail' };
}

function send(controls: ControlsState, command: YorktownCommand, note: string): ControlOutcome {
  return { controls, command, note, cue: null };
}

function planeOf(game: BoxGameView, id: PlaneId | null): BoxPlaneView | undefined {
  return id === null ? undefined : game.planes.find((p) => p.id === id);
}

export function buttonToCommand(event: ButtonEvent, game: BoxGameView | null, controls: ControlsState): ControlOutcome {
  // a selection that no longer makes sense (plane destroyed, game gone) is dropped first
  let c = controls;
  const selected = game ? planeOf(game, c.selectedPlane) : undefined;
  if (c.selectedPlane !== null && (!selected || selected.destroyed)) c = { selectedPlane: null };

  if (event.button === 'undo') {
    if (event.press === 'long') return { controls: { selectedPlane: null }, command: null, note: 'plane selection cleared', cue: 'tick' };
    return send(c, { type: 'undo' }, 'undo the last command');
  }
  const setupDraw = game?.phase === 'setup' && game.setup !== null && (game.setupDraws ?? 0) > 0;
  if (!game || (game.phase === 'setup' && !setupDraw) || game.phase === 'over') {
    if (event.button === 'confirm' && event.press === 'long') {
      return send({ selectedPlane: null }, { type: 'newGame', players: 4 }, 'a new game: four planes, draw the first card (Confirm)');
    }
    const over = game?.outcome?.cause === 'time' ? 'the game is over: hold Confirm for a new one' : 'the game is over: hold Confirm for a new one, or press Undo to take back the move that ended it';
    return refuse(c, game?.phase === 'over' ? over : 'no game is running: hold Confirm to start one, or set one up on the dashboard');
  }

  const planeId = PLANE_BUTTONS[event.button];
  if (planeId !== undefined) {
    const plane = planeOf(game, planeId);
    if (!plane) return refuse(c, `there is no plane ${planeId} in this game`);
    if (plane.destroyed) return refuse(c, `plane ${planeId} is destroyed`);
    if (event.press === 'long') return send({ selectedPlane: planeId }, { type: 'skipAction', plane: planeId }, `plane ${planeId} skips its action`);
    if (c.selectedPlane === planeId) return { controls: { selectedPlane: null }, command: null, note: `plane ${planeId} deselected`, cue: 'tick' };
    return { controls: { selectedPlane: planeId }, command: null, note: `plane ${planeId} selected`, cue: 'tick' };
  }

  const action = ACTION_BUTTONS[event.button];
  if (action !== undefined) {
    if (game.phase !== 'planes') return refuse(c, 'actions are chosen in the plane phase');
    const plane = planeOf(game, c.selectedPlane);
    if (!plane) return refuse(c, 'press a plane button first');
    if (game.roll) return refuse(c, 'finish the roll in progress first (Confirm)');
    if (plane.done) return refuse(c, `plane ${plane.id} has already acted this turn`);
    if (plane.action !== action) {
      return send(c, { type: 'chooseAction', plane: plane.id, action }, `plane ${plane.id} chooses ${ACTION_WORDS[action]}`);
    }
    if (action === 'search') return send(c, { type: 'search', plane: plane.id }, `plane ${plane.id} searches`);
    if (action === 'takeoffLanding' && plane.position.at === 'approach') return send(c, { type: 'land', plane: plane.id }, `plane ${plane.id} lands`);
    const needs = action === 'attack' ? 'a target' : action === 'move' ? 'a destination' : 'a destination and a load';
    return refuse(c, `plane ${plane.id}: ${ACTION_WORDS[action]} needs ${needs}: choose it on the dashboard`);
  }

  if (event.button !== 'confirm') return refuse(c, `unknown button ${JSON.stringify(event.button)}`);
  if (game.roll) {
    if (event.press === 'long') return refuse(c, 'finish the roll in progress first (short Confirm)');
    return send(c, { type: 'confirmRoll' }, 'roll confirmed');
  }
  if (game.phase === 'japanese' || setupDraw) {
    if (game.deck.mode === 'digital') return send(c, { type: 'drawCard' }, 'draw the Japanese card');
    return refuse(c, 'enter the card you drew on the dashboard');
  }
  if (event.press === 'long') return send({ selectedPlane: null }, { type: 'endTurn' }, 'end of the turn');
  const waiting = game.planes.filter((p) => !p.destroyed && !p.done).map((p) => p.id);
  if (waiting.length === 0) return send({ selectedPlane: null }, { type: 'endTurn' }, 'end of the turn');
  return refuse(c, `plane${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} still to act (hold Confirm to end the turn anyway)`);
}
