/**
 * The public shape of a 1942 USS Yorktown game (draft contract: the engine may add
 * fields; the service and dashboard read these). Rule values are NOT here: they live in
 * the ruleset data file (ruleset.ts / ruleset.json) with their source tags.
 */
import type { RollState } from '../../dice/types.ts';

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
  manoeuvre: { id: ManoeuvreId; used: boolean } | null;
}

export interface IslandState {
  id: IslandId;
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

/** The roll in progress, what it is for, and the continuous-roll tracker's state. */
export interface ActiveRoll {
  purpose: 'search' | 'landing' | 'emergencyLanding' | 'attack' | 'lightningAttack' | 'cap' | 'shoho' | 'weather' | 'yorktownAttack';
  plane: PlaneId | null; // null for the Japanese attack on the Yorktown
  tracker: RollState;
}

export interface GameOutcome {
  result: 'won' | 'lost';
  cause: 'shohoSunk' | 'time' | 'yorktownSunk' | 'allPlanesDestroyed';
  at: number;
}

export interface YorktownState {
  game: 'yorktown1942';
  phase: Phase;
  setup: GameSetup | null;
  seed: number | null;
  /** PRNG state (digital deck, tiles, weather tokens) */
  rng: number;
  startedAt: number | null;
  /** wall-clock ms when time runs out */
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
  deck: { mode: 'digital' | 'physical'; drawPile: string[]; discard: string[] };
  lastCard: JapaneseCard | null;
  spotted: boolean;
  takeoffsLandingsThisTurn: number;
  roll: ActiveRoll | null;
  outcome: GameOutcome | null;
}
