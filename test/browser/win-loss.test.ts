/**
 * Seeded games to the end: the engine's built-in policy (server/games/yorktown1942/simulation.ts)
 * finds a seed it wins and one it loses; the game is set up through the wizard with that seed,
 * the long middle is replayed through the HTTP API, and the end screen is checked in the page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playGame } from '../../server/games/yorktown1942/simulation.ts';
import type { GameCommand } from '../../server/games/game-module.ts';
import { localDay } from '../../server/store/stats-store.ts';
import { HAVE_CHROMIUM, buildWeb, command, launch, runOutTime, shot, startServer, tableState, testClock, unlock, watchErrors, type RunningServer } from './harness.ts';

const SETUP = { players: 4 as const, difficulty: 35 as const };

/** The first seed whose simulated game ends as asked, and the commands after its newGame. */
function seededGame(result: 'won' | 'lost', cause: string): { seed: number; commands: GameCommand[] } {
  for (let seed = 1; seed <= 300; seed++) {
    const game = playGame({ seed, ...SETUP });
    if (game.result === result && game.cause === cause) {
      const commands = game.journal.effective.map((e) => e.entry.command).filter((c) => c.type !== 'newGame');
      return { seed, commands };
    }
  }
  throw new Error(`no seed in 1..300 where the built-in policy ends with ${result}/${cause}`);
}

describe.skipIf(!HAVE_CHROMIUM)('reaching the end of a game', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const clock = testClock();

  beforeAll(async () => {
    buildWeb();
    server = await startServer(undefined, undefined, clock.now);
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    errors = watchErrors(page);
    await page.goto(`${server.url}/?view=wizard&lang=en`);
    await unlock(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function startSeeded(seed: number): Promise<void> {
    await page.getByTestId('players-4').click();
    await page.getByTestId('difficulty-35').click();
    await page.locator('input[name=seed]').fill(String(seed));
    await page.getByTestId('start-game').click();
    await page.locator('.table-view').waitFor();
    await expect.poll(async () => (await tableState(server)).phase).toBe('japanese');
  }

  it('wins a seeded game: the Shōhō is sunk', async () => {
    const { seed, commands } = seededGame('won', 'shohoSunk');
    await startSeeded(seed);
    for (const c of commands.slice(0, -1)) await command(server, c as Record<string, unknown>);
    const last = commands[commands.length - 1]!;
    expect((await tableState(server)).outcome).toBeNull();
    if (last.type === 'confirmRoll' && Object.keys(last).length === 1) {
      await page.getByTestId('confirm-roll').click();
    } else {
      await command(server, last as Record<string, unknown>);
    }
    const end = page.getByTestId('end-screen');
    await end.waitFor();
    expect(await end.locator('.end-title').textContent()).toBe('VICTORY');
    expect(await end.textContent()).toContain('The Shōhō was sunk.');
    const final = await tableState(server);
    expect(final.outcome).toMatchObject({ result: 'won', cause: 'shohoSunk' });
    // the Japanese planes shot down and the players' own planes lost, each under its own name
    expect(await end.getByTestId('end-japanese-down').textContent()).toBe(String(final.japaneseDestroyed));
    expect(await end.getByTestId('end-planes-lost').textContent()).toBe(String((final.planes as { destroyed: boolean }[]).filter((p) => p.destroyed).length));
    expect(Number(final.japaneseDestroyed)).toBeGreaterThan(0);
    await shot(page, 'end-screen-won');
  });

  it('loses a seeded game: the Yorktown is sunk', async () => {
    await page.getByTestId('end-new-game').click();
    await page.locator('form.wizard').waitFor();
    const { seed, commands } = seededGame('lost', 'yorktownSunk');
    await startSeeded(seed);
    for (const c of commands) await command(server, c as Record<string, unknown>);
    const end = page.getByTestId('end-screen');
    await end.waitFor();
    expect(await end.locator('.end-title').textContent()).toBe('DEFEAT');
    expect(await end.textContent()).toContain('The Yorktown was sunk.');
    await shot(page, 'end-screen-lost');
    const lostGames = async () => ((await (await fetch(`${server.url}/api/tables/default/stats?day=${localDay(Date.now())}`)).json()) as { results: Record<string, number> }).results.lost ?? 0;
    expect(await lostGames()).toBe(1);

    // the roll that sank her was confirmed by mistake: taken back, the game goes on and leaves the figures
    await end.getByTestId('end-undo').click();
    await end.waitFor({ state: 'detached' });
    expect((await tableState(server)).outcome).toBeNull();
    expect(await lostGames()).toBe(0);
    await command(server, commands[commands.length - 1] as Record<string, unknown>);
    await end.waitFor();
    expect(await end.locator('.end-title').textContent()).toBe('DEFEAT');
    expect(await lostGames()).toBe(1);

    // the end screen is over the pages of play, not over the set-up of the next game, whose PIN hint follows the PIN given
    await page.goto(`${server.url}/?view=wizard&lang=en`);
    await page.locator('form.wizard').waitFor();
    const pinHint = page.locator('form.wizard').getByText('Enter the table PIN to control the game');
    expect(await pinHint.count()).toBe(1);
    await expect.poll(() => pinHint.isVisible()).toBe(false);
    expect(await end.count()).toBe(0);
    await page.goBack();
    await end.waitFor();
  });

  it('loses on time when the stopwatch runs out', async () => {
    await page.getByTestId('end-new-game').click();
    await page.locator('form.wizard').waitFor();
    await startSeeded(5);
    runOutTime(server, clock);
    const end = page.getByTestId('end-screen');
    await end.waitFor();
    expect(await end.textContent()).toContain('Time ran out.');
    // a time-out cannot be undone: the end screen does not offer it
    expect(await end.getByTestId('end-undo').count()).toBe(0);
    // Escape closes it, as its Close button does: the table under it shows
    await page.keyboard.press('Escape');
    await end.waitFor({ state: 'detached' });
    // closed, it stays closed when the page is reloaded
    const seq = String((await (await fetch(`${server.url}/api/tables/default/state`)).json() as { seq: number }).seq);
    await page.reload();
    await expect.poll(() => page.locator('#app').getAttribute('data-seq')).toBe(seq);
    await page.locator('.table-view').waitFor();
    expect(await end.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
