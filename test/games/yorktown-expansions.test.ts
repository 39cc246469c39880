import { describe, expect, it } from 'vitest';
import { publicView } from '../../server/games/yorktown1942/index.ts';
import type { ManoeuvreId, WeatherId } from '../../server/games/yorktown1942/types.ts';
import { choose, island, ok, plane, refused, roll, scenario, start } from './yorktown-helpers.ts';

const at = (island: number) => ({ at: 'island' as const, island });
const ALL = { expertManoeuvres: true, dropTank: true, weather: true };

function withTile(tile: ManoeuvreId, planeId: 1 | 2 | 3 | 4, options: Parameters<typeof scenario>[0] = {}) {
  const s = scenario({ ...options, newGame: { expansions: ALL, ...options.newGame } });
  plane(s, planeId).manoeuvre = { id: tile, used: false };
  return s;
}

describe('expert manoeuvres', () => {
  it('"Shuffle and deal one tile face down to each plane." (seeded: the same seed deals the same tiles)', () => {
    const a = start({ seed: 11, expansions: ALL });
    const tiles = a.planes.map((p) => p.manoeuvre?.id);
    expect(new Set(tiles).size).toBe(4);
    expect(start({ seed: 11, expansions: ALL }).planes.map((p) => p.manoeuvre?.id)).toEqual(tiles);
    const seen = new Set<string>();
    for (let seed = 0; seed < 20; seed++) for (const p of start({ seed, expansions: ALL }).planes) seen.add(p.manoeuvre!.id!);
    expect(seen.size).toBe(6);
    expect(publicView(a).planes.every((p) => p.manoeuvre?.id === null)).toBe(true);
  });

  it('"Landing Ace: Land without throwing dice." and each tile is used once', () => {
    let s = choose(withTile('landingAce', 1, { planes: { 1: { fuel: 2 } } }), { 1: 'takeoffLanding' });
    s = ok(s, { type: 'land', plane: 1, manoeuvre: true }).state;
    expect(plane(s, 1)).toMatchObject({ position: { at: 'deck' }, fuel: 14, manoeuvre: { id: 'landingAce', used: true } });
    expect(s.roll).toBeNull();
    expect(publicView(s).planes[0].manoeuvre).toEqual({ id: 'landingAce', used: true });
  });

  it('a used tile, the wrong tile, or a game without the expansion is refused', () => {
    const s = choose(withTile('landingAce', 3, { planes: { 3: { position: at(2) } } }), { 3: 'search' });
    // the dealt tile is secret: the refusal, seen by the whole table, does not name it
    expect(refused(s, { type: 'search', plane: 3, manoeuvre: true }, 'manoeuvreNotHere')).toBe("Plane 3's tile cannot be used to search.");
    // a tile the players name is named back
    const physical = structuredClone(s);
    plane(physical, 3).manoeuvre!.id = null;
    expect(refused(physical, { type: 'search', plane: 3, manoeuvre: 'landingAce' }, 'manoeuvreNotHere')).toBe('Landing Ace cannot be used to search.');
    const used = structuredClone(s);
    plane(used, 3).manoeuvre!.used = true;
    refused(used, { type: 'search', plane: 3, manoeuvre: true }, 'manoeuvreUsed');
    const plain = choose(scenario({ planes: { 3: { position: at(2) } } }), { 3: 'search' });
    refused(plain, { type: 'search', plane: 3, manoeuvre: true }, 'noManoeuvres');
  });

  it('"Efficient. Don\'t lose fuel points by all [the 1s] of a die roll."', () => {
    let s = choose(withTile('efficient', 3, { planes: { 3: { position: at(2) } } }), { 3: 'search' });
    s = ok(s, { type: 'search', plane: 3, manoeuvre: true }).state;
    expect(plane(s, 3).fuel).toBe(12);
    s = roll(s, [1, 1, 1, 4]);
    expect(plane(s, 3).fuel).toBe(12);
    expect(s.roll?.tracker.lockedOnes).toBe(3);
  });

  it('"Decisive. When attacking, re-roll the first [1] that is rolled."', () => {
    let s = choose(withTile('decisive', 3, { planes: { 3: { position: at(5) } }, japanese: { 5: ['kate'] } }), { 3: 'attack' });
    s = ok(s, { type: 'attack', plane: 3, target: 'planes', manoeuvre: true }).state;
    s = roll(s, [1, 3, 4, 5]);
    expect(plane(s, 3).fuel).toBe(12);
    expect(s.roll?.tracker.lockedOnes).toBe(0);
    s = roll(s, [1, 3, 4, 2]); // the freed 1 may still lie there: it is not new
    expect(plane(s, 3).fuel).toBe(12);
    s = roll(s, [6, 3, 4, 2]); // the freed die was re-rolled
    s = roll(s, [6, 3, 1, 2]); // the next 1 locks and costs fuel
    expect(s.roll?.tracker.lockedOnes).toBe(1);
    expect(plane(s, 3).fuel).toBe(11);
  });

  it('"Hawk Eye. When taking the search action, increase the search token one position extra. If you fail, increase the search token 1 position and you earn [1 skill]."', () => {
    const searching = () => ok(choose(withTile('hawkEye', 3, { planes: { 3: { position: at(2) } } }), { 3: 'search' }), { type: 'search', plane: 3, manoeuvre: true }).state;
    const success = ok(roll(searching(), [4, 4, 2, 3]), { type: 'confirmRoll' }).state;
    expect(success.search).toBe(2);
    const fail = ok(roll(searching(), [5, 4, 2, 3]), { type: 'confirmRoll' }).state;
    expect(fail.search).toBe(1);
    expect(plane(fail, 3).skill).toBe(1);
  });

  it('"Aggressive. Make a Lightning attack as if it were a normal attack."', () => {
    let s = choose(withTile('aggressive', 3, { japanese: { 5: ['kate'] }, planes: { 4: { position: at(5) } } }), { 4: 'attack' });
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    s = ok(s, { type: 'lightningAttack', plane: 3, manoeuvre: true }).state;
    expect(s.roll?.tracker.spec.dice).toBe(3 + 1 + 1);
    expect(plane(s, 3).fuel).toBe(11);
  });

  it('"Invisible. When making a double movement or returning to the aircraft carrier, you can pass through occupied spaces."', () => {
    const s = choose(withTile('invisible', 3, { japanese: { 5: ['kate'], 4: ['jake'], 6: ['kate'], 7: ['zeke'] }, planes: { 3: { position: at(2) } } }));
    refused(s, { type: 'move', plane: 3, to: 9, via: 5 }, 'viaOccupied');
    expect(plane(ok(s, { type: 'move', plane: 3, to: 9, via: 5, manoeuvre: true }).state, 3).position).toEqual(at(9));
    refused(s, { type: 'move', plane: 3, to: 'approach' }, 'wayBlocked');
    expect(plane(ok(s, { type: 'move', plane: 3, to: 'approach', manoeuvre: 'invisible' }).state, 3).position).toEqual({ at: 'approach' });
  });

  it('physical tiles: the player names the tile turned over; a tile is used once', () => {
    let s = scenario({ newGame: { expansions: ALL, deck: 'physical' }, planes: { 1: { fuel: 2 }, 2: { fuel: 2 } } });
    expect(plane(s, 1).manoeuvre).toEqual({ id: null, used: false });
    s = choose(s, { 1: 'takeoffLanding', 2: 'takeoffLanding' });
    refused(s, { type: 'land', plane: 1, manoeuvre: true }, 'manoeuvreUnknown');
    s = ok(s, { type: 'land', plane: 1, manoeuvre: 'landingAce' }).state;
    expect(plane(s, 1).position).toEqual({ at: 'deck' });
    refused(s, { type: 'land', plane: 2, manoeuvre: 'landingAce' }, 'manoeuvreUsed');
  });
});

describe('drop tank', () => {
  it('"you can load a drop tank instead of a bomb ... you will throw a one die less penalty until you use the drop tank"', () => {
    let s = choose(scenario({ newGame: { expansions: ALL }, planes: { 1: { position: { at: 'deck' } } } }), { 1: 'takeoffLanding' });
    s = ok(s, { type: 'takeOff', plane: 1, to: 'approach', load: 'dropTank' }).state;
    expect(plane(s, 1).load).toBe('dropTank');
    const plain = choose(scenario({ planes: { 1: { position: { at: 'deck' } } } }), { 1: 'takeoffLanding' });
    refused(plain, { type: 'takeOff', plane: 1, to: 'approach', load: 'dropTank' }, 'noDropTanks');
    const searching = choose(scenario({ newGame: { expansions: ALL }, planes: { 3: { position: at(2), load: 'dropTank' } } }), { 3: 'search' });
    expect(ok(searching, { type: 'search', plane: 3 }).state.roll?.tracker.spec.dice).toBe(3);
  });

  it('"To use the drop tank, at the beginning of your turn you must have 7 fuel points or fewer. Then, return the fuel tank to the table and receive 4 fuel points."', () => {
    const s = choose(scenario({ newGame: { expansions: ALL }, planes: { 3: { fuel: 7, load: 'dropTank' }, 4: { fuel: 8, load: 'dropTank' } } }));
    const used = ok(s, { type: 'useDropTank', plane: 3 }).state;
    expect(plane(used, 3)).toMatchObject({ fuel: 11, load: 'none' });
    expect(refused(s, { type: 'useDropTank', plane: 4 }, 'tooMuchFuel')).toMatch(/7 fuel or fewer/);
    const moved = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    refused(moved, { type: 'useDropTank', plane: 3 }, 'notTurnStart');
  });

  it('a drop tank used at the beginning of another plane\'s turn ends the moment for the plane that just moved', () => {
    let s = choose(scenario({ newGame: { expansions: ALL }, japanese: { 5: ['kate'] }, planes: { 4: { fuel: 7, load: 'dropTank' } } }));
    s = ok(s, { type: 'move', plane: 3, to: 5 }).state;
    expect(s.afterMove?.plane).toBe(3);
    s = ok(s, { type: 'useDropTank', plane: 4 }).state;
    expect(s.afterMove).toBeNull();
    refused(s, { type: 'lightningAttack', plane: 3 }, 'noLightningAttack');
  });
});

describe('weather events', () => {
  it('"place four of them on the green islands and then, return the other two to the box without looking at them."', () => {
    const s = start({ seed: 4, expansions: ALL });
    const greens = s.islands.filter((i) => i.colour === 'green');
    expect(greens.every((i) => i.weather && !i.weather.revealed && i.weather.id)).toBe(true);
    expect(s.islands.filter((i) => i.colour !== 'green').every((i) => i.weather === null)).toBe(true);
    expect(s.weatherInBox).toHaveLength(2);
    const all = [...greens.map((i) => i.weather!.id), ...s.weatherInBox].sort();
    expect(all).toEqual(['favourableWind', 'favourableWind', 'goodVisibility', 'goodVisibility', 'nothing', 'storm']);
    const view = publicView(s);
    expect(view.islands.every((i) => i.weather === null || i.weather.id === null)).toBe(true);
    expect(view.weatherInBox).toEqual([]);
  });

  const onToken = (id: WeatherId) => {
    const s = choose(scenario({ newGame: { expansions: ALL }, planes: { 3: { position: at(5) } } }), { 3: 'search' });
    island(s, 5).weather = { id, revealed: false };
    return ok(s, { type: 'revealWeather', plane: 3 }).state;
  };

  it('"Roll only the dice allowed on your skill card and the extra dice for 1 fuel point. If you get [two equal] turn over the token."', () => {
    const s = onToken('nothing');
    expect(s.roll?.tracker.spec.dice).toBe(4);
    expect(plane(s, 3).fuel).toBe(12);
    const failed = ok(roll(s, [2, 3, 4, 5]), { type: 'confirmRoll' }).state;
    expect(island(failed, 5).weather).toEqual({ id: 'nothing', revealed: false });
    const nothing = ok(roll(s, [2, 2, 4, 5]), { type: 'confirmRoll' }).state;
    expect(island(nothing, 5).weather).toBeNull();
  });

  it('"Good visibility (x2). Discard the token and then, raise the search token one level and receive 1 skill point."', () => {
    const done = ok(roll(onToken('goodVisibility'), [6, 6, 4, 5]), { type: 'confirmRoll' });
    const s = done.state;
    expect(island(s, 5).weather).toBeNull();
    expect(s.search).toBe(1);
    expect(done.events).toContainEqual(expect.objectContaining({ type: 'searchRaised', raised: 1, search: 1 }));
    expect(plane(s, 3).skill).toBe(1);
  });

  it('"Favourable wind currents (x2). ... When a movement finishes on this space, add 1 fuel point to the plane."', () => {
    let s = ok(roll(onToken('favourableWind'), [6, 6, 4, 5]), { type: 'confirmRoll' }).state;
    expect(island(s, 5).weather).toEqual({ id: 'favourableWind', revealed: true });
    s = ok(s, { type: 'move', plane: 4, to: 5 }).state;
    expect(plane(s, 4).fuel).toBe(13);
  });

  it('"Storm (x1). This token remains on this island for the rest of the game. The dice rolls on this island are with one die less."', () => {
    const s = ok(roll(onToken('storm'), [6, 6, 4, 5]), { type: 'confirmRoll' }).state;
    expect(island(s, 5).weather).toEqual({ id: 'storm', revealed: true });
    s.islands.find((i) => i.id === 5)!.japanese = [];
    const next = structuredClone(s);
    next.phase = 'planes';
    next.actionsStarted = false;
    for (const p of next.planes) Object.assign(p, { action: null, done: false });
    island(next, 5).japanese = ['kate'];
    next.supply.kateZeke -= 1;
    const attacking = ok(choose(next, { 3: 'attack' }), { type: 'attack', plane: 3, target: 'planes' }).state;
    expect(attacking.roll?.tracker.spec.dice).toBe(3);
  });

  describe('Hawk Eye on a reveal ("you can take one search action to reveal the token": the text leaves it open, manoeuvres.hawkEyeRevealsWeather)', () => {
    const revealing = (id: WeatherId, hawkEyeRevealsWeather?: boolean) => {
      const ruleOverrides = hawkEyeRevealsWeather === undefined ? {} : { 'manoeuvres.hawkEyeRevealsWeather': hawkEyeRevealsWeather };
      const s = choose(withTile('hawkEye', 3, { newGame: { ruleOverrides }, planes: { 3: { position: at(5) } } }), { 3: 'search' });
      island(s, 5).weather = { id, revealed: false };
      return s;
    };

    it('is refused by default, the tile kept', () => {
      const s = revealing('goodVisibility');
      expect(refused(s, { type: 'revealWeather', plane: 3, manoeuvre: true }, 'manoeuvreNotHere')).toBe("Plane 3's tile cannot be used to reveal a weather token.");
      expect(plane(s, 3).manoeuvre).toEqual({ id: 'hawkEye', used: false });
    });

    it('where the rules allow it: the search token one position extra and the search\'s skill point when the token is turned over', () => {
      const rolling = ok(revealing('goodVisibility', true), { type: 'revealWeather', plane: 3, manoeuvre: true }).state;
      expect(plane(rolling, 3).manoeuvre).toEqual({ id: 'hawkEye', used: true });
      const good = ok(roll(rolling, [6, 6, 4, 5]), { type: 'confirmRoll' });
      expect(good.state.search).toBe(2);
      expect(plane(good.state, 3).skill).toBe(2); // Good visibility's and the search's
      expect(good.events).toContainEqual(expect.objectContaining({ type: 'searchRaised', raised: 1, reason: 'Hawk Eye' }));
      const storm = ok(roll(ok(revealing('storm', true), { type: 'revealWeather', plane: 3, manoeuvre: true }).state, [6, 6, 4, 5]), { type: 'confirmRoll' }).state;
      expect(storm.search).toBe(1);
      expect(plane(storm, 3).skill).toBe(1);
    });

    it('where the rules allow it: a failed reveal still raises the search token 1 position and earns the skill point', () => {
      const failed = ok(roll(ok(revealing('goodVisibility', true), { type: 'revealWeather', plane: 3, manoeuvre: true }).state, [2, 3, 4, 5]), { type: 'confirmRoll' }).state;
      expect(island(failed, 5).weather).toEqual({ id: 'goodVisibility', revealed: false });
      expect(failed.search).toBe(1);
      expect(plane(failed, 3).skill).toBe(1);
    });
  });

  it('a weather token is revealed only where one lies face down', () => {
    const s = choose(scenario({ newGame: { expansions: ALL }, planes: { 3: { position: at(2) } } }), { 3: 'search' });
    refused(s, { type: 'revealWeather', plane: 3 }, 'noWeatherToken');
  });

  it('physical tokens: the players say which token was turned over', () => {
    let s = choose(scenario({ newGame: { expansions: ALL, deck: 'physical' }, planes: { 3: { position: at(5) } } }), { 3: 'search' });
    expect(island(s, 5).weather).toEqual({ id: null, revealed: false });
    s = roll(ok(s, { type: 'revealWeather', plane: 3 }).state, [3, 3, 4, 5]);
    refused(s, { type: 'confirmRoll' }, 'weatherNeeded');
    const storm = ok(s, { type: 'confirmRoll', weather: 'storm' }).state;
    expect(island(storm, 5).weather).toEqual({ id: 'storm', revealed: true });
  });
});
