/**
 * The part of the Yorktown state the box controls and LEDs read. A full YorktownState is one;
 * keeping the view narrow keeps these helpers stable while the engine adds fields.
 */
import type { FutileGame, FutileRules } from '../../games/yorktown1942/futile-action.ts';
import type { Rules } from '../../games/yorktown1942/ruleset.ts';
import type { SkipCostGame, SkipCostRules } from '../../games/yorktown1942/skip-cost.ts';
import type { ActiveRoll, AfterMove, GameOutcome, GameSetup, Phase, PlaneState } from '../../games/yorktown1942/types.ts';

export type BoxPlaneView = Pick<PlaneState, 'id' | 'fuel' | 'destroyed' | 'position' | 'action' | 'done' | 'load'>;

export type BoxRollView = Pick<ActiveRoll, 'purpose' | 'plane' | 'tracker'> & { fuelAtStart?: number };

export interface BoxGameView extends FutileGame, SkipCostGame {
  phase: Phase;
  /** null before a game was set up */
  setup: { expansions?: Partial<GameSetup['expansions']> } | null;
  /** cards still to draw during set-up */
  setupDraws?: number;
  planes: BoxPlaneView[];
  roll: BoxRollView | null;
  deck: { mode: 'digital' | 'physical' };
  spotted: boolean;
  deadline: number | null;
  outcome: GameOutcome | null;
  /** the moment right after a plane's move: its lightning attack or emergency landing */
  afterMove?: AfterMove | null;
  rules: { search: { locatedAt: number }; yorktown: Rules['yorktown']; board: Rules['board']; move: Rules['move']; takeOff: Rules['takeOff']; load: Pick<Rules['load'], 'tokens'> } & SkipCostRules & FutileRules;
}
