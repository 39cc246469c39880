/**
 * A game abandoned, then a new one set up from the same screen: the wizard starts from the abandoned
 * game's choices (players, deck, stopwatch), not the standard four-player game.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, answerAsk, command, tableState, unlock, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('a new game after one abandoned', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it("starts the set-up from the abandoned game's choices", async () => {
    const { server, page } = t;
    await command(server, { type: 'newGame', players: 2, deck: 'physical', difficulty: 25, seed: 3 });
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
    // a game just set up: nothing to take back yet, and Undo says so rather than be refused
    await expect.poll(() => page.getByTestId('undo').isDisabled()).toBe(true);
    expect(await page.getByTestId('undo').getAttribute('title')).toBe('Nothing to undo');
    await page.getByTestId('reset').click();
    await answerAsk(page, true);
    await expect.poll(async () => (await tableState(server)).setup).toBeNull();
    await page.getByTestId('nav-wizard').click();
    await expect.poll(() => page.getByTestId('players-2').getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('deck-physical').getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('difficulty-25').getAttribute('aria-checked')).toBe('true');
    expect(t.errors).toEqual([]);
  });
});
