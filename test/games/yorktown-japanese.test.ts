import { describe, expect, it } from 'vitest';
import { island, ok, refused, roll, scenario, start, tokenCounts, types } from './yorktown-helpers.ts';
import type { IslandId, JapaneseType, YorktownState } from '../../server/games/yorktown1942/types.ts';

/** A physical-deck game at the start of the Japanese phase with the given Japanese planes. */
function japanesePhase(japanese: Partial<Record<IslandId, JapaneseType[]>> = {}, extra: Partial<YorktownState> = {}): YorktownState {
  const s = scenario({ japanese, newGame: { deck: 'physical' } });
  s.phase = 'japanese';
  s.turn = 1;
  return Object.assign(s, extra);
}

const card = (islands: IslandId[], plane: JapaneseType, event: 'none' | 'cap' | 'shohoMoves' = 'none', directHit = false) => ({
  type: 'cardDrawn',
  card: { islands, plane, event, directHit },
});

// the assumed board: orange 1-3, green 4-7, red 8-10; lines 2-6 and 6-9 join orange 2 to red 9
const CHAIN = { 2: ['jake'], 6: ['kate'], 9: ['jake'] } as Partial<Record<IslandId, JapaneseType[]>>;

describe('Japanese phase', () => {
  it('"Turn over the top card of the Japanese deck ... First, place the type of plane on the card on the island indicated"', () => {
    const { state, events } = ok(japanesePhase(), card([4, 7], 'kate'));
    expect(island(state, 4).japanese).toEqual(['kate']);
    expect(island(state, 7).japanese).toEqual(['kate']);
    expect(state.phase).toBe('planes');
    expect(state.spotted).toBe(false);
    expect(types(events)).toContain('phaseChanged');
  });

  it('the digital deck draws the top card and remembers it', () => {
    const s0 = start({ seed: 3 });
    const top = s0.deck.drawPile[0];
    const s1 = ok(s0, { type: 'drawCard' }).state;
    expect(s1.lastCard?.id).toBe(top);
    expect(s1.deck.discard).toContain(top);
    refused(s0, { type: 'cardDrawn', cardId: top }, 'digitalDeck');
    refused(japanesePhase(), { type: 'drawCard' }, 'physicalDeck');
    refused(japanesePhase(), { type: 'cardDrawn', cardId: 'nope' }, 'unknownCard');
  });

  it('the physical deck: a card named by its id cannot be drawn twice before the deck is shuffled again', () => {
    const first = japanesePhase();
    const id = first.rules.deck[5]!.id;
    const drawn = ok(first, { type: 'cardDrawn', cardId: id }).state;
    expect(drawn.deck.discard).toEqual([id]);
    const next = { ...structuredClone(drawn), phase: 'japanese' as const };
    expect(refused(next, { type: 'cardDrawn', cardId: id }, 'cardAlreadyDrawn')).toMatch(new RegExp(`^Card ${id} was drawn already this deck`));
    // a card entered by what it shows is not in the list: never refused as drawn
    ok(next, card([4], 'jake'));
    // every card drawn: the players shuffle the discard pile, and any card can come up again
    const spent = structuredClone(next);
    spent.deck.discard = spent.rules.deck.map((c) => c.id);
    const again = ok(spent, { type: 'cardDrawn', cardId: id }).state;
    expect(again.deck.discard).toEqual([id]);
  });

  it('reshuffles the discard pile when the draw pile runs out', () => {
    const s0 = structuredClone(start({ seed: 3 }));
    s0.deck.discard.push(...s0.deck.drawPile);
    s0.deck.drawPile = [];
    const { state, events } = ok(s0, { type: 'drawCard' });
    expect(types(events)).toContain('deckReshuffled');
    expect(state.deck.drawPile.length + state.deck.discard.length).toBe(38);
  });

  it('"The USS Yorktown has been spotted if you can trace, following the white lines on the board, a line of Japanese planes from one orange island to one red island."', () => {
    const notQuite = ok(japanesePhase({ 2: ['jake'], 6: ['kate'] }), card([4], 'jake')).state;
    expect(notQuite.spotted).toBe(false);
    expect(notQuite.roll).toBeNull();
    const broken = ok(japanesePhase({ 2: ['jake'], 9: ['jake'], 7: ['kate'] }), card([4], 'jake')).state;
    expect(broken.spotted).toBe(false);
    const { state, events } = ok(japanesePhase(CHAIN), card([4], 'zeke'));
    expect(state.spotted).toBe(true);
    expect(events.find((e) => e.type === 'spotted')?.chain).toEqual([2, 6, 9]);
  });

  it('"The fighter Zeke rolls 3 dice ... With a result of two dice the same the USS Yorktown is hit." and the plane is then placed', () => {
    let s = ok(japanesePhase(CHAIN), card([4], 'zeke')).state;
    expect(s.roll?.purpose).toBe('yorktownAttack');
    expect(s.roll?.tracker.spec.dice).toBe(3);
    expect(s.roll?.tracker.spec.continuous).toBe(false);
    refused(s, { type: 'chooseAction', plane: 1, action: 'move' }, 'rollInProgress');
    s = roll(s, [4, 4, 2]);
    s = ok(s, { type: 'confirmRoll' }).state;
    expect(s.yorktownHits).toBe(1);
    expect(island(s, 4).japanese).toEqual(['zeke']);
    expect(s.phase).toBe('planes');
  });

  it('"The seaplane Jake rolls 2 dice." "The torpedo bomber Kate rolls 4 dice."', () => {
    expect(ok(japanesePhase(CHAIN), card([4], 'jake')).state.roll?.tracker.spec.dice).toBe(2);
    expect(ok(japanesePhase(CHAIN), card([4], 'kate')).state.roll?.tracker.spec.dice).toBe(4);
  });

  it('"a torpedo bomber manages to roll two pairs meaning two hits on the USS Yorktown"', () => {
    let s = ok(japanesePhase(CHAIN), card([4], 'kate')).state;
    s = ok(roll(s, [3, 5, 3, 5]), { type: 'confirmRoll' }).state;
    expect(s.yorktownHits).toBe(2);
  });

  it('"It is also possible that there is a hit and the plane itself is destroyed" (assumed AA pair: two 1s): not placed', () => {
    let s = ok(japanesePhase(CHAIN), card([4], 'kate')).state;
    const tokensBefore = tokenCounts(s);
    s = ok(roll(s, [1, 6, 1, 6]), { type: 'confirmRoll' }).state;
    expect(s.yorktownHits).toBe(1);
    expect(island(s, 4).japanese).toEqual([]);
    expect(s.japaneseDestroyed).toBe(1);
    expect(tokenCounts(s)).toEqual(tokensBefore);
  });

  it('"En este caso, no se coloca ningún avión al resolver la carta": on a card of two islands, no plane is placed', () => {
    let s = ok(japanesePhase(CHAIN), card([4, 7], 'zeke', 'cap')).state;
    s = ok(roll(s, [1, 1, 3]), { type: 'confirmRoll' }).state;
    expect(island(s, 4).japanese).toEqual([]);
    expect(island(s, 7).japanese).toEqual([]);
    expect(s.japaneseDestroyed).toBe(1);
    // the card's event still happens
    expect(s.cap).toBe(1);
    // an owner who reads the English "the plane is ... not placed" as the attacker's alone
    const english = scenario({ japanese: CHAIN, newGame: { deck: 'physical', ruleOverrides: { 'yorktown.aaKillPlacesNoPlane': false } } });
    english.phase = 'japanese';
    english.turn = 1;
    let e = ok(english, card([4, 7], 'zeke')).state;
    e = ok(roll(e, [1, 1, 3]), { type: 'confirmRoll' }).state;
    expect(island(e, 4).japanese).toEqual([]);
    expect(island(e, 7).japanese).toEqual(['zeke']);
  });

  it('no pair: no hit; a second different reading of a single roll is taken as a correction', () => {
    let s = ok(japanesePhase(CHAIN), card([4], 'zeke')).state;
    s = roll(s, [2, 3, 4]);
    s = roll(s, [2, 3, 3]);
    expect(s.roll?.tracker.flags).toEqual([{ type: 'rerollAfterSingle' }]);
    s = ok(s, { type: 'confirmRoll' }).state;
    expect(s.yorktownHits).toBe(1);
  });

  it('a reading with the wrong number of dice is flagged and cannot be confirmed', () => {
    let s = ok(japanesePhase(CHAIN), card([4], 'zeke')).state;
    const { state, events } = ok(s, { type: 'dice', faces: [2, 2] });
    expect(events[0].type).toBe('rollFlagged');
    expect(String(events[0].message)).toMatch(/2 dice seen but this roll has 3/);
    s = state;
    // said as a refused reading, not as no reading at all
    expect(refused(s, { type: 'confirmRoll' }, 'readingFlagged')).toMatch(/2 dice seen but this roll has 3/);
  });

  it('"If this special card is drawn and the USS Yorktown has been spotted, it is attacked and received a direct hit, so no dice are rolled and no planes are placed"', () => {
    const { state, events } = ok(japanesePhase(CHAIN), card([4], 'kate', 'cap', true));
    expect(state.yorktownHits).toBe(1);
    expect(state.roll).toBeNull();
    expect(island(state, 4).japanese).toEqual([]);
    // "No se colocará ningún avión japonés este turno": the CAP fighter of its event is not placed either
    expect(state.cap).toBe(0);
    expect(events).toContainEqual(expect.objectContaining({ type: 'capIgnored', why: 'no Japanese plane is placed after a Direct Hit' }));
    expect(state.phase).toBe('planes');
    // a Shōhō-moves event still happens ("now the event on the card is resolved")
    const moves = Object.assign(japanesePhase(CHAIN), { search: 2 });
    expect(ok(moves, card([4], 'kate', 'shohoMoves', true)).state.search).toBe(1);
  });

  it('a Direct Hit card\'s CAP fighter is placed where a table reads the event as resolved in full (yorktown.directHitPlacesCap)', () => {
    const s = Object.assign(scenario({ japanese: CHAIN, newGame: { deck: 'physical', ruleOverrides: { 'yorktown.directHitPlacesCap': true } } }), { phase: 'japanese' as const, turn: 1 });
    const { state } = ok(s, card([4], 'kate', 'cap', true));
    expect(state.yorktownHits).toBe(1);
    expect(island(state, 4).japanese).toEqual([]);
    expect(state.cap).toBe(1);
    expect(state.phase).toBe('planes');
  });

  it('time running out during a roll says the dice showing were never confirmed (rollCutOff)', () => {
    const s = ok(japanesePhase(CHAIN), card([4], 'zeke')).state;
    const read = ok(s, { type: 'dice', faces: [2, 2, 5] }).state;
    expect(read.roll).not.toBeNull();
    const deadline = 10 * 60_000 + 5000 + (read.startedAt ?? 0);
    const { state, events } = ok({ ...read, deadline }, { type: 'timeUp' }, deadline);
    expect(state.outcome).toMatchObject({ result: 'lost', cause: 'time' });
    expect(events.map((e) => e.type)).toEqual(['rollCutOff', 'gameOver']);
    expect(events[0]).toEqual({ type: 'rollCutOff', purpose: 'yorktownAttack', faces: [2, 2, 5] });
  });

  it('a Direct Hit card while the Yorktown is not spotted only places its planes', () => {
    const { state } = ok(japanesePhase(), card([4], 'kate', 'none', true));
    expect(state.yorktownHits).toBe(0);
    expect(island(state, 4).japanese).toEqual(['kate']);
  });

  it('"The game is lost when ... The USS Yorktown takes its third hit."', () => {
    const s = ok(japanesePhase(CHAIN, { yorktownHits: 2 }), card([4], 'kate', 'none', true)).state;
    expect(s.outcome).toMatchObject({ result: 'lost', cause: 'yorktownSunk' });
    expect(s.phase).toBe('over');
    refused(s, { type: 'endTurn' }, 'gameOver');
  });

  it('"Each island can have a maximum of two Japanese planes ... place the plane on the next numbered space. The next placement for island number 10 is island number 1."', () => {
    const s = ok(japanesePhase({ 9: ['kate', 'kate'], 10: ['zeke', 'jake'] }), card([9], 'jake')).state;
    expect(island(s, 9).japanese).toHaveLength(2);
    expect(island(s, 10).japanese).toHaveLength(2);
    expect(island(s, 1).japanese).toEqual(['jake']);
  });

  it('"In the unlikely case that you have to place a plane and there are no planes available, place another type by following this chart." (assumed chart)', () => {
    const s0 = japanesePhase();
    s0.supply.jake = 0;
    const s1 = ok(s0, card([4], 'jake'));
    expect(island(s1.state, 4).japanese).toEqual(['kate']);
    expect(s1.events.find((e) => e.type === 'japanesePlaced')?.substitutedFor).toBe('jake');
    const s2 = japanesePhase();
    s2.supply.kateZeke = 0;
    expect(island(ok(s2, card([5], 'zeke')).state, 5).japanese).toEqual(['jake']);
    const s3 = japanesePhase();
    s3.supply = { jake: 0, kateZeke: 0 };
    const r = ok(s3, card([5], 'zeke'));
    expect(island(r.state, 5).japanese).toEqual([]);
    expect(types(r.events)).toContain('japaneseNotPlaced');
  });

  it('"Combat Air Patrol (CAP). Place a fighter Zeke in one of the two ... CAP spaces. If both spaces are full, ignore this event."', () => {
    let s = ok(japanesePhase(), card([4], 'jake', 'cap')).state;
    expect(s.cap).toBe(1);
    expect(tokenCounts(s)).toEqual({ jake: 8, kateZeke: 12 });
    s.phase = 'japanese';
    s = ok(s, card([4], 'jake', 'cap')).state;
    s.phase = 'japanese';
    const r = ok(s, card([5], 'jake', 'cap'));
    expect(r.state.cap).toBe(2);
    expect(types(r.events)).toContain('capIgnored');
  });

  it('"The Shōhō changes position. Lower the search token one level on the search track. If the search token is at 0, ignore this event."', () => {
    expect(ok(japanesePhase({}, { search: 4 }), card([4], 'jake', 'shohoMoves')).state.search).toBe(3);
    const r = ok(japanesePhase(), card([4], 'jake', 'shohoMoves'));
    expect(r.state.search).toBe(0);
    expect(types(r.events)).toContain('shohoMovesIgnored');
  });

  it('cards are drawn only in the Japanese phase', () => {
    const s = scenario({ newGame: { deck: 'physical' } });
    refused(s, card([4], 'jake'), 'wrongPhase');
  });
});
