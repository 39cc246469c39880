import { describe, expect, it } from 'vitest';
import { yorktown1942, listRuleValues, resolveRules, defaultRuleset } from '../../server/games/yorktown1942/index.ts';
import { ok, refused, start, T0, tokenCounts, island, plane } from './yorktown-helpers.ts';

describe('set-up', () => {
  it('"Put the fuel token on 14 ... Place two player\'s wooden plane in the approach area ... and the rest on two red islands of your choice. Reduce the fuel of the planes on red islands to 13."', () => {
    const s = start({ startIslands: [9, 10] });
    expect(s.planes.map((p) => p.position)).toEqual([{ at: 'approach' }, { at: 'approach' }, { at: 'island', island: 9 }, { at: 'island', island: 10 }]);
    expect(s.planes.map((p) => p.fuel)).toEqual([14, 14, 13, 13]);
    expect(s.planes.every((p) => p.cockpit === 'A' && p.skill === 0 && p.load === 'none')).toBe(true);
    expect(s.search).toBe(0);
    expect(s.yorktownHits).toBe(0);
  });

  it('"...the rest on two red islands of your choice": a green island or the same island twice is refused', () => {
    const empty = yorktown1942.emptyState();
    refused(empty, { type: 'newGame', players: 4, startIslands: [5, 9] }, 'badStartIsland');
    refused(empty, { type: 'newGame', players: 4, startIslands: [9, 9] }, 'badStartIsland');
  });

  it('"1 Player: Player uses four planes. 2 Players: Each player uses two planes. 3 Players: The player with the most experience uses two planes"', () => {
    const seats = (players: 1 | 2 | 3 | 4) => start({ players }).planes.map((p) => p.seat);
    expect(seats(1)).toEqual([1, 1, 1, 1]);
    expect(seats(2)).toEqual([1, 1, 2, 2]);
    expect(seats(3)).toEqual([1, 1, 2, 3]);
    expect(seats(4)).toEqual([1, 2, 3, 4]);
    expect(start({ players: 3, planeSeats: { '1': 3, '4': 1 } }).planes.map((p) => p.seat)).toEqual([3, 1, 2, 1]);
    const message = refused(yorktown1942.emptyState(), { type: 'newGame', players: 2, planeSeats: { '1': 2, '2': 2 } }, 'badSeating');
    expect(message).toMatch(/Player 1 has no plane/);
  });

  it('"30 minutes ... 25 or 35 minutes. +1 minute for each player below four players. +2 minutes for each inexperienced player."', () => {
    expect(start({ players: 4 }).deadline).toBe(T0 + 30 * 60_000);
    expect(start({ players: 1, difficulty: 25 }).deadline).toBe(T0 + (25 + 3) * 60_000);
    expect(start({ players: 3, inexperienced: 2, difficulty: 35 }).deadline).toBe(T0 + (35 + 1 + 4) * 60_000);
    expect(start().startedAt).toBe(T0);
    refused(yorktown1942.emptyState(), { type: 'newGame', players: 2, inexperienced: 3 }, 'badInexperienced');
  });

  it('"If the card has two islands, place two planes and do not draw more cards. If the card has one island ... draw a second card"', () => {
    for (let seed = 0; seed < 40; seed++) {
      const s = start({ seed });
      const placed = s.islands.reduce((n, i) => n + i.japanese.length, 0);
      const drawn = s.deck.discard.map((id) => s.rules.deck.find((c) => c.id === id)!);
      expect(drawn.length === 1 ? drawn[0].islands.length : 99).not.toBe(1);
      if (drawn.length === 1) expect(drawn[0].islands.length).toBe(2);
      else {
        expect(drawn.length).toBe(2);
        expect(drawn[0].islands.length).toBe(1);
      }
      expect(placed).toBeGreaterThanOrEqual(2);
      expect(placed).toBeLessThanOrEqual(3);
      expect(s.phase).toBe('japanese');
      expect(s.turn).toBe(1);
    }
  });

  it('"At the beginning of the game a stopwatch must be set": with the physical deck, once the set-up cards are placed', () => {
    let s = start({ deck: 'physical', players: 4 });
    expect(s).toMatchObject({ phase: 'setup', minutes: 30, deadline: null, startedAt: null });
    s = ok(s, { type: 'cardDrawn', card: { islands: [4], plane: 'kate', event: 'none', directHit: false } }, T0 + 60_000).state;
    expect(s.deadline).toBeNull();
    const { state, events } = ok(s, { type: 'cardDrawn', card: { islands: [5, 6], plane: 'zeke', event: 'none', directHit: false } }, T0 + 90_000);
    expect(state).toMatchObject({ phase: 'japanese', startedAt: T0 + 90_000, deadline: T0 + 90_000 + 30 * 60_000 });
    expect(events.find((e) => e.type === 'stopwatchStarted')).toEqual({ type: 'stopwatchStarted', minutes: 30, deadline: T0 + 90_000 + 30 * 60_000 });
    // the digital deck draws them at once: its time runs from the new game
    expect(start({ deck: 'digital' })).toMatchObject({ startedAt: T0, deadline: T0 + 30 * 60_000 });
  });

  it('"Ignore any events on the cards at this stage of the game." (physical deck: the players tell the cards)', () => {
    let s = start({ deck: 'physical' });
    expect(s.phase).toBe('setup');
    s = ok(s, { type: 'cardDrawn', card: { islands: [4], plane: 'kate', event: 'cap', directHit: true } }).state;
    expect(s.phase).toBe('setup');
    expect(s.cap).toBe(0);
    s = ok(s, { type: 'cardDrawn', cardId: s.rules.deck.find((c) => c.event === 'shohoMoves')!.id }).state;
    expect(s.phase).toBe('japanese');
    expect(s.yorktownHits).toBe(0);
    expect(island(s, 4).japanese).toEqual(['kate']);
  });

  it('an owner who sets japanese.ignoreEventsAtSetup to false gets the set-up cards\' events', () => {
    let s = start({ deck: 'physical', ruleOverrides: { 'japanese.ignoreEventsAtSetup': false } });
    s = ok(s, { type: 'cardDrawn', card: { islands: [4], plane: 'kate', event: 'cap', directHit: false } }).state;
    expect(s.cap).toBe(1);
    expect(s.phase).toBe('setup');
  });

  it('"Shuffle the Japanese deck": the same seed gives the same deck, another seed another order', () => {
    expect(start({ seed: 5 }).deck).toEqual(start({ seed: 5 }).deck);
    expect(start({ seed: 5 }).deck.drawPile).not.toEqual(start({ seed: 6 }).deck.drawPile);
    const s = start({ seed: 5 });
    expect(s.deck.drawPile.length + s.deck.discard.length).toBe(38);
  });

  it('"20 cardboard Japanese plane tokens: 8 Jake and 12 Kate (Zeke on the opposite side)"', () => {
    const s = start();
    expect(tokenCounts(s)).toEqual({ jake: 8, kateZeke: 12 });
  });

  it('a game cannot be played before newGame', () => {
    refused(yorktown1942.emptyState(), { type: 'drawCard' }, 'noGame');
  });

  it('"Place the search token on 0 on the search track." and every plane starts with its action disc free', () => {
    const s = start();
    expect(s.planes.every((p) => p.action === null && !p.done)).toBe(true);
    expect(plane(s, 1).manoeuvre).toBeNull();
  });
});

describe('ruleset data', () => {
  it('every rule value is tagged rulebook (with a quote) or assumed (with a reason)', () => {
    const rows = listRuleValues(defaultRuleset);
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) {
      if (row.source === 'rulebook') expect(row.quote, row.path).toMatch(/\w/);
      else expect(row.why, row.path).toMatch(/\w/);
    }
    const assumed = rows.filter((r) => r.source === 'assumed').map((r) => r.path);
    expect(assumed).toEqual(expect.arrayContaining(['attack.targets.jake.equal', 'yorktown.aaFace', 'board', 'deck', 'skill.dice']));
  });

  it('an override changes a value, is stored in the game state and marked as set by the owner', () => {
    const s = start({ ruleOverrides: { 'attack.targets.jake.equal': 2, 'fuel.max': 16 } });
    expect(s.rules.attack.targets.jake.equal).toBe(2);
    expect(s.rules.fuel.max).toBe(16);
    expect(s.ruleOverrides).toEqual({ 'attack.targets.jake.equal': 2, 'fuel.max': 16 });
    expect(plane(s, 1).fuel).toBe(16);
    expect(resolveRules().attack.targets.jake.equal).toBe(3);
  });

  it('an unknown path or a wrong type is refused with a clear message', () => {
    const empty = yorktown1942.emptyState();
    expect(refused(empty, { type: 'newGame', players: 4, ruleOverrides: { 'fuel.maximum': 12 } }, 'unknownRule')).toMatch(/no rule value "fuel.maximum"/);
    expect(refused(empty, { type: 'newGame', players: 4, ruleOverrides: { 'fuel.max': '12' } }, 'wrongType')).toMatch(/fuel.max must be a number/);
    expect(refused(empty, { type: 'newGame', players: 4, ruleOverrides: { 'skill.dice': [{ from: 0 }] } }, 'wrongType')).toMatch(/dice is missing/);
    expect(refused(empty, { type: 'newGame', players: 4, ruleOverrides: { 'board': { islands: [], lines: [], approachLines: [] } } })).toMatch(/red/);
  });

  it('values no game can be played with are refused: none of a thing, a half, results out of order', () => {
    const empty = yorktown1942.emptyState();
    const why = (ruleOverrides: Record<string, unknown>) => refused(empty, { type: 'newGame', players: 4, ruleOverrides }, 'badValue');
    expect(why({ 'skill.max': 0 })).toMatch(/skill.max must be at least 1 \(it is 0\)/);
    expect(why({ 'fuel.max': 0 })).toMatch(/fuel.max must be at least 1/);
    expect(why({ 'fuel.max': 12.5 })).toMatch(/fuel.max must be a whole number, not 12.5/);
    expect(why({ 'landing.crashUnharmedEqual': 5 })).toMatch(/landing.safeEqual \(3\) must ask for more equal dice than landing.crashUnharmedEqual \(5\)/);
    expect(why({ 'attack.targets.kate.equal': 0 })).toMatch(/attack.targets.kate.equal must be at least 1/);
    expect(why({ 'search.locatedAt': 9 })).toMatch(/past the end of the search track, search.max \(7\)/);
    expect(why({ 'players.max': 5 })).toMatch(/players.max must stay 4 \(it is 5\)/);
    expect(why({ 'players.max': 3 })).toMatch(/players.max must stay 4 \(it is 3\)/);
    expect(why({ 'stopwatch.minutes': 20 })).toMatch(/stopwatch.minutes \(20\) must be one of stopwatch.difficulties \(25, 30, 35\)/);
    expect(why({ 'stopwatch.difficulties': [] })).toMatch(/must be one of stopwatch.difficulties \(none\)/);
    expect(why({ 'shoho.tiers': [{ equal: 3, hits: 1, skill: 1 }, { equal: 2, hits: 2, skill: 2 }] })).toMatch(/shoho.tiers must ask for more equal dice at each better result \(3, then 2\)/);
    expect(start({ ruleOverrides: { 'landing.safeEqual': 4, 'skill.max': 1 } }).rules.landing.safeEqual).toBe(4);
  });

  it('the board data keeps the named islands and colours: 1 Admiralty, 9 Guadalcanal, 10 Rendova', () => {
    const board = resolveRules().board;
    expect(board.islands.find((i) => i.id === 1)?.name).toBe('Admiralty');
    expect(board.islands.find((i) => i.id === 9)?.name).toBe('Guadalcanal');
    expect(board.islands.find((i) => i.id === 10)?.name).toBe('Rendova');
    expect(board.islands.filter((i) => i.colour === 'green').length).toBeGreaterThanOrEqual(4);
    expect(resolveRules().deck).toHaveLength(38);
    expect(resolveRules().deck.filter((c) => c.directHit).length).toBeGreaterThan(0);
  });
});

describe('command schemas', () => {
  it('one draft-07 schema per command, closed to unknown fields, that a JSON-schema validator accepts', async () => {
    const { commandSchemas, commandTypes } = await import('../../server/games/yorktown1942/commands.ts');
    expect(commandTypes).toEqual(expect.arrayContaining(['newGame', 'drawCard', 'cardDrawn', 'chooseAction', 'takeOff', 'land', 'move', 'search', 'attack', 'lightningAttack', 'emergencyLanding', 'dropLoad', 'useDropTank', 'revealWeather', 'dice', 'confirmRoll', 'skipAction', 'endTurn', 'timeUp', 'undo']));
    for (const type of commandTypes) {
      expect(commandSchemas[type]).toMatchObject({ type: 'object', additionalProperties: false, properties: { type: { const: type } } });
    }
    let Ajv: (new (options: object) => { compile: (s: object) => (data: unknown) => boolean }) | null = null;
    try {
      Ajv = ((await import('ajv')) as unknown as { default: typeof Ajv }).default;
    } catch {
      console.warn('ajv is not installed: schema compilation not checked');
      return;
    }
    const ajv = new Ajv!({ strict: true });
    const move = ajv.compile(commandSchemas.move);
    expect(move({ type: 'move', plane: 1, to: 'approach' })).toBe(true);
    expect(move({ type: 'move', plane: 1, to: 3, via: 5, manoeuvre: 'invisible' })).toBe(true);
    expect(move({ type: 'move', plane: 1, to: 3, extra: 1 })).toBe(false);
    expect(move({ type: 'move', plane: 5, to: 3 })).toBe(false);
    for (const type of commandTypes) expect(() => ajv.compile(commandSchemas[type])).not.toThrow();
  });
});
