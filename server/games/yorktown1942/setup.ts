/** newGame: seats, stopwatch, starting positions, tiles, weather tokens, the shuffled deck and the opening draws. */
import { emit, reject, type Ctx } from './context.ts';
import { resolveRules, RuleOverrideError, type Rules } from './ruleset.ts';
import { shuffle } from './rng.ts';
import { drawnCard, setupCard, startStopwatch } from './japanese.ts';
import type { NewGameCommand } from './commands.ts';
import type { GameSetup, IslandState, PlaneId, PlaneState, Seat, WeatherId, YorktownState } from './types.ts';

export function emptyState(): YorktownState {
  const rules = resolveRules();
  return {
    game: 'yorktown1942',
    rules,
    ruleOverrides: {},
    phase: 'setup',
    setup: null,
    seed: null,
    rng: 0,
    startedAt: null,
    minutes: 0,
    deadline: null,
    turn: 0,
    yorktownHits: 0,
    shohoHits: 0,
    search: 0,
    cap: 0,
    supply: { jake: rules.japanese.tokens.jake, kateZeke: rules.japanese.tokens.kateZeke },
    planes: [],
    islands: rules.board.islands.map((i) => ({ id: i.id, colour: i.colour, japanese: [], weather: null })),
    deck: { mode: 'digital', drawPile: [], discard: [] },
    lastCard: null,
    spotted: false,
    takeoffsLandingsThisTurn: 0,
    actionsStarted: false,
    roll: null,
    outcome: null,
    removed: { jake: 0, kateZeke: 0 },
    japaneseDestroyed: 0,
    setupDraws: 0,
    pendingCard: null,
    afterMove: null,
    weatherInBox: [],
    weatherRevealed: [],
  };
}

/** Minutes on the stopwatch: base difficulty, +1 per player below four, +2 per inexperienced player. */
export function stopwatchMinutes(rules: Rules, players: number, inexperienced: number, difficulty: number): number {
  return (
    difficulty +
    (rules.players.max - players) * rules.stopwatch.perMissingPlayerMinutes +
    inexperienced * rules.stopwatch.perInexperiencedMinutes
  );
}

function planeSeats(rules: Rules, command: NewGameCommand): Record<PlaneId, Seat> {
  const defaults = rules.players.seating[String(command.players)];
  if (!defaults || defaults.length !== 4) reject('badSeating', `The ruleset has no seating for ${command.players} players.`, { players: command.players });
  const seats = { 1: defaults[0], 2: defaults[1], 3: defaults[2], 4: defaults[3] } as Record<PlaneId, Seat>;
  for (const [plane, seat] of Object.entries(command.planeSeats ?? {})) {
    if (seat > command.players) reject('badSeating', `Plane ${plane} cannot fly for seat ${seat}: only ${command.players} players play.`, { plane, seat, players: command.players });
    seats[Number(plane) as PlaneId] = seat as Seat;
  }
  for (let seat = 1; seat <= command.players; seat++) {
    if (!Object.values(seats).includes(seat as Seat)) reject('badSeating', `Player ${seat} has no plane: every player flies at least one.`, { seat });
  }
  return seats;
}

export function newGame(ctx: Ctx, command: NewGameCommand): void {
  let rules: Rules;
  try {
    rules = resolveRules(command.ruleOverrides ?? {});
  } catch (err) {
    if (err instanceof RuleOverrideError) reject(err.code, err.message);
    throw err;
  }
  const players = command.players;
  if (!Number.isInteger(players) || players < rules.players.min || players > rules.players.max) {
    reject('badPlayers', `A game has ${rules.players.min} to ${rules.players.max} players.`, { min: rules.players.min, max: rules.players.max });
  }
  const inexperienced = command.inexperienced ?? 0;
  if (!Number.isInteger(inexperienced) || inexperienced < 0 || inexperienced > players) {
    reject('badInexperienced', `The number of inexperienced players must be between 0 and ${players}.`, { max: players });
  }
  const difficulty = command.difficulty ?? rules.stopwatch.minutes;
  if (!rules.stopwatch.difficulties.includes(difficulty)) {
    reject('badDifficulty', `The stopwatch is set to ${rules.stopwatch.difficulties.join(', ')} minutes, not ${difficulty}.`, {
      difficulties: rules.stopwatch.difficulties.join(', '),
      difficulty,
    });
  }
  const reds = rules.board.islands.filter((i) => i.colour === 'red').map((i) => i.id);
  const startIslands = command.startIslands ?? [reds[0], reds[1] ?? reds[0]];
  for (const island of startIslands) {
    if (!reds.includes(island)) reject('badStartIsland', `Planes start on red islands (${reds.join(', ')}); island ${island} is not red.`, { island, reds: reds.join(', ') });
  }
  if (startIslands[0] === startIslands[1] && reds.length > 1) reject('badStartIsland', 'The two planes that start on islands go to two different red islands.');
  const seed = command.seed ?? ctx.at >>> 0;
  const setup: GameSetup = {
    players,
    inexperienced,
    difficulty: difficulty as GameSetup['difficulty'],
    expansions: {
      expertManoeuvres: command.expansions?.expertManoeuvres ?? false,
      dropTank: command.expansions?.dropTank ?? false,
      weather: command.expansions?.weather ?? false,
    },
    deck: command.deck ?? 'digital',
    planeSeats: planeSeats(rules, command),
  };
  const minutes = stopwatchMinutes(rules, players, inexperienced, difficulty);
  const state = emptyState();
  state.rules = rules;
  state.ruleOverrides = structuredClone(command.ruleOverrides ?? {});
  state.setup = setup;
  state.seed = seed;
  state.rng = seed;
  state.minutes = minutes;
  // "At the beginning of the game a stopwatch must be set": with the physical deck, once the players
  // have drawn and placed the set-up cards (japanese.ts `setupCard`); the digital deck draws them at once
  if (setup.deck === 'digital') startStopwatch(state, ctx.at);
  state.supply = { jake: rules.japanese.tokens.jake, kateZeke: rules.japanese.tokens.kateZeke };
  state.islands = rules.board.islands.map((i): IslandState => ({ id: i.id, colour: i.colour, japanese: [], weather: null }));
  state.planes = ([1, 2, 3, 4] as PlaneId[]).map((id, index): PlaneState => {
    const onIsland = index >= rules.start.approachPlanes;
    return {
      id,
      seat: setup.planeSeats[id],
      fuel: onIsland ? rules.start.redIslandFuel : rules.fuel.max,
      skill: rules.start.skill,
      cockpit: 'A',
      destroyed: false,
      position: onIsland ? { at: 'island', island: startIslands[index - rules.start.approachPlanes] ?? startIslands[0] } : { at: 'approach' },
      load: 'none',
      action: null,
      done: false,
      skipped: false,
      manoeuvre: null,
    };
  });
  state.search = rules.start.search;
  ctx.state = state;
  ctx.rules = rules;

  if (setup.expansions.expertManoeuvres) {
    if (setup.deck === 'digital') {
      const dealt = shuffle(rules.manoeuvres.tiles, state.rng);
      state.rng = dealt.state;
      state.planes.forEach((p, i) => (p.manoeuvre = { id: dealt.items[i] ?? null, used: dealt.items[i] === undefined }));
    } else {
      state.planes.forEach((p) => (p.manoeuvre = { id: null, used: false }));
    }
  }
  if (setup.expansions.weather) {
    const greens = state.islands.filter((i) => i.colour === 'green');
    const count = Math.min(rules.weather.placed, greens.length);
    if (setup.deck === 'digital') {
      const tokens: WeatherId[] = [];
      for (const [id, n] of Object.entries(rules.weather.tokens)) for (let k = 0; k < n; k++) tokens.push(id as WeatherId);
      const mixed = shuffle(tokens, state.rng);
      state.rng = mixed.state;
      greens.slice(0, count).forEach((island, i) => (island.weather = { id: mixed.items[i], revealed: false }));
      state.weatherInBox = mixed.items.slice(count);
    } else {
      greens.slice(0, count).forEach((island) => (island.weather = { id: null, revealed: false }));
    }
  }
  state.deck = { mode: setup.deck, drawPile: [], discard: [] };
  if (setup.deck === 'digital') {
    const shuffled = shuffle(
      rules.deck.map((c) => c.id),
      state.rng,
    );
    state.deck.drawPile = shuffled.items;
    state.rng = shuffled.state;
  }
  emit(ctx, 'gameStarted', { players, inexperienced, difficulty, minutes, deadline: state.deadline, deck: setup.deck, seed });
  state.setupDraws = 2;
  state.phase = 'setup';
  if (setup.deck === 'digital') {
    while (state.phase === 'setup') setupCard(ctx, drawnCard(ctx, { type: 'drawCard' }));
  }
}
