/**
 * The 1942 USS Yorktown ruleset: every rule value with its source, loaded from the data
 * files in ./data (ruleset.json, board.json, deck.json), resolved to plain values for the
 * engine, and correctable per game with `ruleOverrides` ({"path.to.value": newValue}).
 */
import rulesetData from './data/ruleset.json' with { type: 'json' };
import boardData from './data/board.json' with { type: 'json' };
import deckData from './data/deck.json' with { type: 'json' };
import type { IslandColour, IslandId, JapaneseCard, JapaneseType, ManoeuvreId, WeatherId } from './types.ts';

export type RuleLeaf =
  | { value: unknown; source: 'rulebook'; quote: string }
  | { value: unknown; source: 'assumed'; why: string };

export interface RuleTree {
  [key: string]: RuleLeaf | RuleTree;
}

export interface BoardIsland {
  id: IslandId;
  name: string | null;
  colour: IslandColour;
}

export interface Board {
  islands: BoardIsland[];
  /** white lines between islands */
  lines: [IslandId, IslandId][];
  /** islands joined by a white line to the approach area */
  approachLines: IslandId[];
}

/** The resolved rule values the engine reads (no source tags). Stored in the game state. */
export interface Rules {
  players: { min: number; max: number; seating: Record<string, number[]> };
  stopwatch: { minutes: number; difficulties: number[]; perMissingPlayerMinutes: number; perInexperiencedMinutes: number };
  start: { approachPlanes: number; redIslandFuel: number; skill: number; search: number };
  fuel: { max: number };
  skill: { dice: { from: number; dice: number }[]; max: number; flipAfter: number };
  japanese: {
    tokens: { jake: number; kateZeke: number };
    substitution: Record<JapaneseType, JapaneseType[]>;
    islandCapacity: number;
    destroyedReturnToSupply: boolean;
    ignoreEventsAtSetup: boolean;
  };
  yorktown: {
    attackDice: Record<JapaneseType, number>;
    hitPair: number;
    aaFace: number;
    /** the attacker shot down: none of the card's planes is placed (false: only the first island's) */
    aaKillPlacesNoPlane: boolean;
    hitsToSink: number;
    directHitHits: number;
    directHitPlacesCap: boolean;
  };
  cap: { spaces: number; dicePenaltyPerFighter: number };
  search: {
    max: number;
    locatedAt: number;
    attackBonus: { from: number; dice: number }[];
    fuelCost: number;
    fuelDice: number;
    allyDice: number;
    tiers: { equal: number; raise: number }[];
    skillOnSuccess: number;
    shohoMovesDrop: number;
  };
  flightDeck: { perTurn: number; blockedLandingFuel: number; emergencyLandingCounts: boolean };
  takeOff: { approachFuel: number; redIslandFuel: number };
  load: { tokens: number; dicePenalty: number };
  landing: { autoFuel: number; dicePerFuel: number; safeEqual: number; crashUnharmedEqual: number; injuredSkillLoss: number };
  crash: { skillLoss: number };
  attack: {
    fuelCost: number;
    fuelDice: number;
    allyDice: number;
    targets: Record<JapaneseType, { equal: number; skill: number }>;
  };
  shoho: { tiers: { equal: number; hits: number; skill: number }[]; hitsToSink: number };
  move: { oneIslandFuel: number; twoIslandsFuel: number; returnFuel: number };
  idle: { fuelLoss: number };
  dropTank: { maxFuelToUse: number; fuelGain: number };
  weather: {
    tokens: Record<WeatherId, number>;
    placed: number;
    revealEqual: number;
    revealFuelCost: number;
    goodVisibilitySearch: number;
    goodVisibilitySkill: number;
    windFuel: number;
    stormDicePenalty: number;
  };
  manoeuvres: {
    tiles: ManoeuvreId[];
    hawkEyeExtra: number;
    hawkEyeFailSearch: number;
    hawkEyeFailSkill: number;
    hawkEyeRevealsWeather: boolean;
    decisiveFreeOnes: number;
  };
  board: Board;
  deck: JapaneseCard[];
}

function stripWhy<T extends { why: string }>(data: T): Omit<T, 'why'> {
  const { why: _why, ...rest } = data;
  return rest;
}

/** The default ruleset, every value tagged with its source. */
export const defaultRuleset: RuleTree = {
  ...(rulesetData as unknown as RuleTree),
  board: { value: stripWhy(boardData), source: 'assumed', why: boardData.why },
  deck: { value: deckData.cards, source: 'assumed', why: deckData.why },
};

export function isRuleLeaf(node: unknown): node is RuleLeaf {
  return typeof node === 'object' && node !== null && 'value' in node && 'source' in node;
}

export interface RuleValueRow {
  path: string;
  value: unknown;
  source: 'rulebook' | 'assumed';
  quote?: string;
  why?: string;
}

/** Every rule value of a ruleset as a flat list, for the settings page ("check against your box"). */
export function listRuleValues(ruleset: RuleTree = defaultRuleset): RuleValueRow[] {
  const rows: RuleValueRow[] = [];
  const walk = (node: RuleTree, prefix: string): void => {
    for (const [key, child] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (isRuleLeaf(child)) {
        rows.push(
          child.source === 'rulebook'
            ? { path, value: child.value, source: 'rulebook', quote: child.quote }
            : { path, value: child.value, source: 'assumed', why: child.why },
        );
      } else {
        walk(child, path);
      }
    }
  };
  walk(ruleset, '');
  return rows;
}

export class RuleOverrideError extends Error {
  constructor(
    readonly code: 'unknownRule' | 'wrongType' | 'badValue',
    message: string,
  ) {
    super(message);
  }
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Does `value` have the same shape as `model` (the default)? Returns the first mismatch, or null. */
function shapeMismatch(model: unknown, value: unknown, where: string): string | null {
  if (Array.isArray(model)) {
    if (!Array.isArray(value)) return `${where} must be ${describeType(model)}, not ${describeType(value)}`;
    if (model.length === 0) return null;
    for (let i = 0; i < value.length; i++) {
      const element = model.find((m) => shapeMismatch(m, value[i], '') === null);
      if (element === undefined) return shapeMismatch(model[0], value[i], `${where}[${i}]`);
    }
    return null;
  }
  if (model === null) return value === null ? null : `${where} must be null`;
  if (typeof model === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return `${where} must be ${describeType(model)}, not ${describeType(value)}`;
    }
    const modelObj = model as Record<string, unknown>;
    const valueObj = value as Record<string, unknown>;
    for (const key of Object.keys(valueObj)) {
      if (!(key in modelObj)) {
        // open records (seating, substitution...) take any key whose value looks like one of the defaults'
        const sample = Object.values(modelObj)[0];
        const mismatch = shapeMismatch(sample, valueObj[key], `${where}.${key}`);
        if (mismatch) return mismatch;
      }
    }
    for (const [key, sub] of Object.entries(modelObj)) {
      if (!(key in valueObj)) {
        if (sub === null) continue;
        return `${where}.${key} is missing`;
      }
      const mismatch = shapeMismatch(sub, valueObj[key], `${where}.${key}`);
      if (mismatch) return mismatch;
    }
    return null;
  }
  if (typeof model === 'string' && typeof value === 'string') return null;
  if (typeof model !== typeof value) return `${where} must be ${describeType(model)}, not ${describeType(value)}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return `${where} must be a finite number`;
  return null;
}

function findLeaf(ruleset: RuleTree, path: string): RuleLeaf | null {
  let node: RuleTree | RuleLeaf = ruleset;
  for (const part of path.split('.')) {
    if (isRuleLeaf(node)) return null;
    const next: RuleTree | RuleLeaf | undefined = (node as RuleTree)[part];
    if (next === undefined || !Object.prototype.hasOwnProperty.call(node, part)) return null;
    node = next;
  }
  return isRuleLeaf(node) ? node : null;
}

/** Apply owner corrections: returns a new tagged ruleset where each overridden value is marked as set by the owner. */
export function applyOverrides(ruleset: RuleTree, overrides: Record<string, unknown>): RuleTree {
  const copy = structuredClone(ruleset);
  for (const [path, value] of Object.entries(overrides)) {
    const leaf = findLeaf(copy, path);
    if (!leaf) {
      const known = listRuleValues(ruleset).map((r) => r.path);
      const near = known.filter((k) => k.split('.').pop() === path.split('.').pop()).slice(0, 3);
      throw new RuleOverrideError(
        'unknownRule',
        `There is no rule value "${path}".${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`,
      );
    }
    const mismatch = shapeMismatch(leaf.value, value, path);
    if (mismatch) throw new RuleOverrideError('wrongType', `Rule override rejected: ${mismatch}.`);
    if (typeof value === 'number' && typeof leaf.value === 'number' && value < 0) {
      throw new RuleOverrideError('badValue', `Rule override rejected: ${path} cannot be negative.`);
    }
    if (typeof value === 'number' && Number.isInteger(leaf.value) && !Number.isInteger(value)) {
      throw new RuleOverrideError('badValue', `Rule override rejected: ${path} must be a whole number, not ${value}.`);
    }
    const replaced = leaf as { value: unknown; source: string; why?: string; quote?: string };
    const original = JSON.stringify(replaced.value);
    replaced.value = structuredClone(value);
    replaced.source = 'assumed';
    replaced.why = `set by the owner (default ${original.length > 60 ? original.slice(0, 57) + '...' : original})`;
    delete replaced.quote;
  }
  return copy;
}

function valuesOf(node: RuleTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    out[key] = isRuleLeaf(child) ? child.value : valuesOf(child);
  }
  return out;
}

/** Check the board and deck values hang together (an override may replace them). */
function validateRules(rules: Rules): void {
  const ids = new Set(rules.board.islands.map((i) => i.id));
  const fail = (message: string): never => {
    throw new RuleOverrideError('badValue', message);
  };
  if (!rules.board.islands.some((i) => i.colour === 'red') || !rules.board.islands.some((i) => i.colour === 'orange')) {
    fail('The board needs at least one red and one orange island.');
  }
  rules.board.islands.forEach((island, index) => {
    if (island.id !== index + 1) fail(`The board's islands must be numbered 1, 2, 3... in order (found ${island.id} at place ${index + 1}).`);
    if (!['red', 'green', 'orange'].includes(island.colour)) fail(`Island ${island.id} has an unknown colour "${island.colour}".`);
  });
  for (const [a, b] of rules.board.lines) {
    if (!ids.has(a) || !ids.has(b) || a === b) fail(`The white line ${a}–${b} joins islands that are not on the board.`);
  }
  for (const id of rules.board.approachLines) if (!ids.has(id)) fail(`The approach area is joined to island ${id}, which is not on the board.`);
  const cardIds = new Set<string>();
  for (const card of rules.deck) {
    if (cardIds.has(card.id)) fail(`Two cards of the Japanese deck have the id "${card.id}".`);
    cardIds.add(card.id);
    if (card.islands.length < 1 || card.islands.length > 2) fail(`Card ${card.id} must show one or two islands.`);
    for (const island of card.islands) if (!ids.has(island)) fail(`Card ${card.id} shows island ${island}, which is not on the board.`);
    if (!['jake', 'kate', 'zeke'].includes(card.plane)) fail(`Card ${card.id} shows an unknown plane "${card.plane}".`);
    if (!['none', 'cap', 'shohoMoves'].includes(card.event)) fail(`Card ${card.id} has an unknown event "${card.event}".`);
  }
  if (rules.deck.length === 0) fail('The Japanese deck cannot be empty.');
  if (rules.skill.dice.length === 0 || rules.skill.dice[0].from !== 0) fail('skill.dice must start with an entry "from": 0.');
  validateCounts(rules, fail);
}

/** More equal dice than a tray holds (issue 3: 1–12 dice) is a result no roll can reach: a typing slip, not a rule. */
const MOST_EQUAL_DICE = 12;

/** Values a game cannot be played with: no players, no fuel, a roll asking for no equal dice (or more than a tray holds), tiers out of order. */
function validateCounts(rules: Rules, fail: (message: string) => never): void {
  const atLeast = (path: string, value: number, min: number) => {
    if (value < min) fail(`${path} must be at least ${min} (it is ${value}).`);
  };
  const equalDice = (path: string, value: number) => {
    atLeast(path, value, 1);
    if (value > MOST_EQUAL_DICE) fail(`${path} asks for ${value} equal dice: no roll has more than ${MOST_EQUAL_DICE} dice.`);
  };
  atLeast('players.min', rules.players.min, 1);
  if (rules.players.min > 4) fail(`players.min must be from 1 to 4 (it is ${rules.players.min}).`);
  // the standard game (a long Confirm on the box, a demo station's Play) has four players
  if (rules.players.max !== 4) fail(`players.max must stay 4 (it is ${rules.players.max}): a game started from the button box or a demo station has four players; fewer are chosen when a game is set up.`);
  atLeast('stopwatch.minutes', rules.stopwatch.minutes, 1);
  for (const minutes of rules.stopwatch.difficulties) atLeast('stopwatch.difficulties', minutes, 1);
  if (!rules.stopwatch.difficulties.includes(rules.stopwatch.minutes)) {
    fail(`stopwatch.minutes (${rules.stopwatch.minutes}) must be one of stopwatch.difficulties (${rules.stopwatch.difficulties.join(', ') || 'none'}): a game set up without a difficulty uses it.`);
  }
  atLeast('fuel.max', rules.fuel.max, 1);
  atLeast('skill.max', rules.skill.max, 1);
  atLeast('search.max', rules.search.max, 1);
  if (rules.search.locatedAt > rules.search.max) fail(`search.locatedAt (${rules.search.locatedAt}) cannot be past the end of the search track, search.max (${rules.search.max}).`);
  atLeast('yorktown.hitsToSink', rules.yorktown.hitsToSink, 1);
  atLeast('shoho.hitsToSink', rules.shoho.hitsToSink, 1);
  // every result of a roll asks for some equal dice: one die at least
  equalDice('landing.crashUnharmedEqual', rules.landing.crashUnharmedEqual);
  equalDice('weather.revealEqual', rules.weather.revealEqual);
  equalDice('yorktown.hitPair', rules.yorktown.hitPair);
  for (const [plane, target] of Object.entries(rules.attack.targets)) equalDice(`attack.targets.${plane}.equal`, target.equal);
  equalDice('landing.safeEqual', rules.landing.safeEqual);
  if (rules.landing.safeEqual <= rules.landing.crashUnharmedEqual) {
    fail(`landing.safeEqual (${rules.landing.safeEqual}) must ask for more equal dice than landing.crashUnharmedEqual (${rules.landing.crashUnharmedEqual}): a safe landing is the better result.`);
  }
  const increasing = (path: string, tiers: { equal: number }[]) => {
    if (tiers.length === 0) fail(`${path} needs at least one result.`);
    tiers.forEach((tier, i) => {
      equalDice(`${path}[${i}].equal`, tier.equal);
      if (i > 0 && tier.equal <= tiers[i - 1].equal) fail(`${path} must ask for more equal dice at each better result (${tiers[i - 1].equal}, then ${tier.equal}).`);
    });
  };
  increasing('search.tiers', rules.search.tiers);
  increasing('shoho.tiers', rules.shoho.tiers);
}

/** The plain rule values for one game: defaults plus the owner's overrides (throws RuleOverrideError). */
export function resolveRules(overrides: Record<string, unknown> = {}): Rules {
  const tree = Object.keys(overrides).length ? applyOverrides(defaultRuleset, overrides) : defaultRuleset;
  const rules = valuesOf(tree) as unknown as Rules;
  validateRules(rules);
  return Object.keys(overrides).length ? rules : structuredClone(rules);
}
