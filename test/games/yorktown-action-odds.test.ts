/** The odds of each roll a plane's action may start (attacks, a search), shown before the players commit to it. */
import { describe, expect, it } from 'vitest';
import { rollOdds } from '../../server/dice/index.ts';
import { actionChances } from '../../server/games/yorktown1942/action-odds.ts';
import { publicView } from '../../server/games/yorktown1942/view.ts';
import { choose, ok, scenario } from './yorktown-helpers.ts';

const at = (island: number) => ({ at: 'island' as const, island });

describe('action chances', () => {
  it('are the odds of the very roll the attack would start, and the state is left as it was', () => {
    const s = choose(scenario({ planes: { 3: { position: at(5) }, 4: { position: at(5) } }, japanese: { 5: ['kate', 'jake'] } }), { 3: 'attack', 4: 'attack' });
    const before = JSON.stringify(s);
    const chances = actionChances(s);
    expect(JSON.stringify(s)).toBe(before);
    expect(chances.map((c) => [c.plane, c.kind])).toEqual([[3, 'planes'], [4, 'planes']]);
    const roll = ok(s, { type: 'attack', plane: 3, target: 'planes' }).state.roll!;
    const odds = rollOdds(roll.tracker.spec);
    const three = chances[0]!;
    // 3 dice, +1 for attacking, +1 for plane 4 attacking from the same island; a Kate needs two equal
    expect(three).toMatchObject({ dice: 5, fewestEqual: 2, crash: odds.crash });
    expect(three.chance).toBeCloseTo(1 - odds.takenCount![0]! - odds.crash, 12);
    expect(three.chance!).toBeGreaterThan(0.5);
    expect(three.chance!).toBeLessThan(1);
  });

  it('give a landing rolled for the chance of landing safely, and say none for one that is automatic', () => {
    // planes 1 and 2 start in the approach area; plane 1 low on fuel (3 skill dice + 4 for its fuel)
    const s = choose(scenario({ planes: { 1: { fuel: 4 } } }), { 1: 'takeoffLanding', 2: 'takeoffLanding' });
    const chances = actionChances(s);
    expect(chances.map((c) => [c.plane, c.kind])).toEqual([[1, 'landing']]);
    const roll = ok(s, { type: 'land', plane: 1 }).state.roll!;
    const odds = rollOdds(roll.tracker.spec);
    expect(chances[0]).toMatchObject({ dice: 7, fewestEqual: 3, crash: 0 });
    expect(chances[0]!.chance).toBeCloseTo(odds.reach.safe!, 12);
    expect(chances[0]!.chance!).toBeLessThan(odds.reach.crashUnharmed!);
  });

  it('say that an attack needing more equal dice than are rolled cannot hit (a Zeke, four equal, on a lightning attack of 3 dice)', () => {
    let s = choose(scenario({ japanese: { 5: ['zeke'] } }), { 3: 'move' });
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    expect(actionChances(s)).toEqual([{ plane: 3, kind: 'lightning', dice: 3, fewestEqual: 4, chance: 0, crash: 0 }]);
  });

  it('cover the CAP and the Shōhō from an orange island once it is located', () => {
    const s = choose(scenario({ planes: { 3: { position: at(1), load: 'bomb' } }, search: 3, cap: 2 }), { 3: 'attack' });
    const chances = actionChances(s);
    // the CAP: 3 dice +1 for attacking, −1 for the bomb carried; the Shōhō: +1, −1 per fighter in the CAP
    expect(chances.map((c) => [c.kind, c.dice])).toEqual([['cap', 3], ['shoho', 2]]);
    // a CAP Zeke needs four equal: with the bomb's penalty three dice cannot hit it
    expect(chances[0]).toMatchObject({ fewestEqual: 4, chance: 0 });
    expect(chances[1]!.chance!).toBeGreaterThan(0);
    // the Shōhō's least result (one hit) reached: the tiers' odds
    const spec = ok(s, { type: 'attack', plane: 3, target: 'shoho' }).state.roll!.tracker.spec;
    if (spec.goal.kind !== 'tiers') throw new Error('a Shōhō attack is read in tiers');
    const least = spec.goal.tiers.find((t) => t.equal > 0)!;
    expect(least.equal).toBe(chances[1]!.fewestEqual);
    expect(chances[1]!.chance).toBeCloseTo(rollOdds(spec).reach[least.id]!, 12);
  });

  it('give a search with little fuel its risk of crashing on 1s, and its chance to raise the search', () => {
    const s = choose(scenario({ planes: { 3: { position: at(1), fuel: 2 } } }), { 3: 'search' });
    const [search] = actionChances(s);
    const spec = ok(s, { type: 'search', plane: 3 }).state.roll!.tracker.spec;
    const odds = rollOdds(spec);
    if (spec.goal.kind !== 'tiers') throw new Error('a search is read in tiers');
    // the search's fuel paid first: one fuel left for the 1s
    expect(spec.fuelAvailable).toBe(1);
    expect(search).toMatchObject({ plane: 3, kind: 'search', dice: spec.dice, fewestEqual: 2, crash: odds.crash });
    expect(search!.chance).toBeCloseTo(odds.reach[spec.goal.tiers[0]!.id]!, 12);
    expect(search!.crash!).toBeGreaterThan(0.1);
  });

  it('are the same from the public view (what the service sends them from): they need nothing it hides', () => {
    const s = choose(scenario({ newGame: { expansions: { weather: true, expertManoeuvres: true } }, planes: { 3: { position: at(1), fuel: 2 }, 4: { position: at(5) } }, japanese: { 5: ['kate'] } }), { 3: 'search', 4: 'attack' });
    const chances = actionChances(s);
    expect(chances.map((c) => c.kind)).toEqual(expect.arrayContaining(['search', 'planes']));
    expect(actionChances(publicView(s))).toEqual(chances);
  });

  it('are none while a roll is under way, outside the planes phase, or for planes that chose another action', () => {
    const s = choose(scenario({ planes: { 3: { position: at(5) } }, japanese: { 5: ['kate'] } }), { 3: 'attack' });
    expect(actionChances(choose(scenario({ planes: { 3: { position: at(5) } }, japanese: { 5: ['kate'] } }), { 3: 'search' }))).toEqual([]);
    expect(actionChances(ok(s, { type: 'attack', plane: 3, target: 'planes' }).state)).toEqual([]);
    expect(actionChances({ ...s, phase: 'japanese' })).toEqual([]);
  });
});
