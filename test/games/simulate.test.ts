import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { parseFlags, simulate } from '../../server/cli/simulate.ts';

describe('npm run simulate', () => {
  it('reads its flags and refuses bad ones with a clear error', () => {
    expect(parseFlags(['--games', '5', '--seed', '9'])).toMatchObject({ games: 5, seed: 9, players: 4, difficulty: 30 });
    expect(parseFlags(['--games=3', '--players=2', '--difficulty=35', '--expansions=all'])).toMatchObject({ games: 3, players: 2, difficulty: 35, expansions: true });
    expect(() => parseFlags(['--games', 'ten'])).toThrow(/--games needs a whole number, got "ten"/);
    expect(() => parseFlags(['--games', '0'])).toThrow(/between 1 and/);
    expect(() => parseFlags(['--seed'])).toThrow(/--seed needs a whole number, got nothing/);
    expect(() => parseFlags(['--difficulty', '31'])).toThrow(/25, 30 or 35/);
    expect(() => parseFlags(['--speed', '3'])).toThrow(/unknown flag --speed/);
    expect(() => parseFlags(['games'])).toThrow(/unexpected argument/);
  });

  it('the same seed gives the same figures (timing aside)', () => {
    const strip = (f: ReturnType<typeof simulate>) => ({ ...f, seconds: 0, gamesPerSecond: 0, msPerCommand: 0 });
    const a = simulate(parseFlags(['--games', '12', '--seed', '5']));
    const b = simulate(parseFlags(['--games', '12', '--seed', '5']));
    expect(strip(a)).toEqual(strip(b));
    expect(a.wins + a.losses.time + a.losses.yorktownSunk + a.losses.allPlanesDestroyed + a.unfinished).toBe(12);
    expect(a.unfinished).toBe(0);
    const c = simulate(parseFlags(['--games', '12', '--seed', '6']));
    expect(strip(c)).not.toEqual(strip(a));
  });

  it('prints progress on stderr and one JSON object as its last line', () => {
    const out = execFileSync('npx', ['tsx', 'server/cli/simulate.ts', '--games', '4', '--seed', '3'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const last = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ games: 4, seed: 3 });
    expect(Object.keys(last.losses).sort()).toEqual(['allPlanesDestroyed', 'time', 'yorktownSunk']);
    expect(typeof last.averageTurns).toBe('number');
    expect(typeof last.gamesPerSecond).toBe('number');
    const bad = spawnSync('npx', ['tsx', 'server/cli/simulate.ts', '--games', 'x'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--games needs a whole number/);
  }, 60_000);
});
