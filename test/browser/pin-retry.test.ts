/**
 * An action refused for want of the PIN is done once the PIN is given, but not when the table has
 * moved on meanwhile: a game set up on this screen must not replace one someone started since.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PIN, answerAsk, command, tableState, useBrowserTable } from './harness.ts';

type State = { setup: { players: number } | null; planes: { id: number; action: string | null }[] };

describe.skipIf(!HAVE_CHROMIUM)('an action waiting for the PIN', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });
  const state = async () => (await tableState(t.server)) as unknown as State;

  it('is not done once the PIN is given if the table moved on meanwhile, and is done if it did not', async () => {
    const { server, page } = t;
    await page.goto(`${server.url}/?view=wizard&lang=en`);
    await page.getByTestId('players-2').click();
    await page.getByTestId('start-game').click();
    await page.getByTestId('pin-input').waitFor();
    // someone starts a game and chooses an action while this screen is asked for the PIN
    await command(server, { type: 'newGame', players: 3, seed: 3 });
    await command(server, { type: 'drawCard' });
    await command(server, { type: 'chooseAction', plane: 1, action: 'move' });
    await page.getByTestId('pin-input').fill(PIN);
    await page.getByTestId('pin-submit').click();
    await page.getByTestId('control-state').waitFor();
    await page.waitForTimeout(500);
    expect((await state()).setup).toMatchObject({ players: 3 });
    expect((await state()).planes[0]!.action).toBe('move');

    // nothing happened meanwhile: the game asked for starts once the PIN is given
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${server.url}/?lang=en`);
    await page.getByTestId('unlock').waitFor();
    expect(await page.getByTestId('undo').count()).toBe(0); // the controls need the PIN
    await page.goto(`${server.url}/?view=wizard&lang=en`);
    await page.getByTestId('players-2').click();
    await page.getByTestId('start-game').click();
    await answerAsk(page, true); // a game is in progress: replacing it is confirmed
    await page.getByTestId('pin-input').fill(PIN);
    await page.getByTestId('pin-submit').click();
    await expect.poll(async () => (await state()).setup).toMatchObject({ players: 2 });
    expect(t.errors).toEqual([]);
  });

  it('says a wrong PIN in the page\'s language', async () => {
    const { server, page } = t;
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${server.url}/?lang=es`);
    await page.getByTestId('unlock').click();
    await page.getByTestId('pin-input').fill('0000') // PIN is 4321;
    await page.getByTestId('pin-submit').click();
    await expect.poll(() => page.locator('.form-error').textContent()).toBe('PIN incorrecto.');
  });
});
