/**
 * The public shape of a 1942 USS Yorktown game (draft contract: the engine may add
 * fields; the service and dashboard read these). Rule values are NOT here: they live in
 * the ruleset data file (ruleset.ts / ruleset.json) with their source tags.
 */
import type { RollState } from '../../dice/types.ts';
import type { Rules } from './ruleset.ts';

export type PlaneId = 1 | 2 | 3 | 4;
export type Seat = 1 | 2 | 3 | 4;
export type IslandId = number; // 1..10 on the printed board
export type IslandColour = 'red' | 'green' | 'orange';
export type JapaneseType = 'jake' | 'kate' | 'zeke';
export type ActionType = 'search' | 'takeoffLanding' | 'attack' | 'move';
export type Load = 'none' | 'bomb' | 'dropTank';
export type Difficulty = 25 | 30 | 35;
export type ManoeuvreId = 'landingAce' | 'efficient' | 'decisive' | 'hawkEye' | 'aggressive' | 'invisible';
export type WeatherId = 'goodVisibility' | 'favourableWind' | 'storm' | 'nothing';

export type Position =
  | { at: 'deck' } // on the Yorktown's flight deck
  | { at: 'approach' } // the approach area next to the Yorktown
  | { at: 'island'; island: IslandId };

export interface PlaneState {
  id: PlaneId;
  seat: Seat;
  fuel: number;
  skill: number;
  cockpit: 'A' | 'B';
  destroyed: boolean;
  position: Position;
  load: Load;
  /** the action chosen this turn (null before choosing) */
  action: ActionType | null;
  /** has this plane finished its action this turn */
  done: boolean;
  /** it finished it by not acting (skipped, or kept circling by a full flight deck) */
  skipped: boolean;
  /** expert manoeuvre tile; id null while face down and unknown to the engine (physical game, or hidden in the public view) */
  manoeuvre: { id: ManoeuvreId | null; used: boolean } | null;
}

export interface IslandState {
  id: IslandId;
  colour: IslandColour;
  japanese: JapaneseType[]; // at most ruleset capacity (2)
  weather: { id: WeatherId | null; revealed: boolean } | null; // id is null while face down in a physical game
}

export type Phase = 'setup' | 'japanese' | 'planes' | 'over';

export interface GameSetup {
  players: 1 | 2 | 3 | 4;
  inexperienced: number;
  difficulty: Difficulty;
  expansions: { expertManoeuvres: boolean; dropTank: boolean; weather: boolean };
  deck: 'digital' | 'physical';
  /** which seat flies each plane */
  planeSeats: Record<PlaneId, Seat>;
}

export interface JapaneseCard {
  id: string;
  islands: IslandId[]; // one or two
  plane: JapaneseType;
  event: 'none' | 'cap' | 'shohoMoves';
  directHit: boolean;
}

/** One thing an attack roll can take: a Japanese token on an island or in a CAP space. */
export interface AttackTargetInfo {
  /** "i<island>-<index>" for a token on an island, "cap-<index>" for a CAP fighter */
  id: string;
  plane: JapaneseType;
  island: IslandId | null;
  equal: number;
  skill: number;
}

export type RollPurpose =
  | 'search'
  | 'landing'
  | 'emergencyLanding'
  | 'attack'
  | 'lightningAttack'
  | 'cap'
  | 'shoho'
  | 'weather'
  | 'yorktownAttack';

/** The roll in progress, what it is for, and the continuous-roll tracker's state. */
export interface ActiveRoll {
  purpose: RollPurpose;
  plane: PlaneId | null; // null for the Japanese attack on the Yorktown
  tracker: RollState;
  /** the plane's fuel when the roll began (after any compulsory cost); its fuel is this minus the tracker's fuelSpent */
  fuelAtStart: number;
  /** attack rolls: what the dice can take */
  targets: AttackTargetInfo[];
  /** Decisive: how many 1s may still be re-rolled without locking or costing fuel */
  freeOnes: number;
  /** the expert manoeuvre used for this roll, if any */
  manoeuvre: ManoeuvreId | null;
  /** where the plane is (weather reveal: the island of the token) */
  island: IslandId | null;
  /** how the dice count was made, for the table display ("3 skill +1 fuel -1 bomb") */
  diceBreakdown: { reason: string; dice: number }[];
}

export interface GameOutcome {
  result: 'won' | 'lost';
  cause: 'shohoSunk' | 'time' | 'yorktownSunk' | 'allPlanesDestroyed';
  at: number;
}

/** The Japanese card being resolved while the Yorktown's attack roll is under way. */
export interface PendingCard {
  card: JapaneseCard;
}

/** After a move (or a take-off), the moving plane may make a lightning attack or an emergency landing. */
export interface AfterMove {
  plane: PlaneId;
  lightningAttack: boolean;
  emergencyLanding: boolean;
}

export interface YorktownState {
  game: 'yorktown1942';
  /** resolved rule values of this game (defaults + owner overrides); a replay needs nothing else */
  rules: Rules;
  ruleOverrides: Record<string, unknown>;
  phase: Phase;
  setup: GameSetup | null;
  seed: number | null;
  /** PRNG state (digital deck, tiles, weather tokens) */
  rng: number;
  startedAt: number | null;
  /** the stopwatch's length for this game (minutes) */
  minutes: number;
  /** wall-clock ms when time runs out (null before the stopwatch starts) */
  deadline: number | null;
  turn: number;
  yorktownHits: number;
  shohoHits: number;
  search: number;
  /** Zekes in the CAP spaces (0..2) */
  cap: number;
  /** Japanese tokens not on the board: 8 Jake, 12 Kate/Zeke double-sided */
  supply: { jake: number; kateZeke: number };
  planes: PlaneState[];
  islands: IslandState[];
  /** drawPile: card ids, top first (emptied in the public view, which gives drawPileCount instead) */
  deck: { mode: 'digital' | 'physical'; drawPile: string[]; discard: string[]; drawPileCount?: number };
  lastCard: JapaneseCard | null;
  spotted: boolean;
  takeoffsLandingsThisTurn: number;
  /** a plane has begun its action this turn: the action discs can no longer be moved */
  actionsStarted: boolean;
  roll: ActiveRoll | null;
  outcome: GameOutcome | null;
  /** tokens out of play for good (only when the ruleset says destroyed tokens do not return) */
  removed: { jake: number; kateZeke: number };
  /** Japanese planes destroyed so far (by the players or the Yorktown's guns) */
  japaneseDestroyed: number;
  /** set-up: cards still to draw before the first turn (physical deck: the players draw them) */
  setupDraws: number;
  pendingCard: PendingCard | null;
  afterMove: AfterMove | null;
  /** weather tokens returned to the box unseen (digital game) */
  weatherInBox: WeatherId[];
  /** weather tokens turned over so far, in order */
  weatherRevealed: WeatherId[];
}
