/** The attack targets the box (and the dashboard) offer are exactly those the engine accepts. */
import { describe, expect, it } from 'vitest';
import { attackTargets } from '../../../server/games/yorktown1942/attack-targets.ts';
import type { AttackTarget } from '../../../server/games/yorktown1942/commands.ts';
import { yorktown1942 } from '../../../server/games/yorktown1942/index.ts';
import type { Position } from '../../../server/games/yorktown1942/types.ts';
import { choose, scenario } from '../../games/yorktown-helpers.ts';

const ALL: AttackTarget[] = ['planes', 'cap', 'shoho'];

describe('attack targets', () => {
  it('are the targets the engine accepts, wherever the plane is, whatever it carries, the search and the CAP', () => {
    const positions: Position[] = [{ at: 'approach' }, ...[1, 2, 4, 8].map((island) => ({ at: 'island' as const, island: island as 1 }))];
    let cases = 0;
    for (const position of positions) {
      for (const japanese of [false, true]) {
        for (const search of [0, 3]) {
          for (const cap of [0, 2]) {
            for (const load of ['none', 'bomb'] as const) {
              const island = position.at === 'island' ? position.island : null;
              const state = choose(scenario({ planes: { 3: { position, load, fuel: 10 } }, search, cap, japanese: japanese && island ? { [island]: ['kate'] } : {} }), { 3: 'attack' });
              const accepted = ALL.filter((target) => yorktown1942.apply(state, { type: 'attack', plane: 3, target }, 0).ok);
              const offered = attackTargets(state, state.rules.search.locatedAt, state.planes.find((p) => p.id === 3)!);
              expect(offered, JSON.stringify({ position, japanese, search, cap, load })).toEqual(accepted);
              cases += 1;
            }
          }
        }
      }
    }
    expect(cases).toBe(80);
  });

  it('are none from the flight deck', () => {
    const state = choose(scenario({ planes: { 3: { position: { at: 'deck' }, load: 'bomb' } }, search: 3, cap: 2 }), { 3: 'attack' });
    expect(attackTargets(state, state.rules.search.locatedAt, state.planes.find((p) => p.id === 3)!)).toEqual([]);
  });
});
