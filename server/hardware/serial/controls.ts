/**
 * Box buttons -> Yorktown table commands, given the game state. Pure: the service keeps the
 * ControlsState (which plane is selected) between presses and sends the command, if any.
 *
 * | button           | short press                                                        | long press                      |
 * |------------------|--------------------------------------------------------------------|---------------------------------|
 * | plane 1..4       | select that plane (press again: deselect)                          | skipAction {plane} (*)          |
 * | move/attack/     | chooseAction {selected plane, action} (***); if that action is      | same as short                   |
 * | search/tol       | already chosen: search -> search {plane}; attack -> attack {plane, |                                 |
 * |                  | target} when the engine would take one target only, else each      |                                 |
 * |                  | press shows the next target (**); from the approach area           |                                 |
 * |                  | take-off/landing lands; move, and take-off/landing on the deck,    |                                 |
 * |                  | step through the places the plane can go (box-destinations.ts):    |                                 |
 * |                  | each press shows the next, Confirm goes (**)                       |                                 |
 * | confirm          | a choice shown (**) -> move / takeOff / attack; roll in progress ->| endTurn (plane phase, no roll)  |
 * |                  | confirmRoll; Japanese phase or set-up draws, digital deck ->       | (*)                             |
 * |                  | drawCard; plane phase, every plane done -> endTurn                 |                                 |
 * | undo             | a choice shown (**): forget it; else undo                          | clear the plane selection       |
 *
 * (*) A skip that would crash a plane (not enough fuel to stay up: skip-cost.ts) is only warned of by
 * the first long press; the same long press again within HOLD_AGAIN_MS does it.
 * (**) A move goes to an island one white line away, then the approach area, then two islands away
 * (over the first empty island between); a take-off to the approach area, then each red island, each
 * with the plane's load, then with the other loads it may take; an attack to each target the engine
 * would take (attack-targets.ts's order). Any press but that action's button, Confirm and Undo forgets
 * the choice shown and does what it does.
 * Right after a plane's move (or take-off) into a space with Japanese planes, Attack makes its lightning
 * attack; after one into the approach area with no fuel left, Take-off/Landing its emergency landing.
 * (***) An action that cannot do anything from where the plane is (futile-action.ts, the dashboard's
 * note on the choice) is refused with the reason; one that the other planes' actions this turn may
 * still make possible is only warned of, and chosen by the same button again within HOLD_AGAIN_MS.
 *
 * With no game on the table (or one over), a long Confirm starts a new game (newGame: the table's
 * last game's players, deck, difficulty and expansions when the service gives them, else four planes
 * and the digital deck; the table's rule settings); any other press says so.
 *
 * Each outcome says what the press did, or why it did nothing, as a note: a key and its parameters
 * (the dashboard words it in the page's language) and the English text (the log, the virtual box's
 * answer). The engine still validates every command; these checks only avoid sending hopeless ones
 * and give the players a reason at once.
 */
import type { ActionChance } from '../../games/yorktown1942/action-odds.ts';
import { futileAction, type FutileReason } from '../../games/yorktown1942/futile-action.ts';
import { attackCandidates, candidatesLike, moveCandidates, nextCandidate, sameCandidate, takeOffCandidates, type BoxCandidate } from './box-destinations.ts';
import { skipCost } from '../../games/yorktown1942/skip-cost.ts';
import type { NewGameCommand, YorktownCommand } from '../../games/yorktown1942/commands.ts';
import type { ActionType, PlaneId } from '../../games/yorktown1942/types.ts';
import type { BoxButton, BuzzerCue, ButtonEvent } from '../ports.ts';
import type { BoxGameView, BoxPlaneView } from './game-view.ts';

/** A press warned of (a long press that would crash planes, an action that may do nothing): the same press before `until` does it. */
export interface ArmedPress {
  command: 'skipAction' | 'endTurn' | 'hopelessAttack' | ActionType;
  plane: PlaneId | null;
  until: number;
}

export interface ControlsState {
  selectedPlane: PlaneId | null;
  /** every other press disarms it */
  armed?: ArmedPress | null;
  /** the move or take-off shown, which Confirm makes */
  pending?: BoxCandidate | null;
}

export const INITIAL_CONTROLS: ControlsState = { selectedPlane: null };

/** How long a crash warning waits for its second long press (ms). */
export const HOLD_AGAIN_MS = 5000;

/** The choices of a game to start again from the box (a newGame without its seed, islands and rule values). */
export type NewGameChoices = Pick<NewGameCommand, 'players' | 'inexperienced' | 'difficulty' | 'expansions' | 'deck' | 'planeSeats'>;

export interface PressContext {
  /** the table's last game's choices (null: none played yet: a long Confirm starts the standard game) */
  lastGame?: NewGameChoices | null;
  /** the chances of the rolls the planes' actions would start (action-odds.ts, as the dashboard's buttons say them) */
  chances?: readonly Pick<ActionChance, 'plane' | 'kind' | 'chance' | 'dice' | 'fewestEqual'>[];
}

export type NoteParams = Record<string, string | number>;

const ACTION_WORDS: Record<ActionType, string> = { move: 'move', attack: 'attack', search: 'search', takeoffLanding: 'take-off/landing' };
const TARGET_WORDS: Record<string, string> = { planes: 'the Japanese planes here', cap: 'the CAP', shoho: 'the Shōhō' };
const targetWords = (targets: string | number) => String(targets).split(', ').map((x) => TARGET_WORDS[x] ?? x).join(' or ');
/** The dashboard's words on a choice that may do nothing (`futile<Reason>`). */
const FUTILE_WORDS: Record<FutileReason, string> = {
  onDeck: 'on the deck: take off first',
  nothingToAttack: 'nothing to attack here',
  notLocated: 'the Shōhō is not located yet',
  notOrange: 'not an orange island',
  landFromApproach: 'lands from the approach area',
  deckTaken: 'the flight deck is taken this turn',
  noFuel: 'not enough fuel',
};
const LOAD_WORDS: Record<string, string> = { none: 'no load', bomb: 'a bomb', dropTank: 'a drop tank' };
const placeWords = (p: NoteParams) => (p.to === 'approach' ? 'the approach area' : `island ${p.to}${p.via === undefined ? '' : ` over island ${p.via}`}`);

/** Every note a press can give, in English; the dashboard has the same keys in its dictionaries (`boxNote_<key>`). */
const NOTES = {
  selectionCleared: () => 'plane selection cleared',
  undo: () => 'the last command undone',
  newGameStandard: () => 'a new game: four planes, draw the first card (Confirm)',
  newGameLast: (p) => `a new game like the last one: ${p.players} player${p.players === 1 ? '' : 's'}, ${p.deck} deck${p.difficulty ? `, ${p.difficulty} minutes` : ''}${p.expansions ? `, ${p.expansions}` : ''}`,
  gameOverTime: () => 'the game is over: hold Confirm for a new one',
  gameOver: () => 'the game is over: hold Confirm for a new one, or press Undo to take back the move that ended it',
  noGame: () => 'no game is running: hold Confirm to start one, or set one up on the dashboard',
  noSuchPlane: (p) => `there is no plane ${p.plane} in this game`,
  planeDestroyed: (p) => `plane ${p.plane} is destroyed`,
  skip: (p) => `plane ${p.plane} skips its action`,
  skipCrashesHoldAgain: (p) => `plane ${p.plane} has ${p.fuel} fuel: skipping costs ${p.cost} and crashes it (hold again to skip anyway)`,
  endTurnCrashesHoldAgain: (p) => `plane${String(p.planes).includes(',') ? 's' : ''} ${p.planes} would crash for want of fuel (hold Confirm again to end the turn anyway)`,
  deselected: (p) => `plane ${p.plane} deselected`,
  selected: (p) => `plane ${p.plane} selected`,
  notPlanePhase: () => 'actions are chosen in the plane phase',
  pressPlaneFirst: () => 'press a plane button first',
  finishRoll: () => 'finish the roll in progress first (Confirm)',
  alreadyActed: (p) => `plane ${p.plane} has already acted this turn`,
  lightningAttack: (p) => `plane ${p.plane} makes a lightning attack on the Japanese planes here`,
  emergencyLanding: (p) => `plane ${p.plane} makes an emergency landing`,
  chooses: (p) => `plane ${p.plane} chooses ${ACTION_WORDS[p.action as ActionType]}`,
  futileChoice: (p) => `plane ${p.plane} cannot choose ${ACTION_WORDS[p.action as ActionType]} now: ${FUTILE_WORDS[p.reason as FutileReason]}`,
  futileChoicePressAgain: (p) => `plane ${p.plane}'s ${ACTION_WORDS[p.action as ActionType]} may do nothing: ${FUTILE_WORDS[p.reason as FutileReason]} (press it again to choose it anyway)`,
  searches: (p) => `plane ${p.plane} searches`,
  lands: (p) => `plane ${p.plane} lands`,
  takeOffCandidate: (p) => `plane ${p.plane} takes off → ${placeWords(p)} with ${LOAD_WORDS[p.load!]} (${p.fuel} fuel): Confirm to take off, Land / Take off for the next`,
  takesOff: (p) => `plane ${p.plane} takes off to ${placeWords(p)} with ${LOAD_WORDS[p.load!]}`,
  takesOffLightning: (p) => `plane ${p.plane} takes off to ${placeWords(p)} with ${LOAD_WORDS[p.load!]}: Attack now makes a lightning attack on the Japanese planes there`,
  cannotTakeOff: (p) => `plane ${p.plane} has not the fuel to take off`,
  landFromApproach: (p) => `plane ${p.plane}: landing is done from the approach area: move there first`,
  attacks: (p) => `plane ${p.plane} attacks ${targetWords(p.target!)}`,
  attackFromDeck: (p) => `plane ${p.plane} is on the flight deck: it must take off before it can attack`,
  nothingToAttack: (p) => `plane ${p.plane} has nothing to attack here`,
  attackHopelessPressAgain: (p) => `plane ${p.plane}'s attack cannot hit: ${p.dice} dice, and ${p.n} equal dice are needed (press again to attack anyway: its 1s still cost fuel)`,
  targetCandidate: (p) => `plane ${p.plane} → ${targetWords(p.target!)}: Confirm to attack, Attack for the next target`,
  moveCandidate: (p) => `plane ${p.plane} → ${placeWords(p)} (${p.fuel} fuel): Confirm to move, Move for the next`,
  moves: (p) => `plane ${p.plane} moves to ${placeWords(p)}`,
  movesLightning: (p) => `plane ${p.plane} moves to ${placeWords(p)}: Attack now makes a lightning attack on the Japanese planes there`,
  movesEmergency: (p) => `plane ${p.plane} moves to ${placeWords(p)} with no fuel left: Land / Take off now makes an emergency landing`,
  moveFromDeck: (p) => `plane ${p.plane} is on the flight deck: it must take off before it can move`,
  nowhereToMove: (p) => `plane ${p.plane} has nowhere to move: every way is blocked by Japanese planes or costs more than its ${p.fuel} fuel`,
  choiceGone: (p) => `plane ${p.plane} can no longer do what the box showed: press its action again`,
  choiceCancelled: (p) => `plane ${p.plane}: the choice shown is forgotten`,
  unknownButton: (p) => `unknown button ${p.button}`,
  finishRollShort: () => 'finish the roll in progress first (short Confirm)',
  rollConfirmed: () => 'roll confirmed',
  drawCard: () => 'Japanese card drawn',
  enterCard: () => 'enter the card you drew on the dashboard',
  endTurn: () => 'end of the turn',
  othersChooseFirst: (p) => `every plane chooses its action before any acts: plane${String(p.planes).includes(',') ? 's' : ''} ${p.planes} still to choose`,
  stillToAct: (p) => `plane${String(p.planes).includes(',') ? 's' : ''} ${p.planes} still to act (hold Confirm to end the turn anyway)`,
} satisfies Record<string, (p: NoteParams) => string>;

export type NoteKey = keyof typeof NOTES;

/** Every note key (the dashboard must have words for each). */
export const NOTE_KEYS = Object.keys(NOTES) as NoteKey[];

export interface ControlOutcome {
  controls: ControlsState;
  /** the command to send to the table, or null */
  command: YorktownCommand | null;
  /** what the press did or why it did nothing, in English */
  note: string;
  /** the same note as a key and its parameters, for the dashboard's words */
  noteKey: NoteKey;
  noteParams: NoteParams;
  /** cue for the buzzer: 'tick' handled on the box side, 'fail' refused; null when a command goes out (its result decides) */
  cue: BuzzerCue | null;
}

function outcome(controls: ControlsState, command: YorktownCommand | null, cue: BuzzerCue | null, key: NoteKey, params: NoteParams = {}): ControlOutcome {
  return { controls, command, note: NOTES[key](params), noteKey: key, noteParams: params, cue };
}

function refuse(controls: ControlsState, key: NoteKey, params?: NoteParams): ControlOutcome {
  return outcome(controls, null, 'fail', key, params);
}

function send(controls: ControlsState, command: YorktownCommand, key: NoteKey, params?: NoteParams): ControlOutcome {
  return outcome(controls, command, null, key, params);
}

function tick(controls: ControlsState, key: NoteKey, params?: NoteParams): ControlOutcome {
  return outcome(controls, null, 'tick', key, params);
}

const PLANE_BUTTONS: Partial<Record<BoxButton, PlaneId>> = { plane1: 1, plane2: 2, plane3: 3, plane4: 4 };
const ACTION_BUTTONS: Partial<Record<BoxButton, ActionType>> = { move: 'move', attack: 'attack', search: 'search', takeoffLanding: 'takeoffLanding' };

function planeOf(game: BoxGameView, id: PlaneId | null): BoxPlaneView | undefined {
  return id === null ? undefined : game.planes.find((p) => p.id === id);
}

function newGame(lastGame: NewGameChoices | null | undefined): ControlOutcome {
  const none = { selectedPlane: null };
  if (!lastGame) return send(none, { type: 'newGame', players: 4 }, 'newGameStandard');
  const command: NewGameCommand = { type: 'newGame', ...structuredClone(lastGame) };
  const expansions = Object.entries(lastGame.expansions ?? {}).filter(([, on]) => on).map(([name]) => name).join(', ');
  return send(none, command, 'newGameLast', { players: lastGame.players, deck: lastGame.deck ?? 'digital', difficulty: lastGame.difficulty ?? '', expansions });
}

/** What a move or take-off says of where it goes: the plane, the place (`to`, `via`), the load taken off with, the fuel. */
function candidateParams({ command, fuel }: BoxCandidate): NoteParams {
  if (command.type === 'attack') return { plane: command.plane, target: command.target };
  const params: NoteParams = { plane: command.plane, to: command.to, fuel };
  if (command.type === 'move' && command.via !== undefined) params.via = command.via;
  if (command.type === 'takeOff') params.load = command.load ?? 'none';
  return params;
}

/** The move or take-off shown for Confirm, in words (the table screen's too); null: none. */
export function shownChoice(controls: ControlsState): { key: NoteKey; params: NoteParams; text: string } | null {
  if (!controls.pending) return null;
  const key = CANDIDATE_NOTES[controls.pending.command.type];
  const params = candidateParams(controls.pending);
  return { key, params, text: NOTES[key](params) };
}

const CANDIDATE_NOTES = { move: 'moveCandidate', takeOff: 'takeOffCandidate', attack: 'targetCandidate' } as const;
const CANDIDATE_SENT = { move: 'moves', takeOff: 'takesOff', attack: 'attacks' } as const;

/** The next place a move or take-off can go (or target an attack can take), shown for Confirm (the first when another was shown, or none). */
function stepCandidate(controls: ControlsState, plane: BoxPlaneView, candidates: BoxCandidate[], pending: BoxCandidate | null | undefined): ControlOutcome {
  const next = nextCandidate(candidates, pending ?? null);
  if (!next) return refuse(controls, plane.position.at === 'deck' ? 'cannotTakeOff' : 'nowhereToMove', { plane: plane.id, fuel: plane.fuel });
  const showing = { ...controls, pending: next };
  const { key, params } = shownChoice(showing)!;
  return tick(showing, key, params);
}

/** Can the plane still make the move, take-off or attack shown (the game as it is now)? */
function stillOpen(game: BoxGameView | null, pending: BoxCandidate): boolean {
  if (game === null || game.phase !== 'planes' || game.roll) return false;
  const plane = planeOf(game, pending.command.plane);
  const open = plane && !plane.done ? candidatesLike(game, plane, pending.command) : [];
  return open.some((c) => sameCandidate(c, pending));
}

/**
 * The table changed by someone else (the dashboard, a phone, an Undo): a choice shown that the plane can no
 * longer make (a place, a target) is forgotten, so that the box and the table screen do not show it for
 * Confirm. The same object when nothing changes.
 */
export function controlsAfterChange(controls: ControlsState, game: BoxGameView | null): ControlsState {
  return controls.pending && !stillOpen(game, controls.pending) ? { ...controls, pending: null } : controls;
}

/** What a move or take-off made from the box says, with what the box offers right after it (a lightning attack, an emergency landing). */
function sentKey(game: BoxGameView, { command, fuel }: BoxCandidate): NoteKey {
  if (command.type === 'attack') return 'attacks';
  const into = command.to === 'approach' ? null : game.islands.find((i) => i.id === command.to);
  if (into && into.japanese.length > 0) return command.type === 'move' ? 'movesLightning' : 'takesOffLightning';
  const plane = planeOf(game, command.plane);
  if (command.type === 'move' && command.to === 'approach' && plane && plane.fuel - fuel <= 0) return 'movesEmergency';
  return CANDIDATE_SENT[command.type];
}

/** Confirm with a choice shown: the move or take-off there, or the attack on that target, if the plane can still make it. */
function makeCandidate(game: BoxGameView, controls: ControlsState, pending: BoxCandidate): ControlOutcome {
  if (!stillOpen(game, pending)) return refuse(controls, 'choiceGone', { plane: pending.command.plane });
  return send(controls, pending.command, sentKey(game, pending), candidateParams(pending));
}

/** The selected plane's chosen action pressed again: the command when the box can give it whole, else why not. */
function carryOut(game: BoxGameView, controls: ControlsState, plane: BoxPlaneView, action: ActionType, pending: BoxCandidate | null | undefined): ControlOutcome {
  const p = { plane: plane.id };
  const shown = pending?.command.plane === plane.id ? pending : null;
  // every plane chooses before any acts (the engine's rule): said before a place or target is offered for Confirm
  const unchosen = game.planes.filter((x) => !x.destroyed && x.action === null).map((x) => x.id);
  if (unchosen.length > 0) return refuse(controls, 'othersChooseFirst', { ...p, planes: unchosen.join(', ') });
  switch (action) {
    case 'search':
      return send(controls, { type: 'search', plane: plane.id }, 'searches', p);
    case 'takeoffLanding':
      if (plane.position.at === 'approach') return send(controls, { type: 'land', plane: plane.id }, 'lands', p);
      if (plane.position.at === 'deck') return stepCandidate(controls, plane, takeOffCandidates(game, plane), shown?.command.type === 'takeOff' ? shown : null);
      return refuse(controls, 'landFromApproach', p);
    case 'attack': {
      if (plane.position.at === 'deck') return refuse(controls, 'attackFromDeck', p);
      const targets = attackCandidates(game, plane);
      if (targets.length === 0) return refuse(controls, 'nothingToAttack', p);
      // more than one (the CAP or the Shōhō): each press shows the next, Confirm attacks it
      if (targets.length > 1) return stepCandidate(controls, plane, targets, shown?.command.type === 'attack' ? shown : null);
      return send(controls, targets[0]!.command, 'attacks', candidateParams(targets[0]!));
    }
    case 'move':
      if (plane.position.at === 'deck') return refuse(controls, 'moveFromDeck', p);
      return stepCandidate(controls, plane, moveCandidates(game, plane), shown?.command.type === 'move' ? shown : null);
  }
}

/** Right after the plane's move: Attack makes its lightning attack (on the island's planes, its only target), Take-off/Landing its emergency landing. */
function afterMove(game: BoxGameView, controls: ControlsState, plane: BoxPlaneView, action: ActionType): ControlOutcome | null {
  const open = game.afterMove?.plane === plane.id ? game.afterMove : null;
  if (action === 'attack' && open?.lightningAttack) return send(controls, { type: 'lightningAttack', plane: plane.id }, 'lightningAttack', { plane: plane.id });
  if (action === 'takeoffLanding' && open?.emergencyLanding) return send(controls, { type: 'emergencyLanding', plane: plane.id }, 'emergencyLanding', { plane: plane.id });
  return null;
}

/**
 * An attack no roll of its dice can win (more equal dice needed than it has: the dashboard's "cannot hit"), only
 * warned of: the same press again within HOLD_AGAIN_MS makes it (its 1s still cost fuel). `controls`: as before the press.
 */
function hopelessFirst(outcome: ControlOutcome, controls: ControlsState, context: PressContext, at: number): ControlOutcome {
  const command = outcome.command;
  if (command?.type !== 'attack' && command?.type !== 'lightningAttack') return outcome;
  const kind = command.type === 'lightningAttack' ? 'lightning' : command.target;
  const chance = context.chances?.find((c) => c.plane === command.plane && c.kind === kind);
  if (!chance || chance.chance !== 0 || armedFor(controls.armed, 'hopelessAttack', command.plane, at)) return outcome;
  return refuse(arm(controls, 'hopelessAttack', command.plane, at), 'attackHopelessPressAgain', { plane: command.plane, dice: chance.dice, n: chance.fewestEqual });
}

/** An action chosen for the plane, unless it cannot do anything from where the plane is (or may not, and was not pressed again). */
function choose(game: BoxGameView, controls: ControlsState, plane: BoxPlaneView, action: ActionType, armed: ArmedPress | null | undefined, at: number): ControlOutcome {
  const p = { plane: plane.id, action };
  const futile = futileAction(game, game.rules, plane, action);
  if (futile && !futile.later) return refuse(controls, 'futileChoice', { ...p, reason: futile.reason });
  if (futile && !armedFor(armed, action, plane.id, at)) return refuse(arm(controls, action, plane.id, at), 'futileChoicePressAgain', { ...p, reason: futile.reason });
  return send(controls, { type: 'chooseAction', plane: plane.id, action }, 'chooses', p);
}

function armedFor(armed: ArmedPress | null | undefined, command: ArmedPress['command'], plane: PlaneId | null, at: number): boolean {
  return !!armed && armed.command === command && armed.plane === plane && at <= armed.until;
}

function arm(controls: ControlsState, command: ArmedPress['command'], plane: PlaneId | null, at: number): ControlsState {
  return { ...controls, armed: { command, plane, until: at + HOLD_AGAIN_MS } };
}

export function buttonToCommand(event: ButtonEvent, game: BoxGameView | null, controls: ControlsState, context: PressContext = {}): ControlOutcome {
  const { armed, pending } = controls;
  // a selection that no longer makes sense (plane destroyed, game gone) is dropped first
  let c: ControlsState = { selectedPlane: controls.selectedPlane };
  const selected = game ? planeOf(game, c.selectedPlane) : undefined;
  if (c.selectedPlane !== null && (!selected || selected.destroyed)) c = { selectedPlane: null };

  if (event.button === 'undo') {
    if (event.press === 'long') return tick({ selectedPlane: null }, 'selectionCleared');
    if (pending) return tick(c, 'choiceCancelled', { plane: pending.command.plane });
    return send(c, { type: 'undo' }, 'undo');
  }
  const setupDraw = game?.phase === 'setup' && game.setup !== null && (game.setupDraws ?? 0) > 0;
  if (!game || (game.phase === 'setup' && !setupDraw) || game.phase === 'over') {
    if (event.button === 'confirm' && event.press === 'long') return newGame(context.lastGame);
    if (game?.phase !== 'over') return refuse(c, 'noGame');
    return refuse(c, game.outcome?.cause === 'time' ? 'gameOverTime' : 'gameOver');
  }

  const planeId = PLANE_BUTTONS[event.button];
  if (planeId !== undefined) {
    const plane = planeOf(game, planeId);
    const p = { plane: planeId };
    if (!plane) return refuse(c, 'noSuchPlane', p);
    if (plane.destroyed) return refuse(c, 'planeDestroyed', p);
    if (event.press === 'long') {
      const cost = skipCost(game, game.rules, plane, 'skipAction');
      const engineWouldTake = game.phase === 'planes' && !game.roll && !plane.done;
      if (engineWouldTake && cost.crashes && !armedFor(armed, 'skipAction', planeId, event.at)) {
        return refuse(arm({ ...c, selectedPlane: planeId }, 'skipAction', planeId, event.at), 'skipCrashesHoldAgain', { ...p, fuel: plane.fuel, cost: cost.fuel });
      }
      return send({ ...c, selectedPlane: planeId }, { type: 'skipAction', plane: planeId }, 'skip', p);
    }
    if (c.selectedPlane === planeId) return tick({ selectedPlane: null }, 'deselected', p);
    return tick({ selectedPlane: planeId }, 'selected', p);
  }

  const action = ACTION_BUTTONS[event.button];
  if (action !== undefined) {
    if (game.phase !== 'planes') return refuse(c, 'notPlanePhase');
    const plane = planeOf(game, c.selectedPlane);
    if (!plane) return refuse(c, 'pressPlaneFirst');
    if (game.roll) return refuse(c, 'finishRoll');
    if (plane.done) return hopelessFirst(afterMove(game, c, plane, action) ?? refuse(c, 'alreadyActed', { plane: plane.id }), controls, context, event.at);
    if (plane.action !== action) return choose(game, c, plane, action, armed, event.at);
    return hopelessFirst(carryOut(game, c, plane, action, pending), controls, context, event.at);
  }

  if (event.button !== 'confirm') return refuse(c, 'unknownButton', { button: JSON.stringify(event.button) });
  if (pending && event.press === 'short' && game.phase === 'planes' && !game.roll) return hopelessFirst(makeCandidate(game, c, pending), controls, context, event.at);
  if (game.roll) {
    if (event.press === 'long') return refuse(c, 'finishRollShort');
    return send(c, { type: 'confirmRoll' }, 'rollConfirmed');
  }
  if (game.phase === 'japanese' || setupDraw) {
    if (game.deck.mode === 'digital') return send(c, { type: 'drawCard' }, 'drawCard');
    return refuse(c, 'enterCard');
  }
  if (event.press === 'long') {
    const crashing = game.planes.filter((p) => !p.destroyed && !p.done && skipCost(game, game.rules, p, 'endTurn').crashes).map((p) => p.id);
    if (crashing.length > 0 && !armedFor(armed, 'endTurn', null, event.at)) return refuse(arm(c, 'endTurn', null, event.at), 'endTurnCrashesHoldAgain', { planes: crashing.join(', ') });
    return send({ selectedPlane: null }, { type: 'endTurn' }, 'endTurn');
  }
  const waiting = game.planes.filter((p) => !p.destroyed && !p.done).map((p) => p.id);
  if (waiting.length === 0) return send({ selectedPlane: null }, { type: 'endTurn' }, 'endTurn');
  return refuse(c, 'stillToAct', { planes: waiting.join(', ') });
}
