/** A hand-made Yorktown state for the controls/LED tests (independent of the engine's progress). */
import type { RollState } from '../../../server/dice/types.ts';
import { resolveRules } from '../../../server/games/yorktown1942/ruleset.ts';
import type { YorktownState } from '../../../server/games/yorktown1942/types.ts';
import type { BoxGameView, BoxPlaneView, BoxRollView } from '../../../server/hardware/serial/game-view.ts';

// the engine's full state must stay usable where the box helpers expect their view
const fullStateFits = (s: YorktownState): BoxGameView => s;
void fullStateFits;

export function plane(id: 1 | 2 | 3 | 4, over: Partial<BoxPlaneView> = {}): BoxPlaneView {
  return { id, fuel: 12, destroyed: false, position: { at: 'island', island: id }, action: null, done: false, load: 'none', ...over };
}

const RULES = resolveRules({});

export function game(over: Partial<BoxGameView> = {}): BoxGameView {
  return {
    phase: 'planes',
    setup: {},
    setupDraws: 0,
    deadline: 30 * 60_000,
    planes: [plane(1), plane(2), plane(3), plane(4)],
    deck: { mode: 'digital' },
    spotted: false,
    roll: null,
    outcome: null,
    islands: RULES.board.islands.map((i) => ({ id: i.id, colour: i.colour, japanese: [] })),
    search: 0,
    cap: 0,
    takeoffsLandingsThisTurn: 0,
    rules: RULES,
    ...over,
  };
}

export function roll(over: Omit<Partial<BoxRollView>, 'tracker'> & { tracker?: Partial<RollState> } = {}): BoxRollView {
  const tracker: RollState = {
    spec: { dice: 4, continuous: true, onesCostFuel: true, fuelAvailable: 10, goal: { kind: 'tiers', tiers: [{ id: 'raise0', equal: 2 }] } },
    faces: null,
    lockedOnes: 0,
    fuelSpent: 0,
    outOfFuel: false,
    readings: 0,
    best: { kind: 'tier', tierId: null, equal: 0, value: null },
    flags: [],
    ...over.tracker,
  };
  return { purpose: 'search', plane: 1, ...over, tracker };
}
