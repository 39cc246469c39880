import { describe, expect, it } from 'vitest';
import { INITIAL_CONTROLS } from '../../../server/hardware/serial/controls.ts';
import { ledsFor, rollSuccess } from '../../../server/hardware/serial/leds.ts';
import { game, plane, roll } from './game-fixture.ts';

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
    expect(rollSuccess(roll())).toBeNull();
    expect(rollSuccess(success)).toBe(true);
    expect(rollSuccess(landingCrash)).toBe(false);
    expect(rollSuccess(attack)).toBe(true);
    const led = (r: ReturnType<typeof roll>) => ledsFor({ game: game({ roll: r }), controls: INITIAL_CONTROLS, now: at }).roll;
    expect([led(success), led(failing), led(crashed), led(landingCrash), led(attack)]).toEqual(['greenBlink', 'redBlink', 'red', 'redBlink', 'greenBlink']);
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
