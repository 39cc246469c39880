/**
 * Rolls on the players' phones: a plane's roll is its seat's to throw (the other phones say whose it
 * is), and the Japanese attack on the Yorktown, no plane's, can be thrown and confirmed from any phone.
 * The game comes from the engine's built-in policy: the first seed whose two-player game has a roll of
 * seat 1's plane and then the Yorktown attacked.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GameCommand } from '../../server/games/game-module.ts';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import { playGame } from '../../server/games/yorktown1942/simulation.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { HAVE_CHROMIUM, PIN, SHOTS, command, tableState, unlock, useBrowserTable } from './harness.ts';

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

/**
 * The roll's main buttons on the phone page, scrolled to `y`: those outside the screen (with where they
 * are), those under 44 px tall, and the page's width.
 */
async function rollButtons(page: Page, y: number): Promise<{ out: string[]; small: string[]; scrollWidth: number }> {
  return page.evaluate((top) => {
    window.scrollTo(0, top);
    const out: string[] = [];
    const small: string[] = [];
    for (const id of ['throw', 'confirm-roll', 'undo-roll']) {
      const box = document.querySelector(`[data-testid=${id}]`)?.getBoundingClientRect();
      if (!box || box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth) out.push(`${id} ${box ? `${Math.round(box.top)}-${Math.round(box.bottom)}` : 'missing'}`);
      if (box && box.height < 44) small.push(`${id} ${Math.round(box.height)}`);
    }
    return { out, small, scrollWidth: document.documentElement.scrollWidth };
  }, y);
}

describe.skipIf(!HAVE_CHROMIUM)('a roll on a 360 × 740 phone', () => {
  const t = useBrowserTable({ tables: [{ id: 'default', name: 'Table', camera: { source: 'synthetic' } }] }, { width: 360, height: 740 }, { isMobile: true, hasTouch: true });

  it('keeps Throw, Confirm and Undo on the screen without scrolling, through the roll, covering nothing at the panel\'s end', async () => {
    const { server, page } = t;
    // plane 1 (seat 1 of four) flies to island 10 and attacks at once: a continuous roll, thrown by the synthetic camera
    await command(server, { type: 'newGame', players: 4, seed: 11 });
    await command(server, { type: 'drawCard' });
    for (const plane of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane, action: plane === 1 ? 'move' : 'search' });
    await command(server, { type: 'move', plane: 1, to: 10 });
    await command(server, { type: 'lightningAttack', plane: 1 });
    await page.goto(`${server.url}/phone/1?lang=en`);
    await unlock(page);
    await page.getByTestId('throw').waitFor();
    expect(await rollButtons(page, 0)).toEqual({ out: [], small: [], scrollWidth: 360 });
    await page.getByTestId('throw').tap();
    await expect.poll(() => page.getByTestId('confirm-roll').isEnabled(), { timeout: 15_000 }).toBe(true);
    // with the dice read (the figures and the split longer), at the top, halfway down the roll, and wherever it is scrolled
    expect(await rollButtons(page, 0)).toEqual({ out: [], small: [], scrollWidth: 360 });
    expect(await rollButtons(page, 500)).toEqual({ out: [], small: [], scrollWidth: 360 });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'phone-roll-bar.png') });
    // at the panel's end the bar is in its own place: the dice entry under it is not covered
    const covered = await page.evaluate(() => {
      const summary = document.querySelector('details.manual > summary')!;
      summary.scrollIntoView({ block: 'end' });
      const box = summary.getBoundingClientRect();
      return !summary.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
    expect(covered).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('confirm-roll').tap();
    await expect.poll(async () => (await tableState(server)).roll).toBeNull();
    await expect.poll(() => page.getByTestId('roll-panel').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });
});
