/**
 * The commands a 1942 USS Yorktown table accepts, and one JSON schema (draft-07) per command.
 * The HTTP/socket layer validates with `commandSchemas`; the engine validates again and
 * explains in words why a well-formed command is not allowed now.
 */
import type { JsonSchema } from '../game-module.ts';
import type { ActionType, Difficulty, IslandId, JapaneseType, Load, ManoeuvreId, PlaneId, Seat, WeatherId } from './types.ts';

/**
 * Using an expert manoeuvre tile: `true` uses the tile the engine dealt to the plane (digital deal);
 * a tile id names the tile the player turned over (physical tiles the engine never saw).
 */
export type ManoeuvreUse = true | ManoeuvreId;

/** Attack targets: the Japanese planes in the plane's space, the CAP fighters, or the Shōhō. */
export type AttackTarget = 'planes' | 'cap' | 'shoho';

export type NewGameCommand = {
  type: 'newGame';
  /** seed of the PRNG (digital deck, manoeuvre tiles, weather tokens); default: the command's wall-clock time */
  seed?: number;
  players: 1 | 2 | 3 | 4;
  inexperienced?: number;
  difficulty?: Difficulty;
  expansions?: { expertManoeuvres?: boolean; dropTank?: boolean; weather?: boolean };
  deck?: 'digital' | 'physical';
  /** which seat flies each plane; default from the ruleset's seating for the player count */
  planeSeats?: Partial<Record<'1' | '2' | '3' | '4', Seat>>;
  /** the red islands where planes 3 and 4 start (the other two start in the approach area) */
  startIslands?: [IslandId, IslandId];
  /** corrections of rule values: {"path.to.value": newValue} */
  ruleOverrides?: Record<string, unknown>;
};

export type DrawCardCommand = {
  type: 'drawCard';
};

export type CardDrawnCommand = {
  type: 'cardDrawn';
  /** the id of a card in the deck data file, or the card's contents */
  cardId?: string;
  card?: { islands: IslandId[]; plane: JapaneseType; event?: 'none' | 'cap' | 'shohoMoves'; directHit?: boolean };
};

export type ChooseActionCommand = {
  type: 'chooseAction';
  plane: PlaneId;
  action: ActionType;
};

export type TakeOffCommand = {
  type: 'takeOff';
  plane: PlaneId;
  load?: Load;
  /** the approach area or a red island */
  to: 'approach' | IslandId;
};

export type LandCommand = {
  type: 'land';
  plane: PlaneId;
  /** discard the plane's expert manoeuvre tile to use it (Landing Ace) */
  manoeuvre?: ManoeuvreUse;
};

export type MoveCommand = {
  type: 'move';
  plane: PlaneId;
  /** destination: an island, or the approach area next to the Yorktown */
  to: 'approach' | IslandId;
  /** for a two-island move: the first island flown over */
  via?: IslandId;
  /** use the plane's expert manoeuvre (Invisible) */
  manoeuvre?: ManoeuvreUse;
};

export type SearchCommand = {
  type: 'search';
  plane: PlaneId;
  /** use the plane's expert manoeuvre (Hawk Eye or Efficient) */
  manoeuvre?: ManoeuvreUse;
};

export type RevealWeatherCommand = {
  type: 'revealWeather';
  plane: PlaneId;
  /** use the plane's expert manoeuvre (Efficient) */
  manoeuvre?: ManoeuvreUse;
};

export type AttackCommand = {
  type: 'attack';
  plane: PlaneId;
  target: AttackTarget;
  /** use the plane's expert manoeuvre (Decisive or Efficient) */
  manoeuvre?: ManoeuvreUse;
};

export type LightningAttackCommand = {
  type: 'lightningAttack';
  plane: PlaneId;
  /** use the plane's expert manoeuvre (Aggressive, Decisive or Efficient) */
  manoeuvre?: ManoeuvreUse;
};

export type EmergencyLandingCommand = {
  type: 'emergencyLanding';
  plane: PlaneId;
  /** use the plane's expert manoeuvre (Landing Ace) */
  manoeuvre?: ManoeuvreUse;
};

export type DropLoadCommand = {
  type: 'dropLoad';
  plane: PlaneId;
};

export type UseDropTankCommand = {
  type: 'useDropTank';
  plane: PlaneId;
};

export type DiceCommand = {
  type: 'dice';
  /** the faces now showing in the tray, one number 1..6 per die (locked 1s included) */
  faces: number[];
};

export type ConfirmRollCommand = {
  type: 'confirmRoll';
  /** attack split over several targets: the target ids to take (default: the best split) */
  assign?: string[];
  /** weather reveal in a physical game: the token that was turned over */
  weather?: WeatherId;
};

export type SkipActionCommand = {
  type: 'skipAction';
  plane: PlaneId;
};

export type EndTurnCommand = {
  type: 'endTurn';
};

export type TimeUpCommand = {
  type: 'timeUp';
};

export type UndoCommand = {
  type: 'undo';
  count?: number;
  /** the seat whose phone asked: the other pages name it */
  seat?: number;
  /** the seq of the command asked about: refused when another is the last by then */
  seq?: number;
};

export type YorktownCommand =
  | NewGameCommand
  | DrawCardCommand
  | CardDrawnCommand
  | ChooseActionCommand
  | TakeOffCommand
  | LandCommand
  | MoveCommand
  | SearchCommand
  | RevealWeatherCommand
  | AttackCommand
  | LightningAttackCommand
  | EmergencyLandingCommand
  | DropLoadCommand
  | UseDropTankCommand
  | DiceCommand
  | ConfirmRollCommand
  | SkipActionCommand
  | EndTurnCommand
  | TimeUpCommand
  | UndoCommand;

export type YorktownCommandType = YorktownCommand['type'];

const plane = { type: 'integer', minimum: 1, maximum: 4, description: 'plane number 1..4' };
const island = { type: 'integer', minimum: 1, maximum: 10, description: 'island number on the board' };
const manoeuvre = {
  description: "discard this plane's expert manoeuvre tile to use it: true (the dealt tile) or the tile's id (physical tiles)",
  oneOf: [{ const: true }, { enum: ['landingAce', 'efficient', 'decisive', 'hawkEye', 'aggressive', 'invisible'] }],
};
const destination = { oneOf: [{ const: 'approach' }, island] };

function command(type: string, properties: Record<string, unknown> = {}, required: string[] = []): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: type,
    type: 'object',
    additionalProperties: false,
    required: ['type', ...required],
    properties: { type: { const: type }, ...properties },
  };
}

export const commandSchemas: Record<YorktownCommandType, JsonSchema> = {
  newGame: command(
    'newGame',
    {
      seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
      players: { type: 'integer', minimum: 1, maximum: 4 },
      inexperienced: { type: 'integer', minimum: 0, maximum: 4 },
      difficulty: { enum: [25, 30, 35] },
      expansions: {
        type: 'object',
        additionalProperties: false,
        properties: {
          expertManoeuvres: { type: 'boolean' },
          dropTank: { type: 'boolean' },
          weather: { type: 'boolean' },
        },
      },
      deck: { enum: ['digital', 'physical'] },
      planeSeats: {
        type: 'object',
        additionalProperties: false,
        properties: {
          '1': { type: 'integer', minimum: 1, maximum: 4 },
          '2': { type: 'integer', minimum: 1, maximum: 4 },
          '3': { type: 'integer', minimum: 1, maximum: 4 },
          '4': { type: 'integer', minimum: 1, maximum: 4 },
        },
      },
      startIslands: { type: 'array', items: island, minItems: 2, maxItems: 2 },
      ruleOverrides: { type: 'object' },
    },
    ['players'],
  ),
  drawCard: command('drawCard'),
  cardDrawn: command('cardDrawn', {
    cardId: { type: 'string', minLength: 1, maxLength: 40 },
    card: {
      type: 'object',
      additionalProperties: false,
      required: ['islands', 'plane'],
      properties: {
        islands: { type: 'array', items: island, minItems: 1, maxItems: 2 },
        plane: { enum: ['jake', 'kate', 'zeke'] },
        event: { enum: ['none', 'cap', 'shohoMoves'] },
        directHit: { type: 'boolean' },
      },
    },
  }),
  chooseAction: command('chooseAction', { plane, action: { enum: ['search', 'takeoffLanding', 'attack', 'move'] } }, ['plane', 'action']),
  takeOff: command('takeOff', { plane, load: { enum: ['none', 'bomb', 'dropTank'] }, to: destination }, ['plane', 'to']),
  land: command('land', { plane, manoeuvre }, ['plane']),
  move: command('move', { plane, to: destination, via: island, manoeuvre }, ['plane', 'to']),
  search: command('search', { plane, manoeuvre }, ['plane']),
  revealWeather: command('revealWeather', { plane, manoeuvre }, ['plane']),
  attack: command('attack', { plane, target: { enum: ['planes', 'cap', 'shoho'] }, manoeuvre }, ['plane', 'target']),
  lightningAttack: command('lightningAttack', { plane, manoeuvre }, ['plane']),
  emergencyLanding: command('emergencyLanding', { plane, manoeuvre }, ['plane']),
  dropLoad: command('dropLoad', { plane }, ['plane']),
  useDropTank: command('useDropTank', { plane }, ['plane']),
  dice: command('dice', { faces: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 6 }, maxItems: 40 } }, ['faces']),
  confirmRoll: command('confirmRoll', {
    assign: { type: 'array', items: { type: 'string', maxLength: 40 }, maxItems: 20 },
    weather: { enum: ['goodVisibility', 'favourableWind', 'storm', 'nothing'] },
  }),
  skipAction: command('skipAction', { plane }, ['plane']),
  endTurn: command('endTurn'),
  timeUp: command('timeUp'),
  undo: command('undo', { count: { type: 'integer', minimum: 1, maximum: 1000 }, seat: { type: 'integer', minimum: 1, maximum: 4 }, seq: { type: 'integer', minimum: 1 } }),
};

export const commandTypes = Object.keys(commandSchemas) as YorktownCommandType[];
