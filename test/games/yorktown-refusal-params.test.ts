/** Refusals carry their specifics as stable params (for the page's words in other languages); the English words stay as they were. */
import { describe, expect, it } from 'vitest';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import type { YorktownCommand } from '../../server/games/yorktown1942/commands.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { choose, ok, scenario, T0 } from './yorktown-helpers.ts';

const at = (island: number) => ({ at: 'island' as const, island });

function refusal(state: YorktownState, command: Record<string, unknown>) {
  const result = yorktown1942.apply(state, command as YorktownCommand, T0 + 1000);
  if (result.ok) throw new Error(`${String(command.type)} was not refused`);
  return result.error;
}

describe('refusal params', () => {
  it('names the plane that has already acted', () => {
    let s = choose(scenario());
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    expect(refusal(s, { type: 'move', plane: 3, to: 4 })).toEqual({
      code: 'alreadyActed',
      message: 'Plane 3 has already taken its action this turn.',
      params: { plane: 3 },
    });
  });

  it('gives the position a line does not join as `at`/`island` and the island aimed at as `to`', () => {
    const s = choose(scenario());
    const moved = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    expect(refusal(moved, { type: 'move', plane: 4, to: 1 })).toMatchObject({ code: 'notJoined', params: { at: 'island', island: 9, to: 1 } });
  });

  it('gives the plane, its fuel, the cost, what it pays for and what skipping costs', () => {
    const s = choose(scenario({ japanese: { 5: ['jake'] }, planes: { 2: { fuel: 1 } } }));
    expect(refusal(s, { type: 'move', plane: 2, to: 4, via: 8 })).toEqual({
      code: 'notEnoughFuel',
      message: 'Plane 2 has only 1 fuel point: a two-island move costs 3. Skipping its action costs 1 fuel point.',
      params: { plane: 2, fuel: 1, cost: 3, for: 'twoIslandMove', skipFuel: 1 },
    });
    expect(refusal(s, { type: 'move', plane: 3, to: 2, via: 5 })).toMatchObject({ code: 'viaOccupied', params: { island: 5 } });
  });

  it('gives the action chosen and the one tried as stable keys', () => {
    const s = choose(scenario({ planes: { 3: { position: at(1) } } }), { 3: 'search' });
    expect(refusal(s, { type: 'move', plane: 3, to: 4 })).toMatchObject({ code: 'wrongAction', params: { plane: 3, chose: 'search', tried: 'move' } });
  });

  it('says which planes still have to choose, and a plane on the deck', () => {
    const unchosen = scenario();
    expect(refusal(unchosen, { type: 'skipAction', plane: 1 })).toMatchObject({ code: 'actionsNotChosen', params: { planes: '1, 2, 3, 4' } });
    const s = choose(scenario({ planes: { 1: { position: { at: 'deck' } } } }));
    expect(refusal(s, { type: 'move', plane: 1, to: 5 })).toEqual({
      code: 'onDeck',
      message: 'Plane 1 is on the flight deck: it must take off before it can move.',
      params: { plane: 1 },
    });
  });

  it('names the roll under way and the search the Shōhō needs', () => {
    const s = choose(scenario({ planes: { 3: { position: at(1), load: 'bomb' } }, search: 1 }), { 3: 'attack' });
    expect(refusal(s, { type: 'attack', plane: 3, target: 'shoho' })).toMatchObject({
      code: 'notLocated',
      params: { target: 'shoho', locatedAt: expect.any(Number), search: 1 },
    });
    const attacking = ok(choose(scenario({ japanese: { 1: ['jake'] }, planes: { 3: { position: at(1) } } }), { 3: 'attack' }), {
      type: 'attack',
      plane: 3,
      target: 'planes',
    }).state;
    expect(refusal(attacking, { type: 'move', plane: 4, to: 5 })).toMatchObject({ code: 'rollInProgress', params: { purpose: 'attack' } });
  });

  it('leaves params off a refusal with no specifics', () => {
    const s = ok(choose(scenario()), { type: 'move', plane: 3, to: 5 }).state;
    const error = refusal(s, { type: 'chooseAction', plane: 3, action: 'attack' });
    expect(error.code).toBe('actionsStarted');
    expect(error).not.toHaveProperty('params');
  });
});
