import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openJournal, replay, submit, type JournalState } from '../../server/games/journal.ts';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { T0, tokenCounts } from './yorktown-helpers.ts';

interface Step {
  kind: number;
  a: number;
  b: number;
  c: number;
  faces: number[];
}

const step = fc.record({
  kind: fc.nat(99),
  a: fc.nat(40),
  b: fc.nat(40),
  c: fc.nat(40),
  faces: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 0, maxLength: 12 }),
});

const ACTIONS = ['search', 'takeoffLanding', 'attack', 'move'] as const;
const PLANE_COMMANDS = ['takeOff', 'land', 'move', 'search', 'attack', 'lightningAttack', 'emergencyLanding', 'skipAction', 'dropLoad', 'useDropTank', 'revealWeather'] as const;

/** Turn a random step into a command that is often (not always) legal in the current state. */
function commandFor(state: YorktownState, s: Step): Record<string, unknown> {
  const planeId = (s.a % 4) + 1;
  if (s.kind === 99 && s.b % 8 === 0) return { type: 'timeUp' };
  if (s.kind >= 97) return { type: 'undo', count: (s.b % 3) + 1 };
  if (s.kind >= 95) return { type: ['endTurn', 'confirmRoll', 'drawCard'][s.b % 3] };
  if (state.roll) {
    if (s.kind < 70) {
      const n = s.kind < 65 ? state.roll.tracker.spec.dice : s.faces.length;
      const locked = state.roll.tracker.lockedOnes;
      const faces = Array.from({ length: n }, (_, i) => (i < locked && s.kind < 60 ? 1 : (s.faces[i] ?? ((s.b + i * s.c) % 6) + 1)));
      return { type: 'dice', faces };
    }
    return { type: 'confirmRoll', ...(s.kind < 75 && state.roll.targets.length ? { assign: [state.roll.targets[s.b % state.roll.targets.length].id] } : {}), ...(state.roll.purpose === 'weather' ? { weather: ['goodVisibility', 'favourableWind', 'storm', 'nothing'][s.c % 4] } : {}) };
  }
  if (state.phase === 'japanese' || state.phase === 'setup') {
    if (state.deck.mode === 'digital') return { type: 'drawCard' };
    const islands = s.c % 3 === 0 ? [(s.a % 10) + 1, ((s.a + 1 + (s.b % 9)) % 10) + 1] : [(s.a % 10) + 1];
    return {
      type: 'cardDrawn',
      card: { islands, plane: ['jake', 'kate', 'zeke'][s.b % 3], event: ['none', 'cap', 'shohoMoves'][s.c % 3], directHit: s.kind % 7 === 0 },
    };
  }
  const unchosen = state.planes.find((p) => !p.destroyed && p.action === null);
  if (unchosen && s.kind < 80) {
    const onOrange = unchosen.position.at === 'island' && state.islands.find((i) => i.id === (unchosen.position as { island: number }).island)?.colour === 'orange';
    return { type: 'chooseAction', plane: unchosen.id, action: onOrange && s.c % 2 === 0 ? 'search' : ACTIONS[s.b % 4] };
  }
  const ready = state.planes.filter((p) => !p.destroyed && !p.done);
  if (s.kind >= 92 || ready.length === 0) return { type: 'endTurn' };
  if (state.afterMove && s.kind % 2 === 0) {
    return { type: state.afterMove.lightningAttack ? 'lightningAttack' : 'emergencyLanding', plane: state.afterMove.plane };
  }
  if (s.kind < 82) {
    // mostly the command the plane's chosen action calls for
    const p = ready[s.a % ready.length];
    const manoeuvre = s.kind % 6 === 0 ? { manoeuvre: true } : {};
    switch (p.action) {
      case 'move': {
        const from = p.position.at === 'island' ? p.position.island : null;
        const next = from === null ? state.rules.board.approachLines : state.rules.board.lines.filter((l) => l.includes(from)).map((l) => (l[0] === from ? l[1] : l[0]));
        if (s.c % 4 === 0) return { type: 'move', plane: p.id, to: 'approach', ...manoeuvre };
        // two moves in three head for the Shōhō's side (the lowest island numbers are orange)
        const to = s.c % 3 === 0 ? next[s.b % next.length] : Math.min(...next);
        return { type: 'move', plane: p.id, to: to ?? 1 };
      }
      case 'takeoffLanding':
        return p.position.at === 'deck'
          ? { type: 'takeOff', plane: p.id, to: s.c % 2 ? 'approach' : 8 + (s.c % 3), load: ['none', 'bomb', 'dropTank'][s.kind % 3] }
          : { type: 'land', plane: p.id, ...manoeuvre };
      case 'search':
        return { type: s.c % 3 === 0 ? 'revealWeather' : 'search', plane: p.id, ...manoeuvre };
      case 'attack':
        return { type: 'attack', plane: p.id, target: ['planes', 'planes', 'cap', 'shoho'][s.c % 4], ...manoeuvre };
      default:
        return { type: 'skipAction', plane: p.id };
    }
  }
  const kind = PLANE_COMMANDS[s.b % PLANE_COMMANDS.length];
  const where = s.c % 11 === 0 ? 'approach' : (s.c % 10) + 1;
  switch (kind) {
    case 'takeOff':
      return { type: kind, plane: planeId, to: s.c % 2 ? 'approach' : 8 + (s.c % 3), load: ['none', 'bomb', 'dropTank'][s.kind % 3] };
    case 'move':
      return { type: kind, plane: planeId, to: where, ...(s.kind % 3 === 0 ? { via: (s.b % 10) + 1 } : {}), ...(s.kind % 5 === 0 ? { manoeuvre: true } : {}) };
    case 'attack':
      return { type: kind, plane: planeId, target: ['planes', 'cap', 'shoho'][s.c % 3], ...(s.kind % 5 === 0 ? { manoeuvre: true } : {}) };
    case 'search':
    case 'land':
    case 'lightningAttack':
    case 'emergencyLanding':
      return { type: kind, plane: planeId, ...(s.kind % 4 === 0 ? { manoeuvre: true } : {}) };
    default:
      return { type: kind, plane: planeId };
  }
}

/** Throws (naming the broken rule) when a state breaks an invariant; plain checks, as it runs after every command. */
function checkInvariants(state: YorktownState): void {
  const rules = state.rules;
  const fail = (what: string) => {
    throw new Error(`invariant broken: ${what}`);
  };
  for (const p of state.planes) {
    if (p.fuel < 0 || p.fuel > rules.fuel.max) fail(`plane ${p.id} fuel ${p.fuel}`);
    if (p.skill < 0 || p.skill > rules.skill.max) fail(`plane ${p.id} skill ${p.skill}`);
  }
  if (state.yorktownHits < 0 || state.yorktownHits > rules.yorktown.hitsToSink) fail(`Yorktown hits ${state.yorktownHits}`);
  if (state.shohoHits < 0 || state.shohoHits > rules.shoho.hitsToSink) fail(`Shōhō hits ${state.shohoHits}`);
  if (state.search < 0 || state.search > rules.search.max) fail(`search ${state.search}`);
  if (state.cap < 0 || state.cap > rules.cap.spaces) fail(`CAP ${state.cap}`);
  if (state.supply.jake < 0 || state.supply.kateZeke < 0) fail(`supply ${JSON.stringify(state.supply)}`);
  const tokens = tokenCounts(state);
  if (tokens.jake !== 8 || tokens.kateZeke !== 12) fail(`tokens ${JSON.stringify(tokens)}`);
  for (const island of state.islands) if (island.japanese.length > rules.japanese.islandCapacity) fail(`island ${island.id} holds ${island.japanese.length}`);
  if (state.takeoffsLandingsThisTurn > rules.flightDeck.perTurn) fail(`take-offs/landings ${state.takeoffsLandingsThisTurn}`);
}

/** The state without the (shared, never changed) rules, for a cheap "nothing changed" comparison. */
function fingerprint(state: YorktownState): string {
  return JSON.stringify({ ...state, rules: null });
}

describe('properties over random command sequences', () => {
  it('fuel, skill and damage stay in range, the 20 tokens are conserved, no island holds more than two, a rejected command changes nothing, the journal replays to the same state', () => {
    const accepted = new Map<string, number>();
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.nat(1_000_000),
          players: fc.integer({ min: 1, max: 4 }),
          physical: fc.boolean(),
          expansions: fc.boolean(),
          // half the games with a sturdier Yorktown, so that they last long enough to reach every action
          sturdy: fc.boolean(),
        }),
        fc.array(step, { minLength: 100, maxLength: 300, size: 'max' }),
        (setup, steps) => {
          let journal: JournalState<YorktownState> = openJournal(yorktown1942);
          const first = submit(
            yorktown1942,
            journal,
            {
              type: 'newGame',
              seed: setup.seed,
              players: setup.players,
              deck: setup.physical ? 'physical' : 'digital',
              expansions: setup.expansions ? { expertManoeuvres: true, dropTank: true, weather: true } : {},
              ...(setup.sturdy ? { ruleOverrides: { 'yorktown.hitsToSink': 12 } } : {}),
            },
            T0,
          );
          if (!first.ok) throw new Error(first.error.message);
          journal = first.journal;
          let at = T0;
          for (const s of steps) {
            at += 1000 + s.c * 200;
            const command = commandFor(journal.state, s);
            // timeUp is the stopwatch's: half of them sent when it runs out (the clock jumps to the deadline), the others early (refused)
            const deadline = journal.state.outcome === null ? journal.state.deadline : null;
            if (command.type === 'timeUp' && deadline !== null && s.c % 2 === 0) at = Math.max(at, deadline);
            // before the stopwatch starts (a physical deck's set-up) it is refused as well
            const running = journal.state.setup !== null && journal.state.outcome === null;
            const early = command.type === 'timeUp' && running && (deadline === null || at < deadline);
            const before = fingerprint(journal.state);
            const rules = journal.state.rules;
            const result = submit(yorktown1942, journal, command as never, at);
            if (fingerprint(journal.state) !== before || journal.state.rules !== rules) throw new Error(`${String(command.type)} changed the state it was given`);
            if (early !== (!result.ok && result.error.code === 'timeNotUp')) throw new Error(`timeUp at ${at}, deadline ${deadline}: ${JSON.stringify(result)}`);
            if (!result.ok) {
              if (!(result.error.message.length > 10 && result.error.code)) throw new Error(`rejection without a clear message: ${JSON.stringify(result.error)}`);
              if (early) accepted.set('timeNotUp', (accepted.get('timeNotUp') ?? 0) + 1);
              continue;
            }
            journal = result.journal;
            accepted.set(String(command.type), (accepted.get(String(command.type)) ?? 0) + 1);
            checkInvariants(journal.state);
          }
          expect(replay(yorktown1942, journal.entries)).toEqual(journal.state);
        },
      ),
      { numRuns: 50, seed: 1942 },
    );
    if (process.env.SHOW_COUNTS) console.log(Object.fromEntries(accepted));
    // the sequences must reach the interesting commands, or the properties above prove little
    for (const type of ['dice', 'confirmRoll', 'move', 'takeOff', 'search', 'attack', 'endTurn', 'undo', 'skipAction']) {
      expect(accepted.get(type) ?? 0, type).toBeGreaterThan(3);
    }
  });
});
