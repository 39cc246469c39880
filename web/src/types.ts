/** The shapes the dashboard reads: the shared protocol plus the optional fields the service adds. */
import type { AreaConfig, CalibrationConfig, CalibrationView, DayStatsReply, DiceModelStatus, DiceSampleBody, DiceSampleHold, DiceSampleSaved, DiceSamplesEvaluation, DiceSamplesInfo, RangeStatsReply, SeenDie, TableSnapshot, TrayEstimateReply, VisionUpdate } from '../../server/http/protocol.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import type { ActionChance } from '../../server/games/yorktown1942/action-odds.ts';
import type { RollOdds } from '../../server/dice/types.ts';

export type { AreaConfig, CalibrationConfig, CalibrationView, SeenDie, TrayEstimateReply, VisionUpdate };

/** A roll as the service sends it: its odds from the start (`odds`) and from the dice showing now (`oddsNow`). */
export type RollWithOdds = NonNullable<YorktownState['roll']> & { odds?: RollOdds | null; oddsNow?: RollOdds | null };

export type GameState = Omit<YorktownState, 'roll'> & {
  roll: RollWithOdds | null;
  /** the odds of each attack a plane may make now (absent from a service that does not send them) */
  actionChances?: ActionChance[];
};

export type Snapshot = TableSnapshot<GameState>;

export interface Rejection {
  code: string;
  message: string;
  /** a game refusal's specifics as stable values (server/games/game-module.ts CommandRejection), for the page's words */
  params?: Record<string, string | number>;
}

export type Ack = { ok: true; [k: string]: unknown } | { ok: false; error: Rejection };

export type DayStats = DayStatsReply;
export type RangeStats = RangeStatsReply;

/** The dice model routes' shape (server/http/model-routes.ts). */
export type ModelStatus = DiceModelStatus;

/** The dice photos routes' shapes (server/http/sample-routes.ts). */
export type SampleFolder = DiceSamplesInfo;
export type HeldPhoto = DiceSampleHold;
export type LabelledSampleDie = DiceSampleBody['dice'][number];
export type SavedPhoto = DiceSampleSaved;
export type PhotosMeasure = DiceSamplesEvaluation;

/** An HTTP answer: the data, or the service's refusal in its words. */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: Rejection };
