import { describe, expect, it } from 'vitest';
import { T0, choose, island, ok, plane, refused, roll, scenario, tokenCounts, types } from './yorktown-helpers.ts';
import { moveDestinations, wayHomeBlockers } from '../../server/games/yorktown1942/board.ts';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';

const at = (island: number) => ({ at: 'island' as const, island });
const APPROACH = { at: 'approach' as const };
const DECK = { at: 'deck' as const };

describe('choosing actions', () => {
  it('"when all the players have chosen their actions, one at a time, the players perform their actions in the order they want"', () => {
    let s = scenario({ planes: { 3: { position: at(2) } } });
    s = ok(s, { type: 'chooseAction', plane: 3, action: 'search' }).state;
    expect(refused(s, { type: 'search', plane: 3 }, 'actionsNotChosen')).toMatch(/Choose an action for plane 1, plane 2, plane 4 first/);
    s = choose(s, { 3: 'search' });
    expect(refused(s, { type: 'move', plane: 3, to: 6 }, 'wrongAction')).toMatch(/Plane 3 chose Search: it cannot move/);
    s = ok(s, { type: 'move', plane: 4, to: 8 }).state;
    refused(s, { type: 'chooseAction', plane: 3, action: 'move' }, 'actionsStarted');
    refused(s, { type: 'move', plane: 4, to: 9 }, 'alreadyActed');
  });

  it('a plane skips its action only once every plane has chosen, so that an early skip never fixes the other discs unchosen', () => {
    let s = scenario({ planes: { 1: { position: at(2) } } });
    s = ok(s, { type: 'chooseAction', plane: 1, action: 'search' }).state;
    expect(refused(s, { type: 'skipAction', plane: 1 }, 'actionsNotChosen')).toMatch(/Choose an action for plane 2, plane 3, plane 4 first/);
    expect(s.actionsStarted).toBe(false);
    s = ok(s, { type: 'chooseAction', plane: 2, action: 'move' }).state;
    s = choose(s, { 1: 'search', 2: 'move' });
    const fuel = s.planes[0].fuel;
    s = ok(s, { type: 'skipAction', plane: 1 }).state;
    expect(s.planes[0]).toMatchObject({ done: true, fuel: fuel - 1 });
    refused(s, { type: 'chooseAction', plane: 2, action: 'search' }, 'actionsStarted');
  });

  it('rejects planes that do not exist, with a reason', () => {
    const s = scenario();
    expect(refused(s, { type: 'chooseAction', plane: 7, action: 'move' } as Record<string, unknown>, 'badCommand')).toMatch(/planes are numbered 1 to 4/);
    expect(refused(s, { type: 'fly', plane: 1 }, 'unknownCommand')).toMatch(/Unknown command "fly"/);
  });

  it('rejects actions, loads and Japanese cards that are not in the game, whoever calls the engine', () => {
    const s = scenario();
    expect(refused(s, { type: 'chooseAction', plane: 1, action: 'dance' } as Record<string, unknown>, 'badCommand')).toBe('"dance" is not an action: search, takeoffLanding, attack, move.');
    expect(refused(s, { type: 'takeOff', plane: 1, load: 'piano', to: 'approach' } as Record<string, unknown>, 'badCommand')).toBe('"piano" is not a load: none, bomb, dropTank.');
    expect(refused(s, { type: 'cardDrawn', card: { islands: [4], plane: 'foo' } } as Record<string, unknown>, 'badCommand')).toBe('"foo" is not a Japanese plane: jake, kate, zeke.');
    for (const islands of [[], [1, 2, 3], ['4']]) {
      expect(refused(s, { type: 'cardDrawn', card: { islands, plane: 'kate' } } as Record<string, unknown>, 'badCommand')).toBe('A Japanese card shows one or two islands, by number.');
    }
    expect(refused(s, { type: 'cardDrawn', card: { islands: [4], plane: 'kate', event: 'party' } } as Record<string, unknown>, 'badCommand')).toMatch(/is not a card event/);
  });
});

describe('skill and dice', () => {
  it('"The number of dice depends on the skill level on the skill card (start with 3 dice)" (assumed track 0-2: 3, 3-5: 4, 6-8: 5, 9-12: 6, 13+: 7)', () => {
    const dice = (skill: number) => {
      let s = scenario({ planes: { 3: { position: at(4), skill } }, japanese: { 4: ['kate'] } });
      s = choose(s, { 3: 'attack' });
      s = ok(s, { type: 'attack', plane: 3, target: 'planes' }).state;
      return s.roll!.tracker.spec.dice - 1; // minus the die for the compulsory fuel
    };
    expect([0, 2, 3, 5, 6, 8, 9, 12, 13, 16].map(dice)).toEqual([3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
  });
});

describe('search', () => {
  it('"Take as many dice as your skill card indicates. You must spend 1 fuel point and receive one additional die. Receive one extra die for each allied plane in a different orange island space to yours, who has chosen the search action."', () => {
    let s = scenario({ planes: { 1: { position: at(1) }, 2: { position: at(1) }, 3: { position: at(2) }, 4: { position: at(3) } } });
    s = choose(s, {}, 'search');
    const three = ok(s, { type: 'search', plane: 3 }).state;
    expect(three.roll?.tracker.spec.dice).toBe(3 + 1 + 3);
    expect(plane(three, 3).fuel).toBe(12);
    const one = ok(s, { type: 'search', plane: 1 }).state;
    expect(one.roll?.tracker.spec.dice).toBe(3 + 1 + 2); // plane 2 shares island 1: no die for it
  });

  it('allies that chose another action, or search from a green island, add no die', () => {
    let s = scenario({ planes: { 1: { position: at(1) }, 2: { position: at(5) }, 3: { position: at(2) } } });
    s = choose(s, { 1: 'move', 2: 'search', 3: 'search' }, 'move');
    expect(ok(s, { type: 'search', plane: 3 }).state.roll?.tracker.spec.dice).toBe(4);
  });

  it('"If your plane is on an orange island ... you can perform a search action"', () => {
    const s = choose(scenario({ planes: { 3: { position: at(5) } } }), { 3: 'search' });
    expect(refused(s, { type: 'search', plane: 3 }, 'notOrange')).toMatch(/orange island/);
  });

  it('"If you roll [two equal] raise the search token one position ... [three equal] two positions. When a search action is successful, raise the skill level of the pilot by one space"', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2) } } }), { 3: 'search' });
    s = ok(s, { type: 'search', plane: 3 }).state;
    let one = roll(s, [5, 5, 2, 3]);
    one = ok(one, { type: 'confirmRoll' }).state;
    expect(one.search).toBe(1);
    expect(plane(one, 3).skill).toBe(1);
    let two = roll(s, [5, 2, 3, 4], [5, 5, 5, 4]);
    two = ok(two, { type: 'confirmRoll' }).state;
    expect(two.search).toBe(2);
    let none = ok(roll(s, [2, 3, 4, 5]), { type: 'confirmRoll' }).state;
    expect(none.search).toBe(0);
    expect(plane(none, 3).skill).toBe(0);
    expect(none.roll).toBeNull();
  });

  it('"When the search token reaches level 3 or more, the Shōhō ... have been located"', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2) } }, search: 2 }), { 3: 'search' });
    s = ok(s, { type: 'search', plane: 3 }).state;
    const r = ok(roll(s, [6, 6, 2, 3]), { type: 'confirmRoll' });
    expect(r.state.search).toBe(3);
    expect(types(r.events)).toContain('shohoLocated');
  });

  it('"flying with a bomb loaded ... the player will roll one die less"', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2), load: 'bomb' } } }), { 3: 'search' });
    expect(ok(s, { type: 'search', plane: 3 }).state.roll?.tracker.spec.dice).toBe(3);
  });
});

describe('continuous rolls', () => {
  const searching = (fuel = 13) => ok(choose(scenario({ planes: { 3: { position: at(2), fuel } } }), { 3: 'search' }), { type: 'search', plane: 3 }).state;

  it('"If you roll [a 1] that die becomes blocked and you will not be able to re-roll that die. You must also spend one fuel from the fuel track."', () => {
    let s = roll(searching(), [1, 3, 4, 5]);
    expect(plane(s, 3).fuel).toBe(11);
    expect(s.roll?.tracker.lockedOnes).toBe(1);
    s = roll(s, [1, 1, 4, 4]);
    expect(plane(s, 3).fuel).toBe(10);
    s = roll(s, [1, 1, 4, 4]); // the same dice read again cost nothing more
    expect(plane(s, 3).fuel).toBe(10);
  });

  it('a locked 1 that disappears is flagged as an illegal re-roll and the reading is not taken', () => {
    let s = roll(searching(), [1, 3, 4, 5]);
    const { state, events } = ok(s, { type: 'dice', faces: [2, 2, 4, 5] });
    expect(events[0]).toMatchObject({ type: 'rollFlagged' });
    expect(String(events[0].message)).toMatch(/locked 1 may not be re-rolled/);
    expect(plane(state, 3).fuel).toBe(11);
    expect(refused(state, { type: 'confirmRoll' }, 'readingFlagged')).toMatch(/show the dice again/);
    s = ok(roll(state, [1, 4, 4, 5]), { type: 'confirmRoll' }).state;
    expect(s.search).toBe(1);
  });

  it('a first reading with a die too many is refused as such: confirming says why, not that nothing was read', () => {
    const { state } = ok(searching(), { type: 'dice', faces: [2, 3, 4, 5, 6] });
    expect(state.roll?.tracker.faces).toBeNull();
    expect(refused(state, { type: 'confirmRoll' }, 'readingFlagged')).toMatch(/^The last reading was not accepted \(.*5.*\): show the dice again/);
  });

  it('"Obviously, rolling [two 1s] does not count" as equal dice', () => {
    const s = ok(roll(searching(), [1, 1, 3, 4]), { type: 'confirmRoll' }).state;
    expect(s.search).toBe(0);
  });

  it('"A plane crashes when ... the player needs to spend more fuel than there is on the plane. In this case the pilot gets injured (-3)."', () => {
    let s = searching(2);
    s.planes[2].skill = 5;
    expect(plane(s, 3).fuel).toBe(1);
    const r = ok(s, { type: 'dice', faces: [1, 1, 3, 4] });
    const p = plane(r.state, 3);
    expect(types(r.events)).toContain('planeCrashed');
    expect(p.cockpit).toBe('B');
    expect(p.position).toEqual(DECK);
    expect(p.fuel).toBe(14);
    expect(p.skill).toBe(2);
    expect(r.state.roll).toBeNull();
  });

  it('"When you pass 8 skill points, turn over the card to keep counting": the event says so, and to turn it back after a crash', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2), skill: 8 } } }), { 3: 'search' });
    s = ok(s, { type: 'search', plane: 3 }).state;
    expect(s.roll?.tracker.spec.dice).toBe(6);
    const up = ok(roll(s, [5, 5, 2, 3, 4, 6]), { type: 'confirmRoll' });
    expect(up.events.find((e) => e.type === 'skillGained')).toMatchObject({ plane: 3, skill: 9, skillCard: 'back' });
    const crashing = searching(2);
    crashing.planes[2].skill = 10;
    const down = ok(crashing, { type: 'dice', faces: [1, 1, 3, 4] });
    expect(down.events.find((e) => e.type === 'planeCrashed')).toMatchObject({ plane: 3, skillLost: 3, skillCard: 'front' });
    // no turn of the card when the skill stays on one side
    const low = ok(choose(scenario({ planes: { 3: { position: at(2), skill: 1 } } }), { 3: 'search' }), { type: 'search', plane: 3 }).state;
    const same = ok(roll(low, [5, 5, 2, 3]), { type: 'confirmRoll' });
    expect(same.events.find((e) => e.type === 'skillGained')).toMatchObject({ skill: 2 });
    expect(same.events.find((e) => e.type === 'skillGained')).not.toHaveProperty('skillCard');
  });

  it('"If the cockpit card is already on the B side, the plane is destroyed and eliminated from the game."', () => {
    const s = ok(choose(scenario({ planes: { 3: { position: at(2), fuel: 1, cockpit: 'B' } } }), { 3: 'search' }), { type: 'search', plane: 3 }).state;
    const r = ok(s, { type: 'dice', faces: [1, 5, 3, 4] });
    expect(plane(r.state, 3).destroyed).toBe(true);
    expect(types(r.events)).toContain('planeDestroyed');
    refused(r.state, { type: 'skipAction', plane: 3 }, 'planeDestroyed');
  });

  it('the odds of the roll in progress are available to the dashboard', async () => {
    const { currentRollOdds } = await import('../../server/games/yorktown1942/index.ts');
    const odds = currentRollOdds(searching());
    expect(odds?.reach.raise0).toBeGreaterThan(odds!.reach.raise1);
    expect(odds?.reach.raise0).toBeLessThanOrEqual(1);
    expect(currentRollOdds(scenario())).toBeNull();
  });
});

describe('take-off and landing', () => {
  it('"choose either to spend 1 fuel point to place the plane to the approach area ... or spend 3 fuel points to fly to one of the red islands"', () => {
    let s = choose(scenario({ planes: { 1: { position: DECK }, 2: { position: DECK } } }), { 1: 'takeoffLanding', 2: 'takeoffLanding' });
    s = ok(s, { type: 'takeOff', plane: 1, to: 'approach' }).state;
    expect(plane(s, 1)).toMatchObject({ position: APPROACH, fuel: 13 });
    refused(s, { type: 'takeOff', plane: 2, to: 5 }, 'notRedIsland');
    s = ok(s, { type: 'takeOff', plane: 2, to: 10, load: 'bomb' }).state;
    expect(plane(s, 2)).toMatchObject({ position: at(10), fuel: 11, load: 'bomb' });
  });

  it('"only two planes can use this action on the same turn. If a player needs to take off and can\'t, he/she will lose their turn."', () => {
    let s = scenario({ planes: { 1: { position: DECK }, 2: { position: DECK }, 3: { position: DECK } } });
    s = choose(s, { 1: 'takeoffLanding', 2: 'takeoffLanding', 3: 'takeoffLanding' });
    s = ok(s, { type: 'takeOff', plane: 1, to: 'approach' }).state;
    s = ok(s, { type: 'takeOff', plane: 2, to: 'approach' }).state;
    expect(refused(s, { type: 'takeOff', plane: 3, to: 'approach' }, 'flightDeckFull')).toMatch(/loses its turn \(skip/);
    s = ok(s, { type: 'skipAction', plane: 3 }).state;
    expect(plane(s, 3)).toMatchObject({ position: DECK, fuel: 13, done: true });
  });

  it('"If a player needs to land but can\'t, he/she loses their turn and 1 fuel point to stay in the air."', () => {
    let s = scenario({ planes: { 1: { position: DECK }, 2: { position: DECK }, 3: { position: APPROACH, fuel: 8 } } });
    s = choose(s, { 1: 'takeoffLanding', 2: 'takeoffLanding', 3: 'takeoffLanding' });
    s = ok(s, { type: 'takeOff', plane: 1, to: 'approach' }).state;
    s = ok(s, { type: 'takeOff', plane: 2, to: 'approach' }).state;
    refused(s, { type: 'land', plane: 3 }, 'flightDeckFull');
    s = ok(s, { type: 'skipAction', plane: 3 }).state;
    expect(plane(s, 3)).toMatchObject({ position: APPROACH, fuel: 7 });
  });

  it('"The landing is automatically successful if the plane has 5 or more fuel points." "place the plane on the flight deck with the fuel token at maximum"', () => {
    let s = choose(scenario({ planes: { 1: { fuel: 5 } } }), { 1: 'takeoffLanding' });
    s = ok(s, { type: 'land', plane: 1 }).state;
    expect(plane(s, 1)).toMatchObject({ position: DECK, fuel: 14 });
    expect(s.roll).toBeNull();
    const away = choose(scenario(), { 3: 'takeoffLanding' });
    expect(refused(away, { type: 'land', plane: 3 }, 'notInApproach')).toMatch(/landing is done from the approach area/);
  });

  it('"Take as many dice as indicated on the skill track. Add one additional die for each fuel point that you have left." 1s lock but cost no fuel', () => {
    let s = choose(scenario({ planes: { 1: { fuel: 3 } } }), { 1: 'takeoffLanding' });
    s = ok(s, { type: 'land', plane: 1 }).state;
    expect(s.roll?.purpose).toBe('landing');
    expect(s.roll?.tracker.spec.dice).toBe(6);
    s = roll(s, [1, 1, 1, 2, 3, 4]);
    expect(plane(s, 1).fuel).toBe(3);
    expect(s.roll?.tracker.lockedOnes).toBe(3);
  });

  it('landing results (assumed: three equal safe, two equal crash unharmed, none injured -3)', () => {
    const landing = () => ok(choose(scenario({ planes: { 1: { fuel: 2, skill: 4 } } }), { 1: 'takeoffLanding' }), { type: 'land', plane: 1 }).state;
    const safe = ok(roll(landing(), [3, 3, 3, 2, 5, 6]), { type: 'confirmRoll' }).state;
    expect(plane(safe, 1)).toMatchObject({ position: DECK, fuel: 14, cockpit: 'A', skill: 4 });
    const unharmedResult = ok(roll(landing(), [3, 3, 4, 2, 5, 6]), { type: 'confirmRoll' });
    expect(plane(unharmedResult.state, 1)).toMatchObject({ position: DECK, fuel: 14, cockpit: 'B', skill: 4 });
    // the event says what the crash takes by the rules (the words: pilot unharmed, or injured)
    expect(unharmedResult.events.find((e) => e.type === 'planeCrashed')).toMatchObject({ injury: 0, skillLost: 0 });
    const injuredResult = ok(roll(landing(), [3, 1, 4, 2, 5, 6]), { type: 'confirmRoll' });
    expect(plane(injuredResult.state, 1)).toMatchObject({ position: DECK, fuel: 14, cockpit: 'B', skill: 1 });
    expect(injuredResult.events.find((e) => e.type === 'planeCrashed')).toMatchObject({ injury: 3, skillLost: 3 });
  });
});

describe('attack', () => {
  it('"You must spend 1 fuel point and receive one additional die. You receive one extra die for every other plane in the same space as yours that has also chosen the attack action."', () => {
    let s = scenario({ planes: { 3: { position: at(5) }, 4: { position: at(5) }, 1: { position: at(5) } }, japanese: { 5: ['kate'] } });
    s = choose(s, { 1: 'move', 3: 'attack', 4: 'attack' });
    const r = ok(s, { type: 'attack', plane: 3, target: 'planes' }).state;
    expect(r.roll?.tracker.spec.dice).toBe(3 + 1 + 1);
    expect(plane(r, 3).fuel).toBe(12);
    // "an", before a vowel
    expect(refused(r, { type: 'attack', plane: 4, target: 'planes' }, 'rollInProgress')).toBe('An attack roll is under way: read the dice and confirm it first.');
  });

  it('"If for example you are in a space with two Kate and you roll [two pairs] you can use this result as two pairs to destroy both targets."', () => {
    let s = choose(scenario({ planes: { 3: { position: at(5) } }, japanese: { 5: ['kate', 'kate'] } }), { 3: 'attack' });
    s = ok(s, { type: 'attack', plane: 3, target: 'planes' }).state;
    s = roll(s, [3, 5, 3, 5]);
    const both = ok(s, { type: 'confirmRoll' }).state;
    expect(island(both, 5).japanese).toEqual([]);
    expect(plane(both, 3).skill).toBe(2);
    expect(both.japaneseDestroyed).toBe(2);
    expect(tokenCounts(both)).toEqual({ jake: 8, kateZeke: 12 });
    const chosen = ok(s, { type: 'confirmRoll', assign: ['i5-1'] }).state;
    expect(island(chosen, 5).japanese).toEqual(['kate']);
    expect(refused(s, { type: 'confirmRoll', assign: ['i5-9'] }, 'badAssign')).toMatch(/not a target/);
  });

  it('a split the dice cannot make is refused (assumed Jake: three equal, Kate: two, Zeke: four)', () => {
    let s = choose(scenario({ planes: { 3: { position: at(5), skill: 6 } }, japanese: { 5: ['jake', 'zeke'] } }), { 3: 'attack' });
    s = ok(s, { type: 'attack', plane: 3, target: 'planes' }).state;
    s = roll(s, [4, 4, 4, 2, 2, 6]);
    expect(refused(s, { type: 'confirmRoll', assign: ['i5-0', 'i5-1'] }, 'badAssign')).toMatch(/cannot take all/);
    const jake = ok(s, { type: 'confirmRoll' }).state;
    expect(island(jake, 5).japanese).toEqual(['zeke']);
    expect(plane(jake, 3).skill).toBe(8);
    s = roll(s, [4, 4, 4, 4, 2, 6]);
    const zeke = ok(s, { type: 'confirmRoll' }).state;
    expect(island(zeke, 5).japanese).toEqual(['jake']);
    expect(plane(zeke, 3).skill).toBe(9);
  });

  it('nothing to attack is refused', () => {
    const s = choose(scenario({ planes: { 3: { position: at(5) } } }), { 3: 'attack' });
    expect(refused(s, { type: 'attack', plane: 3, target: 'planes' }, 'noTargets')).toMatch(/no Japanese planes on island 5/);
  });

  it('"If the search token is on level three or higher and your plane is on any orange island space, you can attack the Zeke fighters that protect the Shōhō." "If you reach level 5 or 6, there will be one extra die"', () => {
    const base = (search: number) => choose(scenario({ planes: { 3: { position: at(1) } }, search, cap: 2 }), { 3: 'attack' });
    refused(base(2), { type: 'attack', plane: 3, target: 'cap' }, 'notLocated');
    expect(ok(base(3), { type: 'attack', plane: 3, target: 'cap' }).state.roll?.tracker.spec.dice).toBe(4);
    expect(ok(base(5), { type: 'attack', plane: 3, target: 'cap' }).state.roll?.tracker.spec.dice).toBe(5);
    let s = ok(base(7), { type: 'attack', plane: 3, target: 'cap' }).state;
    expect(s.roll?.tracker.spec.dice).toBe(6);
    s = ok(roll(s, [2, 2, 2, 2, 5, 3]), { type: 'confirmRoll' }).state;
    expect(s.cap).toBe(1);
    expect(tokenCounts(s)).toEqual({ jake: 8, kateZeke: 12 });
    const green = choose(scenario({ planes: { 3: { position: at(5) } }, search: 4, cap: 1 }), { 3: 'attack' });
    refused(green, { type: 'attack', plane: 3, target: 'cap' }, 'notOrange');
  });

  it('"If the search token is on level three or higher, your plane is on an orange island space and you are carrying a bomb, you can attack the Shōhō." "one die less for each fighter that is in the CAP" "you are not penalized"', () => {
    const base = (load: 'none' | 'bomb', cap = 0, search = 3) => choose(scenario({ planes: { 3: { position: at(1), load } }, search, cap }), { 3: 'attack' });
    expect(refused(base('none'), { type: 'attack', plane: 3, target: 'shoho' }, 'noBomb')).toMatch(/only be attacked with a bomb/);
    const s = ok(base('bomb', 2), { type: 'attack', plane: 3, target: 'shoho' }).state;
    expect(s.roll?.tracker.spec.dice).toBe(3 + 1 - 2);
    expect(plane(s, 3).load).toBe('none');
    expect(ok(base('bomb', 0, 7), { type: 'attack', plane: 3, target: 'shoho' }).state.roll?.tracker.spec.dice).toBe(6);
  });

  it('Shōhō results (assumed: two equal 1 hit, three equal 2 hits, four equal sunk) and "The game ends in victory immediately when the Shōhō takes its third hit"', () => {
    const attack = (shohoHits = 0) => {
      const s = choose(scenario({ planes: { 3: { position: at(1), load: 'bomb', skill: 6 } }, search: 3 }), { 3: 'attack' });
      s.shohoHits = shohoHits;
      return ok(s, { type: 'attack', plane: 3, target: 'shoho' }).state;
    };
    const one = ok(roll(attack(), [5, 5, 2, 3, 4, 6]), { type: 'confirmRoll' }).state;
    expect(one.shohoHits).toBe(1);
    expect(plane(one, 3).skill).toBe(7);
    const two = ok(roll(attack(), [5, 5, 5, 3, 4, 6]), { type: 'confirmRoll' }).state;
    expect(two.shohoHits).toBe(2);
    const third = ok(roll(attack(2), [5, 5, 2, 3, 4, 6]), { type: 'confirmRoll' }).state;
    expect(third.outcome).toMatchObject({ result: 'won', cause: 'shohoSunk' });
    const sunk = ok(roll(attack(), [5, 5, 5, 5, 4, 6]), { type: 'confirmRoll' }).state;
    expect(sunk.outcome).toMatchObject({ result: 'won', cause: 'shohoSunk' });
    expect(sunk.phase).toBe('over');
  });
});

describe('move', () => {
  it('"Spend 1 fuel point and then, move your plane one island following the white lines."', () => {
    let s = choose(scenario());
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    expect(plane(s, 3)).toMatchObject({ position: at(5), fuel: 12 });
    expect(refused(s, { type: 'move', plane: 4, to: 1 }, 'notJoined')).toMatch(/No white line joins island 9 to island 1/);
    s = ok(s, { type: 'move', plane: 1, to: 10 }).state;
    expect(plane(s, 1)).toMatchObject({ position: at(10), fuel: 13 });
  });

  it('"Spend 3 fuel points and then, move your plane two islands as long as the first island of them is not occupied by a Japanese plane."', () => {
    const s = choose(scenario({ japanese: { 5: ['jake'] }, planes: { 2: { fuel: 1 } } }));
    expect(plane(ok(s, { type: 'move', plane: 3, to: 1, via: 4 }).state, 3)).toMatchObject({ position: at(1), fuel: 10 });
    expect(refused(s, { type: 'move', plane: 3, to: 2, via: 5 }, 'viaOccupied')).toMatch(/island 5 is occupied/);
    expect(refused(s, { type: 'move', plane: 2, to: 4, via: 8 }, 'notEnoughFuel')).toBe('Plane 2 has only 1 fuel point: a two-island move costs 3. Skipping its action costs 1 fuel point.');
    const dry = choose(scenario({ planes: { 2: { fuel: 0 } } }));
    expect(refused(dry, { type: 'move', plane: 2, to: 8 }, 'notEnoughFuel')).toMatch(/costs 1\. Skipping its action crashes it: no fuel to stay in the air\.$/);
  });

  it('"Spend 1 fuel point to return your plane from any space to the approach space ... as long as you don\'t pass through islands containing Japanese planes."', () => {
    const open = choose(scenario({ planes: { 4: { position: at(1) } }, japanese: { 1: ['kate'], 2: ['kate'], 5: ['kate'], 6: ['jake'], 7: ['zeke'] } }));
    expect(plane(ok(open, { type: 'move', plane: 4, to: 'approach' }).state, 4)).toMatchObject({ position: APPROACH, fuel: 12 });
    const shut = choose(scenario({ planes: { 3: { position: at(2) } }, japanese: { 4: ['kate'], 5: ['kate'], 6: ['jake'], 7: ['zeke'] } }));
    expect(refused(shut, { type: 'move', plane: 3, to: 'approach' }, 'wayBlocked')).toMatch(/every way back from island 2 passes an island with Japanese planes/);
  });

  it('a plane cut off from the approach area is told which Japanese planes cut it off (here, destroying them opens a way)', () => {
    const shut = scenario({ japanese: { 4: ['kate'], 5: ['kate'], 6: ['jake'], 7: ['zeke'] } });
    const blockers = wayHomeBlockers(shut.rules.board, shut.islands, 2);
    expect(blockers).not.toBeNull();
    expect(blockers!.length).toBeGreaterThan(0);
    expect(blockers!.every((id) => [4, 5, 6, 7].includes(id))).toBe(true);
    const cleared = scenario({ japanese: Object.fromEntries([4, 5, 6, 7].filter((id) => !blockers!.includes(id)).map((id) => [id, ['kate']])) });
    expect(wayHomeBlockers(cleared.rules.board, cleared.islands, 2)).toBeNull();
    const layouts: Partial<Record<number, ('jake' | 'kate' | 'zeke')[]>>[] = [{}, { 5: ['kate'], 6: ['zeke'], 9: ['jake'] }, { 8: ['jake'], 4: ['kate'], 2: ['zeke'] }, { 4: ['kate'], 5: ['kate'], 6: ['jake'], 7: ['zeke'] }];
    for (const layout of layouts) {
      const s = scenario({ japanese: layout });
      for (let from = 1; from <= 10; from++) {
        const open = moveDestinations(s.rules.board, s.islands, at(from), false).approach;
        expect(wayHomeBlockers(s.rules.board, s.islands, from) === null, `${JSON.stringify(layout)} from ${from}`).toBe(open);
      }
    }
  });

  it('the move destinations offered (moveDestinations) are exactly the moves the engine accepts', () => {
    const layouts: Partial<Record<number, ('jake' | 'kate' | 'zeke')[]>>[] = [{}, { 5: ['kate'], 6: ['zeke'], 9: ['jake'] }, { 8: ['jake'], 4: ['kate'], 2: ['zeke'] }];
    let checked = 0;
    for (const japanese of layouts) {
      for (const from of [APPROACH, ...Array.from({ length: 10 }, (_, i) => at(i + 1))]) {
        const s = choose(scenario({ japanese, planes: { 3: { position: from, fuel: 14 } } }));
        const offered = moveDestinations(s.rules.board, s.islands, from, false);
        const accepted = (move: Record<string, unknown>) => yorktown1942.apply(s, { type: 'move', plane: 3, ...move } as never, T0 + 1000).ok;
        expect(accepted({ to: 'approach' }), `${JSON.stringify(from)} back`).toBe(offered.approach);
        for (let to = 1; to <= 10; to++) {
          expect(accepted({ to }), `${JSON.stringify(from)} → ${to}`).toBe(offered.islands.get(to)?.oneStep ?? false);
          for (let via = 1; via <= 10; via++) {
            expect(accepted({ to, via }), `${JSON.stringify(from)} → ${via} → ${to}`).toBe(offered.islands.get(to)?.via.includes(via) ?? false);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(3 * 11 * 100);
  });

  it('a plane on the flight deck must take off before it moves', () => {
    const s = choose(scenario({ planes: { 1: { position: DECK } } }));
    refused(s, { type: 'move', plane: 1, to: 8 }, 'onDeck');
  });
});

describe('after a move', () => {
  it('"If you move into a space with Japanese planes, you can attack them using only the dice allowed on your skill track, without any bonus"', () => {
    let s = choose(scenario({ japanese: { 5: ['kate'] }, planes: { 4: { position: at(5) } } }), { 4: 'attack' });
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    expect(s.afterMove).toEqual({ plane: 3, lightningAttack: true, emergencyLanding: false });
    s = ok(s, { type: 'lightningAttack', plane: 3 }).state;
    expect(s.roll?.purpose).toBe('lightningAttack');
    expect(s.roll?.tracker.spec.dice).toBe(3);
    expect(plane(s, 3).fuel).toBe(12);
    s = ok(roll(s, [2, 2, 3]), { type: 'confirmRoll' }).state;
    expect(island(s, 5).japanese).toEqual([]);
  });

  it('an attack that takes nothing says so in its events (the history shows the miss)', () => {
    let s = choose(scenario({ japanese: { 5: ['kate'] }, planes: { 4: { position: at(5) } } }), { 4: 'attack' });
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    s = ok(s, { type: 'lightningAttack', plane: 3 }).state;
    const missed = ok(roll(s, [2, 3, 4]), { type: 'confirmRoll' });
    expect(missed.events.find((e) => e.type === 'attackMissed')).toEqual({ type: 'attackMissed', plane: 3, purpose: 'lightningAttack', faces: [2, 3, 4] });
    expect(island(missed.state, 5).japanese).toEqual(['kate']);
    const hit = ok(roll(s, [2, 2, 3]), { type: 'confirmRoll' });
    expect(types(hit.events)).not.toContain('attackMissed');
  });

  it('"Take-off is also a movement action so if you move to an island occupied by a Japanese plane, you can make a Lightning attack"', () => {
    let s = choose(scenario({ japanese: { 10: ['jake'] }, planes: { 1: { position: DECK } } }), { 1: 'takeoffLanding' });
    s = ok(s, { type: 'takeOff', plane: 1, to: 10 }).state;
    expect(ok(s, { type: 'lightningAttack', plane: 1 }).state.roll?.purpose).toBe('lightningAttack');
  });

  it('a lightning attack must follow the move at once, into an occupied space', () => {
    let s = choose(scenario({ japanese: { 5: ['kate'] } }));
    refused(s, { type: 'lightningAttack', plane: 3 }, 'noLightningAttack');
    s = ok(s, { type: 'move', plane: 4, to: 6 }).state;
    refused(s, { type: 'lightningAttack', plane: 4 }, 'noLightningAttack');
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    s = ok(s, { type: 'move', plane: 1, to: 8 }).state;
    refused(s, { type: 'lightningAttack', plane: 3 }, 'noLightningAttack');
  });

  it('"Each plane must complete its actions completely and independently before the next plane starts": another plane dropping its load ends the moment for a lightning attack', () => {
    let s = choose(scenario({ japanese: { 5: ['kate'] }, planes: { 1: { load: 'bomb' }, 3: { load: 'bomb' } } }));
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    // the plane that moved may drop its own bomb first ("at any time during their turn")
    const own = ok(s, { type: 'dropLoad', plane: 3 }).state;
    expect(ok(own, { type: 'lightningAttack', plane: 3 }).state.roll?.purpose).toBe('lightningAttack');
    s = ok(s, { type: 'dropLoad', plane: 1 }).state;
    expect(s.afterMove).toBeNull();
    refused(s, { type: 'lightningAttack', plane: 3 }, 'noLightningAttack');
  });

  it('"If you are in the approach zone and with 0 fuel points, you can attempt an emergency landing, by only rolling the dice allowed on your skill track"', () => {
    let s = choose(scenario({ planes: { 3: { fuel: 1 } } }));
    s = ok(s, { type: 'move', plane: 3, to: 'approach' }).state;
    expect(s.afterMove).toEqual({ plane: 3, lightningAttack: false, emergencyLanding: true });
    s = ok(s, { type: 'emergencyLanding', plane: 3 }).state;
    expect(s.roll?.purpose).toBe('emergencyLanding');
    expect(s.roll?.tracker.spec.dice).toBe(3);
    s = ok(roll(s, [4, 4, 4]), { type: 'confirmRoll' }).state;
    expect(plane(s, 3)).toMatchObject({ position: DECK, fuel: 14 });
  });
});

describe('bombs, idle planes, the end of the turn', () => {
  it('"he/she can drop the bomb into the sea at any time during their turn, except during their dice rolls"', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2), load: 'bomb' } } }), { 3: 'search' });
    const dropped = ok(s, { type: 'dropLoad', plane: 3 }).state;
    expect(plane(dropped, 3).load).toBe('none');
    s = ok(s, { type: 'search', plane: 3 }).state;
    expect(refused(s, { type: 'dropLoad', plane: 3 }, 'rollInProgress')).toBe('A search roll is under way: read the dice and confirm it first.');
    refused(dropped, { type: 'dropLoad', plane: 3 }, 'noLoad');
  });

  it('"A plane that is in the air and cannot take its chosen action always loses 1 point of fuel."', () => {
    let s = choose(scenario({ planes: { 1: { position: DECK } } }), { 3: 'search' });
    s = ok(s, { type: 'skipAction', plane: 3 }).state;
    expect(plane(s, 3).fuel).toBe(12);
    s = ok(s, { type: 'skipAction', plane: 1 }).state;
    expect(plane(s, 1).fuel).toBe(14);
  });

  it('an idle plane with no fuel left crashes', () => {
    let s = choose(scenario({ planes: { 3: { fuel: 0 } } }));
    s = ok(s, { type: 'skipAction', plane: 3 }).state;
    expect(plane(s, 3)).toMatchObject({ cockpit: 'B', position: DECK, fuel: 14 });
  });

  it('"When all the players have performed their actions, the players collect their action discs and begin the next turn." (planes that did not act count as idle)', () => {
    let s = choose(scenario());
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    const { state, events } = ok(s, { type: 'endTurn' });
    expect(state.phase).toBe('japanese');
    expect(state.turn).toBe(s.turn + 1);
    expect(state.planes.every((p) => p.action === null && !p.done)).toBe(true);
    expect(plane(state, 1).fuel).toBe(13);
    expect(plane(state, 3).fuel).toBe(12);
    expect(events.filter((e) => e.type === 'actionSkipped')).toHaveLength(3);
    expect(state.takeoffsLandingsThisTurn).toBe(0);
  });

  it('"All the allied planes are destroyed." ends the game lost', () => {
    let s = scenario({ planes: { 1: { cockpit: 'B', fuel: 0 }, 2: { cockpit: 'B', fuel: 0 }, 3: { cockpit: 'B', fuel: 0 }, 4: { cockpit: 'B', fuel: 0 } } });
    s = choose(s);
    const r = ok(s, { type: 'endTurn' });
    expect(r.state.outcome).toMatchObject({ result: 'lost', cause: 'allPlanesDestroyed' });
    expect(r.state.planes.every((p) => p.destroyed)).toBe(true);
  });
});

describe('more limits', () => {
  it('"It is not possible to make a Lightning attack against the Shōhō or the CAP after moving on to an orange island space."', () => {
    let s = choose(scenario({ search: 5, cap: 2, planes: { 3: { position: at(4), load: 'bomb' } } }));
    s = ok(s, { type: 'move', plane: 3, to: 1 }).state;
    expect(s.afterMove).toBeNull();
    refused(s, { type: 'lightningAttack', plane: 3 }, 'noLightningAttack');
  });

  it('"take one of the bomb tokens from the table" (4 bomb/drop tank tokens)', () => {
    let s = scenario({ planes: { 1: { position: DECK }, 2: { load: 'bomb' }, 3: { load: 'bomb' }, 4: { load: 'bomb' } } });
    s = choose(s, { 1: 'takeoffLanding' });
    expect(plane(ok(s, { type: 'takeOff', plane: 1, to: 'approach', load: 'bomb' }).state, 1).load).toBe('bomb');
    const full = structuredClone(s);
    full.rules = { ...full.rules, load: { ...full.rules.load, tokens: 3 } };
    refused(full, { type: 'takeOff', plane: 1, to: 'approach', load: 'bomb' }, 'noLoadTokens');
  });

  it('the search track stops at its top level, 7', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2) } }, search: 6 }), { 3: 'search' });
    s = ok(roll(ok(s, { type: 'search', plane: 3 }).state, [5, 5, 5, 2]), { type: 'confirmRoll' }).state;
    expect(s.search).toBe(7);
  });

  it('an emergency landing uses the flight deck like a landing (assumed: it counts against the two per turn)', () => {
    let s = scenario({ planes: { 1: { position: DECK }, 2: { position: DECK }, 3: { fuel: 1 } } });
    s = choose(s, { 1: 'takeoffLanding', 2: 'takeoffLanding' });
    s = ok(s, { type: 'takeOff', plane: 1, to: 'approach' }).state;
    s = ok(s, { type: 'takeOff', plane: 2, to: 'approach' }).state;
    s = ok(s, { type: 'move', plane: 3, to: 'approach' }).state;
    expect(refused(s, { type: 'emergencyLanding', plane: 3 }, 'flightDeckFull')).toMatch(/cannot make an emergency landing this turn/);
  });

  it('after a crash the plane sits on the deck with its action done for the turn', () => {
    let s = choose(scenario({ planes: { 3: { position: at(2), fuel: 1 } } }), { 3: 'search' });
    s = ok(s, { type: 'search', plane: 3 }).state;
    s = roll(s, [1, 2, 3, 4]);
    expect(plane(s, 3)).toMatchObject({ position: DECK, done: true, cockpit: 'B' });
    refused(s, { type: 'search', plane: 3 }, 'alreadyActed');
  });
});
