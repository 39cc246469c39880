/** Continuous dice rolls: the roll tracker, best results and exact odds. Contract: ./types.ts */
export type * from './types.ts';
export { startRoll, applyReading, isRejection, readingAccepted } from './roll-tracker.ts';
export { bestResult, highestTierReached, splitGroups, splitOverTargets, bestPossibleSplit, MAX_TARGETS } from './best-result.ts';
export { equalGroups, countOnes, isFace, sameFaces, withoutLockedOnes, facesAmong, GROUP_VALUES, type EqualGroup } from './faces.ts';
export { rollOdds, rollOddsNow, clearOddsCache, MAX_ODDS_DICE } from './odds.ts';
export { assertValidSpec, specProblem } from './roll-spec.ts';
export { TIER_STRATEGY } from './tier-odds.ts';
export { TARGET_STRATEGY, decideTargets } from './target-policy.ts';
export { seededRandom, rollDie } from './prng.ts';
