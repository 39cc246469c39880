/** The 1942 USS Yorktown game module (see README.md in this folder). */
import type { GameModule } from '../game-module.ts';
import { commandSchemas, type YorktownCommand } from './commands.ts';
import type { YorktownEvent } from './context.ts';
import { apply } from './engine.ts';
import { emptyState } from './setup.ts';
import type { YorktownState } from './types.ts';

export const yorktown1942: GameModule<YorktownState, YorktownCommand, YorktownEvent> = {
  id: 'yorktown1942',
  title: '1942 USS Yorktown',
  commandSchemas,
  emptyState,
  apply,
  deadline: (state) => (state.outcome === null && state.deadline !== null ? state.deadline : null),
  undoable: (command) => command.type !== 'newGame' && command.type !== 'timeUp' && command.type !== 'undo',
  // a command naming its plane, else a roll's reading or confirmation: the rolling plane (null: the Japanese attack)
  commandPiece: (state, command) => {
    const own = (command as { plane?: unknown }).plane;
    if (typeof own === 'number') return own;
    return command.type === 'dice' || command.type === 'confirmRoll' ? (state.roll?.plane ?? null) : null;
  },
};

export { publicView, currentRollOdds } from './view.ts';
export { actionChances, type ActionChance, type ActionRollKind } from './action-odds.ts';
export { listRuleValues, defaultRuleset, resolveRules, applyOverrides, RuleOverrideError, type Rules, type RuleValueRow, type RuleTree } from './ruleset.ts';
export { stopwatchMinutes } from './setup.ts';
export { commandSchemas, commandTypes, type YorktownCommand } from './commands.ts';
export type { YorktownEvent } from './context.ts';
export type * from './types.ts';
