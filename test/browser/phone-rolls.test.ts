/**
 * Rolls on the players' phones: a plane's roll is its seat's to throw (the other phones say whose it
 * is), and the Japanese attack on the Yorktown, no plane's, can be thrown and confirmed from any phone.
 * The game comes from the engine's built-in policy: the first seed whose two-player game has a roll of
 * seat 1's plane and then the Yorktown attacked.
 */
import { describe, expect, it } from 'vitest';
import type { GameCommand } from '../../server/games/game-module.ts';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import { playGame } from '../../server/games/yorktown1942/simulation.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { HAVE_CHROMIUM, PIN, command, tableState, unlock, useBrowserTable } from './harness.ts';

const SETUP = { players: 2 as const, difficulty: 30 as const };

/** The commands after newGame up to seat 1's first plane roll, and on to the first attack on the Yorktown. */
function seededRolls(): { seed: number; toPlaneRoll: GameCommand[]; toYorktownRoll: GameCommand[] } {
  for (let seed = 1; seed <= 100; seed++) {
    const entries = playGame({ seed, ...SETUP }).journal.effective.map((e) => e.entry);
    let state: YorktownState = yorktown1942.emptyState();
    let planeRoll = -1;
    for (const [i, entry] of entries.entries()) {
      const result = yorktown1942.apply(state, entry.command as never, entry.at);
      if (!result.ok) break;
      state = result.state;
      const roller = state.roll?.plane ? state.planes.find((p) => p.id === state.roll!.plane) : undefined;
      if (planeRoll < 0 && roller?.seat === 1) planeRoll = i;
      if (state.roll?.purpose === 'yorktownAttack') {
        if (planeRoll < 0) break;
        const commands = entries.map((e) => e.command);
        return { seed, toPlaneRoll: commands.slice(1, planeRoll + 1), toYorktownRoll: commands.slice(planeRoll + 1, i + 1) };
      }
    }
  }
  throw new Error('no seed in 1..100 where a two-player game has a roll of seat 1 and then the Yorktown attacked');
}

describe.skipIf(!HAVE_CHROMIUM)('rolls on the phones', () => {
  const t = useBrowserTable(undefined, { width: 390, height: 844 });

  it('tells the other seat whose roll it is, and lets any phone throw the attack on the Yorktown', async () => {
    const { server, page } = t;
    const { seed, toPlaneRoll, toYorktownRoll } = seededRolls();
    await command(server, { type: 'newGame', seed, ...SETUP });
    for (const c of toPlaneRoll) await command(server, c as Record<string, unknown>);
    const roll = (await tableState(server)).roll as { plane: number; purpose: string };
    await page.goto(`${server.url}/phone/2?lang=en`);
    await unlock(page);
    await expect.poll(() => page.getByTestId('next-step').textContent()).toMatch(new RegExp(`^Plane ${roll.plane} \\(seat 1\\) is rolling — .+\\. Its player throws the dice\\.$`));
    expect(await page.getByTestId('roll-panel').count()).toBe(0);

    for (const c of toYorktownRoll) await command(server, c as Record<string, unknown>);
    expect(((await tableState(server)).roll as { purpose: string }).purpose).toBe('yorktownAttack');
    // no plane's roll: seat 2's phone has it, dice entry and Confirm
    await page.getByTestId('roll-panel').waitFor();
    expect(await page.getByTestId('next-step').textContent()).toMatch(/^Roll the \d dice once, then Confirm\.$/);
    expect(await page.getByTestId('confirm-roll').count()).toBe(1);
    expect(await page.locator('details.manual').count()).toBe(1);
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('a phone before any game', () => {
  const t = useBrowserTable(undefined, { width: 390, height: 844 });

  it('says no game runs, sets one up from the phone and comes back to it', async () => {
    const { server, page } = t;
    await page.goto(`${server.url}/phone/1?lang=en`);
    // without the PIN, the way to it
    await expect.poll(() => page.getByTestId('phone-unlock').textContent()).toBe('Enter the PIN to start one');
    await page.getByTestId('phone-unlock').click();
    await page.getByTestId('pin-input').fill(PIN);
    await page.getByTestId('pin-submit').click();
    await page.getByTestId('control-state').waitFor();
    await expect.poll(() => page.locator('.phone-no-game p').textContent()).toBe('No game is running.');
    await page.getByTestId('phone-new-game').click();
    await page.getByTestId('players-2').click();
    await page.getByTestId('start-game').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view') ?? new URL(page.url()).pathname).toMatch(/phone/);
    // seat 1 of two flies planes 1 and 2
    await expect.poll(() => page.locator('.plane-card').count()).toBe(2);
    expect(t.errors).toEqual([]);
  });
});
