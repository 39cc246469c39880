import { describe, expect, it } from 'vitest';
import { INITIAL_CONTROLS } from '../../../server/hardware/serial/controls.ts';
import { ledsFor, rollSuccess } from '../../../server/hardware/serial/leds.ts';
import { resolveRules } from '../../../server/games/yorktown1942/ruleset.ts';
import { game, plane, roll } from './game-fixture.ts';

const RULES = resolveRules({});

const at = 10 * 60_000;

describe('box LEDs from the game', () => {
  it('are all off without a running game', () => {
    const off = { planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'off' };
    expect(ledsFor({ game: null, controls: INITIAL_CONTROLS, now: at })).toEqual(off);
    expect(ledsFor({ game: game({ phase: 'setup' }), controls: INITIAL_CONTROLS, now: at })).toEqual(off);
  });

  it('show the selected plane, low fuel, the rolling plane and destroyed planes', () => {
    const g = game({
      planes: [plane(1), plane(2, { fuel: 3 }), plane(3, { destroyed: true }), plane(4, { fuel: 2, position: { at: 'deck' } })],
      roll: roll({ plane: 4, fuelAtStart: 12 }),
      spotted: true,
    });
    expect(ledsFor({ game: g, controls: { selectedPlane: 1 }, now: at })).toEqual({ planes: ['on', 'blink', 'off', 'pulse'], spotted: 'on', roll: 'off' });
  });

  it('blink the spotted LED while a chain of Japanese planes runs from an orange to a red island, as the dashboard warns', () => {
    const held = (ids: number[]) => RULES.board.islands.map((i) => ({ id: i.id, colour: i.colour, japanese: ids.includes(i.id) ? ['zeke' as const] : [] }));
    const spotted = (ids: number[], isSpotted = false) => ledsFor({ game: game({ islands: held(ids), spotted: isSpotted }), controls: INITIAL_CONTROLS, now: at }).spotted;
    // 1 (orange) - 4 (green) - 8 (red) are joined by white lines on the board
    expect(spotted([1, 4, 8])).toBe('blink');
    expect(spotted([1, 4])).toBe('off');
    expect(spotted([1, 8])).toBe('off');
    expect(spotted([1, 4, 8], true)).toBe('on');
  });

  it('count the fuel spent on 1s during a roll', () => {
    const r = roll({ plane: 1, fuelAtStart: 6, tracker: { fuelSpent: 2 } });
    expect(ledsFor({ game: game({ roll: r }), controls: INITIAL_CONTROLS, now: at }).planes[0]).toBe('blink');
    const r2 = roll({ plane: 1, fuelAtStart: 6, tracker: { fuelSpent: 1 } });
    expect(ledsFor({ game: game({ roll: r2 }), controls: INITIAL_CONTROLS, now: at }).planes[0]).toBe('pulse');
  });

  it('judge the roll in progress', () => {
    const reading = { faces: [3, 3, 5, 1] as (1 | 2 | 3 | 4 | 5 | 6)[], readings: 1 };
    const success = roll({ tracker: { ...reading, best: { kind: 'tier', tierId: 'raise0', equal: 2, value: 3 } } });
    const failing = roll({ tracker: { ...reading, best: { kind: 'tier', tierId: null, equal: 0, value: null } } });
    const crashed = roll({ tracker: { ...reading, outOfFuel: true } });
    const landingCrash = roll({ purpose: 'landing', tracker: { ...reading, best: { kind: 'tier', tierId: 'crashUnharmed', equal: 2, value: 3 } } });
    const attack = roll({ purpose: 'attack', tracker: { ...reading, best: { kind: 'targets', taken: [{ targetId: 'kate', value: 3 }], totalValue: 3 } } });
    expect(rollSuccess(roll(), RULES)).toBeNull();
    expect(rollSuccess(success, RULES)).toBe(true);
    expect(rollSuccess(landingCrash, RULES)).toBe(false);
    expect(rollSuccess(attack, RULES)).toBe(true);
    const led = (r: ReturnType<typeof roll>) => ledsFor({ game: game({ roll: r }), controls: INITIAL_CONTROLS, now: at }).roll;
    expect([led(success), led(failing), led(crashed), led(landingCrash), led(attack)]).toEqual(['greenBlink', 'redBlink', 'red', 'redBlink', 'greenBlink']);
  });

  it('do not say success while the camera sees a die it cannot read (Confirm is refused then)', () => {
    const reading = { faces: [3, 3, 5, 1] as (1 | 2 | 3 | 4 | 5 | 6)[], readings: 1 };
    const success = roll({ tracker: { ...reading, best: { kind: 'tier', tierId: 'raise0', equal: 2, value: 3 } } });
    const led = (diceUnread: number) => ledsFor({ game: game({ roll: success }), controls: INITIAL_CONTROLS, now: at, diceUnread }).roll;
    expect(led(0)).toBe('greenBlink');
    expect(led(1)).toBe('off');
    expect(led(2)).toBe('off');
  });

  it('do not judge the dice read before a re-throw while the dice thrown are moving or being read (Confirm is refused then)', () => {
    const success = roll({ tracker: { faces: [3, 3, 5, 1], readings: 1, best: { kind: 'tier', tierId: 'raise0', equal: 2, value: 3 } } });
    const led = (trayBusy: boolean) => ledsFor({ game: game({ roll: success }), controls: INITIAL_CONTROLS, now: at, trayBusy }).roll;
    expect(led(false)).toBe('greenBlink');
    expect(led(true)).toBe('off');
  });

  it('judge the Japanese attack on the Yorktown: no hit is a success', () => {
    const attack = (faces: (1 | 2 | 3 | 4 | 5 | 6)[]) => roll({ purpose: 'yorktownAttack', plane: null, tracker: { faces, readings: 1, best: { kind: 'faces', faces } } });
    expect(rollSuccess(attack([2, 3, 4, 5]), RULES)).toBe(true);
    expect(rollSuccess(attack([3, 3, 5, 6]), RULES)).toBe(false); // a pair: the Yorktown hit
    expect(rollSuccess(attack([1, 1, 5, 6]), RULES)).toBe(true); // the anti-aircraft pair: the attacker shot down, no hit
    const led = (faces: (1 | 2 | 3 | 4 | 5 | 6)[]) => ledsFor({ game: game({ roll: attack(faces) }), controls: INITIAL_CONTROLS, now: at }).roll;
    expect([led([2, 3, 4, 5]), led([3, 3, 5, 6])]).toEqual(['greenBlink', 'redBlink']);
    // a plain reading of faces for another purpose still has nothing to judge
    expect(rollSuccess(roll({ purpose: 'search', tracker: { faces: [3, 3], readings: 1, best: { kind: 'faces', faces: [3, 3] } } }), RULES)).toBeNull();
  });

  it('keep a selected or rolling plane visible when its fuel is low: blink takes turns with on or pulse every 2 s', () => {
    const low = game({ planes: [plane(1, { fuel: 3 }), plane(2, { fuel: 2 }), plane(3, { fuel: 4 }), plane(4)], roll: roll({ plane: 2, fuelAtStart: 2 }) });
    const planes = (now: number) => ledsFor({ game: low, controls: { selectedPlane: 1 }, now }).planes;
    // plane 1 selected, plane 2 rolling, plane 3 low only, plane 4 nothing
    expect(planes(0)).toEqual(['blink', 'blink', 'blink', 'off']);
    expect(planes(1999)).toEqual(['blink', 'blink', 'blink', 'off']);
    expect(planes(2000)).toEqual(['on', 'pulse', 'blink', 'off']);
    expect(planes(4000)).toEqual(['blink', 'blink', 'blink', 'off']);
  });

  it('show a finished roll for a while, then the last-minute alarm', () => {
    const g = game({ deadline: at + 30_000 });
    const lastRoll = { success: true, at: at - 1000 };
    expect(ledsFor({ game: g, controls: INITIAL_CONTROLS, now: at, lastRoll }).roll).toBe('green');
    expect(ledsFor({ game: g, controls: INITIAL_CONTROLS, now: at + 5000, lastRoll }).roll).toBe('redBlink');
    expect(ledsFor({ game: game({ deadline: at + 61_000 }), controls: INITIAL_CONTROLS, now: at }).roll).toBe('off');
    expect(ledsFor({ game: game({ deadline: at - 1 }), controls: INITIAL_CONTROLS, now: at }).roll).toBe('off');
  });

  it('show the outcome when the game is over', () => {
    const won = game({ phase: 'over', outcome: { result: 'won', cause: 'shohoSunk', at } });
    const lost = game({ phase: 'over', outcome: { result: 'lost', cause: 'time', at } });
    expect(ledsFor({ game: won, controls: { selectedPlane: 1 }, now: at })).toEqual({ planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'green' });
    expect(ledsFor({ game: lost, controls: INITIAL_CONTROLS, now: at }).roll).toBe('red');
  });
});

describe("the table's LEDs for a Yorktown game", () => {
  it('blink a plane low on fuel from the rules in play: once its landing is no longer automatic, as its card turns red', async () => {
    const { yorktownAdapter } = await import('../../../server/table/yorktown-adapter.ts');
    const { scenario } = await import('../../games/yorktown-helpers.ts');
    const s = scenario({ planes: { 1: { position: { at: 'island', island: 5 }, fuel: 5 } } });
    const leds = (state: typeof s) => yorktownAdapter.box!.leds({ state, controls: INITIAL_CONTROLS, now: s.startedAt ?? 0, lastRoll: null, diceUnread: 0, trayBusy: false }).planes[0];
    expect(leds(s)).not.toBe('blink'); // 5 fuel lands by itself with the rulebook's 5
    expect(leds({ ...s, rules: { ...s.rules, landing: { ...s.rules.landing, autoFuel: 6 } } })).toBe('blink');
  });
});
