/** apply(state, command, at): the one entry point of the rules engine. Pure: a rejected command changes nothing. */
import type { ApplyResult, CommandRejection } from '../game-module.ts';
import { cloneState, emit, Rejection, reject, type Ctx, type YorktownEvent } from './context.ts';
import { commandTypes, type YorktownCommand } from './commands.ts';
import { drawnCard, resolveCard, setupCard } from './japanese.ts';
import { endGame } from './planes.ts';
import { confirmRoll, readDice, startYorktownAttackRoll } from './rolls.ts';
import { newGame } from './setup.ts';
import {
  attack,
  chooseAction,
  dropLoad,
  emergencyLanding,
  land,
  lightningAttack,
  move,
  revealWeather,
  search,
  skipAction,
  skipPlane,
  takeOff,
  useDropTank,
} from './actions.ts';
import type { YorktownState } from './types.ts';

const DURING_ROLL = new Set(['dice', 'confirmRoll', 'timeUp', 'newGame']);

function endTurn(ctx: Ctx): void {
  const state = ctx.state;
  if (state.phase !== 'planes') reject('wrongPhase', 'The turn ends after the player phase.');
  for (const plane of state.planes) {
    if (!plane.destroyed && !plane.done) skipPlane(ctx, plane, 'the turn ended before it acted');
    if (state.outcome) return;
  }
  emit(ctx, 'turnEnded', { turn: state.turn });
  state.turn += 1;
  state.phase = 'japanese';
  state.takeoffsLandingsThisTurn = 0;
  state.actionsStarted = false;
  state.afterMove = null;
  for (const plane of state.planes) {
    plane.action = null;
    plane.done = plane.destroyed;
    plane.skipped = false;
  }
  emit(ctx, 'phaseChanged', { phase: 'japanese', turn: state.turn });
}

function drawOrTell(ctx: Ctx, command: YorktownCommand & { type: 'drawCard' | 'cardDrawn' }): void {
  const state = ctx.state;
  if (state.phase === 'setup') {
    setupCard(ctx, drawnCard(ctx, command));
    return;
  }
  if (state.phase !== 'japanese') reject('wrongPhase', 'A Japanese card is drawn at the start of the turn, in the Japanese phase.');
  resolveCard(ctx, drawnCard(ctx, command), (dice) => startYorktownAttackRoll(ctx, dice));
}

function dispatch(ctx: Ctx, command: YorktownCommand): void {
  switch (command.type) {
    case 'newGame':
      return newGame(ctx, command);
    case 'drawCard':
    case 'cardDrawn':
      return drawOrTell(ctx, command);
    case 'chooseAction':
      return chooseAction(ctx, command);
    case 'takeOff':
      return takeOff(ctx, command);
    case 'land':
      return land(ctx, command);
    case 'move':
      return move(ctx, command);
    case 'search':
      return search(ctx, command);
    case 'revealWeather':
      return revealWeather(ctx, command);
    case 'attack':
      return attack(ctx, command);
    case 'lightningAttack':
      return lightningAttack(ctx, command);
    case 'emergencyLanding':
      return emergencyLanding(ctx, command);
    case 'dropLoad':
      return dropLoad(ctx, command);
    case 'useDropTank':
      return useDropTank(ctx, command);
    case 'dice':
      return readDice(ctx, command.faces);
    case 'confirmRoll':
      return confirmRoll(ctx, command);
    case 'skipAction':
      return skipAction(ctx, command);
    case 'endTurn':
      return endTurn(ctx);
    case 'timeUp':
      // the stopwatch's own (Table.timeUp); apply() ends the game on time once the deadline has passed
      if (ctx.state.deadline === null) reject('timeNotUp', 'The time is not up: the stopwatch has not started yet (it starts once the set-up cards are placed).');
      if (ctx.at < ctx.state.deadline) {
        const left = Math.ceil((ctx.state.deadline - ctx.at) / 1000);
        reject('timeNotUp', `The time is not up: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left on the stopwatch. The game ends on time only when the stopwatch runs out; to give up, abandon the game or start a new one.`);
      }
      if (ctx.state.outcome === null) endGame(ctx, 'lost', 'time');
      return;
    case 'undo':
      return reject('undoNotHere', 'Undo is handled by the table journal.');
  }
}

/** Shape checks the JSON schemas also make, so a command from anywhere is safe to apply. */
const ACTION_NAMES = ['search', 'takeoffLanding', 'attack', 'move'] as const;
const LOAD_NAMES = ['none', 'bomb', 'dropTank'] as const;
const PLANE_NAMES = ['jake', 'kate', 'zeke'] as const;
const EVENT_NAMES = ['none', 'cap', 'shohoMoves'] as const;

function checkShape(command: unknown): YorktownCommand {
  if (typeof command !== 'object' || command === null || Array.isArray(command)) reject('badCommand', 'A command is an object with a "type".');
  const type = (command as { type?: unknown }).type;
  if (typeof type !== 'string' || !(commandTypes as string[]).includes(type)) {
    reject('unknownCommand', `Unknown command "${String(type)}".`);
  }
  const c = command as Record<string, unknown>;
  if ('plane' in c && !(Number.isInteger(c.plane) && (c.plane as number) >= 1 && (c.plane as number) <= 4)) {
    reject('badCommand', `"${String(c.plane)}" is not a plane: planes are numbered 1 to 4.`);
  }
  if (type === 'dice' && !Array.isArray(c.faces)) reject('badCommand', 'A dice reading lists the faces showing, e.g. [3, 5, 5, 1].');
  // the shapes that would otherwise reach the rules unchecked (the service checks every command against
  // commandSchemas first; a journal replayed, the simulation or a test calls the engine directly)
  if (type === 'chooseAction' && !(ACTION_NAMES as readonly unknown[]).includes(c.action)) reject('badCommand', `"${String(c.action)}" is not an action: ${ACTION_NAMES.join(', ')}.`);
  if (type === 'takeOff' && c.load !== undefined && !(LOAD_NAMES as readonly unknown[]).includes(c.load)) reject('badCommand', `"${String(c.load)}" is not a load: ${LOAD_NAMES.join(', ')}.`);
  if (type === 'cardDrawn' && c.card !== undefined) {
    const card = c.card as { islands?: unknown; plane?: unknown; event?: unknown } | null;
    const islands = card?.islands;
    if (!Array.isArray(islands) || islands.length < 1 || islands.length > 2 || !islands.every((i) => Number.isInteger(i))) {
      reject('badCommand', 'A Japanese card shows one or two islands, by number.');
    }
    if (!(PLANE_NAMES as readonly unknown[]).includes(card?.plane)) reject('badCommand', `"${String(card?.plane)}" is not a Japanese plane: ${PLANE_NAMES.join(', ')}.`);
    if (card?.event !== undefined && !(EVENT_NAMES as readonly unknown[]).includes(card.event)) reject('badCommand', `"${String(card.event)}" is not a card event: ${EVENT_NAMES.join(', ')}.`);
  }
  if (type === 'newGame' && !Number.isInteger(c.players)) reject('badCommand', 'Say how many players play (1 to 4).');
  return command as YorktownCommand;
}

export function apply(state: YorktownState, rawCommand: YorktownCommand, at: number): ApplyResult<YorktownState, YorktownEvent> {
  try {
    const command = checkShape(rawCommand);
    if (!Number.isFinite(at)) reject('badTime', 'The command has no valid time.');
    const ctx: Ctx = { state: cloneState(state), rules: state.rules, events: [], at };
    if (command.type !== 'newGame') {
      if (ctx.state.setup === null) reject('noGame', 'No game is running: start a new game first.');
      if (ctx.state.outcome) {
        const o = ctx.state.outcome;
        reject('gameOver', `The game is over (${o.result === 'won' ? 'won: the Shōhō is sunk' : `lost: ${LOSS_WORDS[o.cause]}`}). Start a new game.`, {
          result: o.result,
          cause: o.result === 'won' ? 'shohoSunk' : o.cause,
        });
      }
      if (ctx.state.deadline !== null && at >= ctx.state.deadline) {
        endGame(ctx, 'lost', 'time');
        return { ok: true, state: ctx.state, events: ctx.events };
      }
      if (ctx.state.roll && !DURING_ROLL.has(command.type)) {
        const what = ROLL_WORDS[ctx.state.roll.purpose]!;
        reject('rollInProgress', `${/^[aeiou]/.test(what) ? 'An' : 'A'} ${what} roll is under way: read the dice and confirm it first.`, {
          purpose: ctx.state.roll.purpose,
        });
      }
    }
    dispatch(ctx, command);
    return { ok: true, state: ctx.state, events: ctx.events };
  } catch (err) {
    if (err instanceof Rejection) {
      return { ok: false, error: { code: err.code, message: err.message, ...(err.params ? { params: err.params } : {}) } satisfies CommandRejection };
    }
    throw err;
  }
}

const LOSS_WORDS: Record<string, string> = {
  time: 'time ran out',
  yorktownSunk: 'the Yorktown was sunk',
  allPlanesDestroyed: 'every plane was destroyed',
  shohoSunk: 'the Shōhō is sunk',
};

const ROLL_WORDS: Record<string, string> = {
  search: 'search',
  landing: 'landing',
  emergencyLanding: 'emergency landing',
  attack: 'attack',
  lightningAttack: 'lightning attack',
  cap: 'CAP attack',
  shoho: 'Shōhō attack',
  weather: 'weather',
  yorktownAttack: 'Japanese attack',
};
