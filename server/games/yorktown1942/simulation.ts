/**
 * Whole games played by a simple built-in policy through the same commands and journal the table
 * uses, with virtual dice (seeded) and a virtual clock (each action takes some seconds of game
 * time, so games can run out of time). Used by `npm run simulate` and the benchmark. The policy
 * decides one command at a time from the state (policyCommand): a demo station's attract mode plays
 * it that way on the table's own clock.
 */
import { equalGroups, seededRandom, rollDie, decideTargets } from '../../dice/index.ts';
import type { Face } from '../../dice/types.ts';
import { openJournal, submit, type JournalState } from '../journal.ts';
import type { GameCommand } from '../game-module.ts';
import { lightningChance } from './action-odds.ts';
import { clearWayToApproach, colourOf, neighbours } from './board.ts';
import { yorktown1942 } from './index.ts';
import type { ActionType, IslandId, PlaneState, Position, YorktownState } from './types.ts';

export interface SimulationOptions {
  seed: number;
  players: 1 | 2 | 3 | 4;
  difficulty: 25 | 30 | 35;
  expansions?: { expertManoeuvres?: boolean; dropTank?: boolean; weather?: boolean };
  /** seconds of game time each kind of step takes */
  timing?: Partial<Timing>;
  /** safety stop: a game never needs this many commands */
  maxCommands?: number;
}

export interface Timing {
  drawCard: number;
  chooseAction: number;
  action: number;
  reading: number;
  confirm: number;
  endTurn: number;
}

export const DEFAULT_TIMING: Timing = { drawCard: 10, chooseAction: 4, action: 8, reading: 4, confirm: 2, endTurn: 4 };

export interface GameSummary {
  result: 'won' | 'lost' | 'unfinished';
  cause: string | null;
  turns: number;
  commands: number;
  rejected: number;
  gameSeconds: number;
  yorktownHits: number;
  shohoHits: number;
  search: number;
  japaneseDestroyed: number;
  planesDestroyed: number;
  journal: JournalState<YorktownState>;
}

/** The virtual table: submits commands through the journal and keeps the clock. */
class VirtualTable {
  journal: JournalState<YorktownState> = openJournal(yorktown1942);
  clock: number;
  commands = 0;
  rejected = 0;
  constructor(
    start: number,
    readonly timing: Timing,
  ) {
    this.clock = start;
  }
  get state(): YorktownState {
    return this.journal.state;
  }
  refused(seconds: number): void {
    this.clock += seconds * 1000;
    this.commands++;
    this.rejected++;
  }
  send(command: GameCommand, seconds: number): boolean {
    this.clock += seconds * 1000;
    const result = submit(yorktown1942, this.journal, command, this.clock);
    this.commands++;
    if (!result.ok) {
      this.rejected++;
      return false;
    }
    this.journal = result.journal;
    return true;
  }
}

type Node = IslandId | 'approach';

/** Shortest way (list of nodes after `from`) over the white lines from a position to a goal. */
function shortestWay(state: YorktownState, from: Position, goal: (node: Node) => boolean): Node[] | null {
  const board = state.rules.board;
  const start: Node = from.at === 'island' ? from.island : 'approach';
  const previous = new Map<Node, Node | null>([[start, null]]);
  const queue: Node[] = [start];
  while (queue.length) {
    const here = queue.shift()!;
    if (here !== start && goal(here)) {
      const way: Node[] = [];
      for (let at: Node | null = here; at !== null && at !== start; at = previous.get(at) ?? null) way.unshift(at);
      return way;
    }
    const next: Node[] = here === 'approach' ? board.approachLines : [...neighbours(board, here), ...(board.approachLines.includes(here) ? ['approach' as const] : [])];
    for (const n of next) {
      if (!previous.has(n)) {
        previous.set(n, here);
        queue.push(n);
      }
    }
  }
  return null;
}

function japaneseOn(state: YorktownState, island: IslandId): number {
  return state.islands.find((i) => i.id === island)?.japanese.length ?? 0;
}

function located(state: YorktownState): boolean {
  return state.search >= state.rules.search.locatedAt;
}

function onOrange(state: YorktownState, plane: PlaneState): boolean {
  return plane.position.at === 'island' && colourOf(state.rules.board, plane.position.island) === 'orange';
}

/** Fuel needed to get back to the approach area from where the plane is. */
function fuelHome(state: YorktownState, plane: PlaneState): number {
  if (plane.position.at !== 'island') return 0;
  if (clearWayToApproach(state.rules.board, state.islands, plane.position.island, false)) return state.rules.move.returnFuel;
  return (shortestWay(state, plane.position, (n) => n === 'approach')?.length ?? 3) * state.rules.move.oneIslandFuel;
}

/** Roles: planes 3 and 4 search (they start nearer the orange islands); 1 and 2 defend the Yorktown and carry the bombs. */
function isSearcher(plane: PlaneState): boolean {
  return plane.id >= 3;
}

function lowOnFuel(state: YorktownState, plane: PlaneState): boolean {
  // come back with about 3 fuel: the landing roll then has skill + 3 dice
  return plane.position.at !== 'deck' && plane.fuel <= fuelHome(state, plane) + 3;
}

function wantsHome(state: YorktownState, plane: PlaneState): boolean {
  if (plane.position.at === 'deck') return false;
  if (lowOnFuel(state, plane)) return true;
  // once the Shōhō is located, planes without a bomb go back to load one, but one defender
  // stays while Japanese planes sit on red islands
  if (!located(state) || plane.load === 'bomb') return false;
  if (!isSearcher(plane)) return plane.id === 1 || redThreats(state).length === 0;
  return true;
}

/** Red islands holding Japanese planes: the last link of any chain that spots the Yorktown. */
function redThreats(state: YorktownState): IslandId[] {
  return state.islands.filter((i) => i.colour === 'red' && i.japanese.length > 0).map((i) => i.id);
}

/** Islands the plane wants to reach: orange islands for searchers and armed bombers, threatened red islands for defenders. */
function goalsFor(state: YorktownState, plane: PlaneState): (n: Node) => boolean {
  const isOrange = (n: Node) => n !== 'approach' && colourOf(state.rules.board, n) === 'orange';
  const threats = redThreats(state);
  if (!isSearcher(plane) && threats.length) return (n) => n !== 'approach' && threats.includes(n);
  const preferred = orangeGoal(state, plane);
  const free = (n: Node) => isOrange(n) && !state.planes.some((p) => p.id !== plane.id && p.position.at === 'island' && p.position.island === n);
  return (n) => n === preferred || free(n);
}

function orangeGoal(state: YorktownState, plane: PlaneState): IslandId {
  const oranges = state.rules.board.islands.filter((i) => i.colour === 'orange').map((i) => i.id);
  return oranges[(plane.id - 1) % oranges.length];
}

function chooseFor(state: YorktownState, plane: PlaneState, deckUses: { n: number }): ActionType {
  // a take-off or landing only when one of the turn's two flight-deck slots is still free
  const wantDeck = (): boolean => {
    if (deckUses.n >= state.rules.flightDeck.perTurn) return false;
    deckUses.n += 1;
    return true;
  };
  if (plane.position.at === 'deck') return wantDeck() ? 'takeoffLanding' : 'move';
  if (wantsHome(state, plane)) {
    if (plane.position.at === 'approach') return wantDeck() ? 'takeoffLanding' : 'move';
    return 'move';
  }
  const here = plane.position.at === 'island' ? plane.position.island : null;
  const enemies = here === null ? 0 : japaneseOn(state, here);
  if (here !== null && enemies > 0 && colourOf(state.rules.board, here) === 'red') return 'attack';
  if (onOrange(state, plane)) {
    if (located(state) && plane.load === 'bomb') return 'attack';
    if (!located(state)) return 'search';
  }
  if (enemies > 0 && !isSearcher(plane) && plane.fuel >= 7) return 'attack';
  return 'move';
}

/** A move toward where the plane wants to be, as a command (or null: stay). */
function moveFor(state: YorktownState, plane: PlaneState): GameCommand | null {
  const reserve = 2;
  if (wantsHome(state, plane)) {
    if (plane.position.at === 'approach') return null;
    const island = (plane.position as { island: IslandId }).island;
    if (clearWayToApproach(state.rules.board, state.islands, island, false)) return { type: 'move', plane: plane.id, to: 'approach' };
    const way = shortestWay(state, plane.position, (n) => n === 'approach');
    if (!way || way[0] === 'approach') return { type: 'move', plane: plane.id, to: 'approach' };
    return { type: 'move', plane: plane.id, to: way[0] };
  }
  const goal = goalsFor(state, plane);
  const way = shortestWay(state, plane.position, goal);
  if (!way || way.length === 0 || way[0] === 'approach') return null;
  const first = way[0] as IslandId;
  if (way.length >= 2 && way[1] !== 'approach' && japaneseOn(state, first) === 0 && plane.fuel >= state.rules.move.twoIslandsFuel + reserve + 6) {
    return { type: 'move', plane: plane.id, to: way[1], via: first };
  }
  return { type: 'move', plane: plane.id, to: first };
}

/** Use the plane's expert manoeuvre tile when it is the one that helps this command. */
function tile(plane: PlaneState, ...useful: string[]): { manoeuvre?: true } {
  return plane.manoeuvre && !plane.manoeuvre.used && plane.manoeuvre.id !== null && useful.includes(plane.manoeuvre.id) ? { manoeuvre: true } : {};
}

function actionCommand(state: YorktownState, plane: PlaneState): GameCommand | null {
  switch (plane.action) {
    case 'takeoffLanding': {
      if (plane.position.at === 'deck') {
        const reds = state.rules.board.islands.filter((i) => i.colour === 'red').map((i) => i.id);
        const threats = redThreats(state);
        const to = threats.length && !isSearcher(plane) ? threats[0] : reds[(plane.id - 1) % reds.length];
        const load = isSearcher(plane) && !located(state) ? 'none' : 'bomb';
        return { type: 'takeOff', plane: plane.id, load, to };
      }
      if (plane.position.at !== 'approach') return null;
      return { type: 'land', plane: plane.id, ...(plane.fuel < state.rules.landing.autoFuel ? tile(plane, 'landingAce') : {}) };
    }
    case 'move':
      return plane.position.at === 'deck' ? null : moveFor(state, plane);
    case 'search':
      return onOrange(state, plane) ? { type: 'search', plane: plane.id, ...tile(plane, 'hawkEye', 'efficient') } : null;
    case 'attack': {
      if (located(state) && plane.load === 'bomb' && onOrange(state, plane)) return { type: 'attack', plane: plane.id, target: 'shoho', ...tile(plane, 'decisive', 'efficient') };
      if (plane.position.at === 'island' && japaneseOn(state, plane.position.island) > 0) return { type: 'attack', plane: plane.id, target: 'planes' };
      if (located(state) && state.cap > 0 && onOrange(state, plane)) return { type: 'attack', plane: plane.id, target: 'cap' };
      return null;
    }
    default:
      return null;
  }
}

const MAX_REROLLS = 10;

/** The dice after a re-roll: locked 1s stay; a 1 that Decisive freed is re-rolled with the other dice not kept. */
function rerolled(faces: Face[], keep: Set<number>, lockedOnes: number, random: () => number): Face[] {
  let ones = 0;
  return faces.map((f) => {
    if (f === 1 && ones < lockedOnes) {
      ones++;
      return f;
    }
    if (f !== 1 && keep.has(f)) return f;
    return rollDie(random);
  });
}

/** Does a re-roll keeping `keep` (and the locked 1s) throw any die? */
function rerollsAny(faces: Face[], keep: Set<number>, lockedOnes: number): boolean {
  const ones = faces.filter((f) => f === 1).length;
  return ones > lockedOnes || faces.some((f) => f !== 1 && !keep.has(f));
}

/** Which face values to keep; null = stop rolling (result good enough, or fuel too low to risk). */
function keepFaces(state: YorktownState, faces: Face[], lockedOnes: number): Set<number> | null {
  const roll = state.roll!;
  const spec = roll.tracker.spec;
  const groups = equalGroups(faces);
  const plane = roll.plane === null ? null : state.planes.find((p) => p.id === roll.plane)!;
  const fuelLeft = spec.onesCostFuel && plane ? plane.fuel : null;
  if (fuelLeft !== null && fuelLeft <= 1 && (roll.tracker.best.kind !== 'tier' || roll.tracker.best.tierId !== null)) return null;
  if (fuelLeft === 0) return null;
  if (spec.goal.kind === 'tiers') {
    const top = Math.max(...spec.goal.tiers.map((t) => t.equal));
    const largest = groups[0]?.count ?? 0;
    if (largest >= top) return null;
    return new Set(groups.length ? [groups[0].value] : []);
  }
  if (spec.goal.kind === 'targets') {
    const decision = decideTargets(lockedOnes, groups.map((g) => g.count), {
      dice: spec.dice,
      targets: spec.goal.targets,
      cautiousFuelLeft: fuelLeft,
    });
    if (decision.stop) return null;
    return new Set(decision.keep.map((i) => groups[i].value));
  }
  return null;
}

function lightningMayHit(state: YorktownState, plane: number): boolean {
  return lightningChance(state, plane)?.chance !== 0;
}

function secondsFor(command: GameCommand, timing: Timing): number {
  switch (command.type) {
    case 'drawCard':
      return timing.drawCard;
    case 'chooseAction':
    case 'skipAction':
    case 'useDropTank':
      return timing.chooseAction;
    case 'dice':
      return timing.reading;
    case 'confirmRoll':
      return timing.confirm;
    case 'endTurn':
      return timing.endTurn;
    default:
      return timing.action;
  }
}

export function playGame(options: SimulationOptions): GameSummary {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const maxCommands = options.maxCommands ?? 5000;
  const random = seededRandom(options.seed ^ 0x5eed);
  const table = new VirtualTable(Date.UTC(1942, 4, 7, 8, 0, 0), timing);
  table.send(
    { type: 'newGame', seed: options.seed, players: options.players, difficulty: options.difficulty, expansions: options.expansions ?? {} },
    0,
  );
  while (table.state.outcome === null && table.commands < maxCommands) {
    // a refused attempt takes its time too, as at a table
    const command = policyCommand(table.state, random, (refused) => table.refused(secondsFor(refused, timing)));
    if (command === null) break;
    table.send(command, secondsFor(command, timing));
  }
  const final = table.state;
  return {
    result: final.outcome?.result ?? 'unfinished',
    cause: final.outcome?.cause ?? null,
    turns: final.turn,
    commands: table.commands,
    rejected: table.rejected,
    gameSeconds: Math.round(((final.outcome?.at ?? table.clock) - (final.startedAt ?? 0)) / 1000),
    yorktownHits: final.yorktownHits,
    shohoHits: final.shohoHits,
    search: final.search,
    japaneseDestroyed: final.japaneseDestroyed,
    planesDestroyed: final.planes.filter((p) => p.destroyed).length,
    journal: table.journal,
  };
}

/**
 * The policy's next command in any state of a game (one on the simulated clock, one the table plays at
 * its own pace, one restored after a restart, one whose dice the camera read), or null when there is no
 * game to play. Planes choose in turn, then act in order; virtual dice keep the best group and re-roll the
 * rest while it is worth it. Each command is one the rules accept now (checked on the pure engine),
 * falling back to skipping the plane's action or ending the turn; `refused` hears of each one the rules
 * refused (the simulation counts them: a check that the policy and the engine agree).
 */
export function policyCommand(state: YorktownState, random: () => number, refused: (command: GameCommand) => void = () => undefined): GameCommand | null {
  const accepted = (command: GameCommand) => acceptedNow(state, command, refused);
  if (state.setup === null || state.outcome !== null) return null;
  if (state.roll) return rollCommand(state, random);
  if (state.phase === 'setup' || state.phase === 'japanese') return { type: 'drawCard' };
  if (state.phase !== 'planes') return null;
  const flying = state.planes.filter((p) => !p.destroyed);
  const unchosen = flying.find((p) => p.action === null);
  if (unchosen && !state.actionsStarted) {
    const deckUses = { n: flying.filter((p) => p.action === 'takeoffLanding').length };
    return accepted({ type: 'chooseAction', plane: unchosen.id, action: chooseFor(state, unchosen, deckUses) }) ?? { type: 'endTurn' };
  }
  const window = state.afterMove;
  if (window) {
    const plane = state.planes.find((p) => p.id === window.plane)!;
    const taken = window.emergencyLanding
      ? accepted({ type: 'emergencyLanding', plane: plane.id })
      : window.lightningAttack && plane.fuel >= 4 && lightningMayHit(state, plane.id)
        ? accepted({ type: 'lightningAttack', plane: plane.id })
        : null;
    if (taken) return taken;
  }
  const next = flying.find((p) => !p.done);
  if (!next) return { type: 'endTurn' };
  const dropTank = next.load === 'dropTank' && next.fuel <= state.rules.dropTank.maxFuelToUse ? accepted({ type: 'useDropTank', plane: next.id }) : null;
  if (dropTank) return dropTank;
  const action = actionCommand(state, next);
  return (action && accepted(action)) ?? accepted({ type: 'skipAction', plane: next.id }) ?? { type: 'endTurn' };
}

/** The roll in progress: the first throw, a re-roll of the dice not kept, or its confirmation. */
function rollCommand(state: YorktownState, random: () => number): GameCommand {
  const tracker = state.roll!.tracker;
  if (tracker.faces === null) return { type: 'dice', faces: Array.from({ length: tracker.spec.dice }, () => rollDie(random)) };
  const faces = tracker.faces as Face[];
  const keep = tracker.spec.continuous && tracker.readings <= MAX_REROLLS ? keepFaces(state, faces, tracker.lockedOnes) : null;
  // every die kept or locked: a re-roll would throw nothing (the same dice over and over), so the roll stops here
  if (keep === null || !rerollsAny(faces, keep, tracker.lockedOnes)) return { type: 'confirmRoll' };
  return { type: 'dice', faces: rerolled(faces, keep, tracker.lockedOnes, random) };
}

/** The command when the rules accept it in this state (before the stopwatch runs out), else null (told to `refused`). */
function acceptedNow(state: YorktownState, command: GameCommand, refused: (command: GameCommand) => void): GameCommand | null {
  if (yorktown1942.apply(state, command as never, state.startedAt ?? 0).ok) return command;
  refused(command);
  return null;
}
