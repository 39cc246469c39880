/**
 * Continuous dice rolls, game-agnostic. Contract between the roll tracker / odds
 * (server/dice/) and the games that use them (server/games/...).
 *
 * "Equal dice" are dice showing the same value other than 1; 1s never count as equal dice.
 */

export type Face = 1 | 2 | 3 | 4 | 5 | 6;

/** What a roll is trying to reach. */
export type RollGoal =
  /** the largest group of equal (non-1) dice decides; tiers ordered from lowest to highest */
  | { kind: 'tiers'; tiers: RollTier[] }
  /** groups of equal dice are split over several targets (attack); best = the split of most total value */
  | { kind: 'targets'; targets: RollTarget[] }
  /** a single roll read as it falls (the Yorktown attack): the game interprets the faces itself */
  | { kind: 'faces' };

export interface RollTier {
  id: string;
  /** equal dice needed; 0 means "reached with no matching dice" (e.g. the worst landing result) */
  equal: number;
}

export interface RollTarget {
  id: string;
  /** equal dice needed to take this target */
  equal: number;
  /** what taking it is worth (e.g. skill points); the split maximises the sum, ties broken by count */
  value: number;
}

export interface RollSpec {
  /** dice in the roll (never negative; 0 means the roll cannot be made) */
  dice: number;
  /** continuous roll: re-roll freely, 1s lock. false for a single roll (Yorktown attack) */
  continuous: boolean;
  /** each newly shown 1 costs one fuel (false in landing rolls and with the Efficient manoeuvre) */
  onesCostFuel: boolean;
  /** fuel the plane has when the roll starts (ignored when onesCostFuel is false) */
  fuelAvailable: number;
  goal: RollGoal;
  /**
   * continuous rolls: the first `freeOnes` 1s shown neither lock nor cost fuel; the player re-rolls
   * them (the Decisive manoeuvre: "re-roll the first 1"). Default 0. The odds ignore it.
   */
  freeOnes?: number;
}

/** The best result reachable from the dice now showing. */
export type RollResult =
  | { kind: 'tier'; tierId: string | null; equal: number; value: Face | null }
  | { kind: 'targets'; taken: { targetId: string; value: Face }[]; totalValue: number }
  | { kind: 'faces'; faces: Face[] };

export type RollFlag =
  | { type: 'wrongDiceCount'; expected: number; seen: number }
  | { type: 'illegalReroll'; lockedOnes: number; seenOnes: number }
  | { type: 'badFace'; value: unknown }
  | { type: 'rerollAfterSingle' }
  | { type: 'rollOver' };

export interface RollState {
  spec: RollSpec;
  /** faces of the last accepted reading (null before the first) */
  faces: Face[] | null;
  lockedOnes: number;
  fuelSpent: number;
  /** a 1 appeared with no fuel left: the plane crashes (the game applies it) */
  outOfFuel: boolean;
  readings: number;
  best: RollResult;
  /** free 1s (spec.freeOnes) used so far (absent = 0) */
  freeOnesUsed?: number;
  /** freed 1s still showing, not yet re-rolled: they are not new 1s (absent = 0) */
  freeOnesShowing?: number;
  /**
   * flags raised by the last reading. A flagged reading is not accepted, except for the
   * informational `rerollAfterSingle` (a corrected single roll); see readingAccepted().
   */
  flags: RollFlag[];
}

export interface RollOdds {
  /**
   * probability that the roll ends, without crashing, with at least this tier, per tier id (tiers goal);
   * per target id, the probability that the target is taken (targets goal); empty for a faces goal
   */
  reach: Record<string, number>;
  /** expected fuel spent on locked 1s (a crash counts as all the fuel available) */
  expectedFuel: number;
  /** probability that fuel runs out before the roll ends (plane crashes) */
  crash: number;
  /** short description of the keep-and-re-roll strategy the figures assume */
  strategy: string;
  /**
   * targets goal only: the final sets of targets taken (crash excluded), most likely first.
   * For a targets goal `reach` holds, per target id, the probability that target is taken.
   */
  outcomes?: RollOddsOutcome[];
  /** targets goal only: takenCount[k] = probability of ending with exactly k targets taken (crash excluded) */
  takenCount?: number[];
}

export interface RollOddsOutcome {
  targetIds: string[];
  totalValue: number;
  probability: number;
}

export interface RollOddsOptions {
  /**
   * Cautious strategy: also stop re-rolling when the next 1 would crash the plane and something
   * is already reached (a tier needing equal dice, or at least one target). Default false.
   */
  stopBeforeCrash?: boolean;
}
