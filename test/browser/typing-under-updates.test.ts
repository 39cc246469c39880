/**
 * A player typing, choosing or pressing on a screen keeps what they typed and where they were while
 * the table changes under them (a state push rebuilds the view): the PIN being typed on a kiosk whose
 * demo game plays on, a list being chosen from or a button being pressed while another player's
 * command arrives.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PIN, command, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('typing while the table changes', () => {
  const table = useBrowserTable({ tables: [{ id: 'default', camera: { source: 'none' } }] });
  const page = () => table.page;

  /** A command from elsewhere (another player, the box), seen arriving on the page. */
  async function changeElsewhere(cmd: Record<string, unknown>): Promise<void> {
    const seq = await page().locator('#app').getAttribute('data-seq');
    await command(table.server, cmd);
    await expect.poll(() => page().locator('#app').getAttribute('data-seq')).not.toBe(seq);
  }

  it('says a PIN is wrong and empties the field for another try', async () => {
    await page().goto(`${table.server.url}/?lang=en`);
    await page().getByTestId('unlock').click();
    const input = page().getByTestId('pin-input');
    await input.fill('9999');
    await page().keyboard.press('Enter');
    await expect.poll(() => page().locator('.pin-box [role=alert]').textContent()).toMatch(/wrong pin/i);
    // not the wrong one again: empty, or the PIN this screen shows
    expect(['', PIN]).toContain(await input.inputValue());
    await page().locator('.pin-box').getByRole('button', { name: 'Close' }).click();
    expect(await page().getByTestId('pin-input').count()).toBe(0);
  });

  it('keeps the digits of a PIN typed while a command arrives', async () => {
    await page().getByTestId('unlock').click();
    const input = page().getByTestId('pin-input');
    await input.waitFor();
    await input.fill(''); // this screen shows the PIN, so the field starts with it
    await page().keyboard.type(PIN.slice(0, 2));
    await changeElsewhere({ type: 'newGame', players: 2, deck: 'physical', seed: 1 });
    await page().keyboard.type(PIN.slice(2));
    expect(await page().getByTestId('pin-input').inputValue()).toBe(PIN);
    await page().keyboard.press('Enter');
    await page().getByTestId('control-state').waitFor();
  });

  /** Focuses the list, lets a command arrive, and says whether the list is the same element and still focused. */
  async function keptThrough(selector: string, cmd: Record<string, unknown>): Promise<boolean> {
    const list = page().locator(selector).first();
    await list.focus();
    await list.evaluate((el) => ((el as unknown as { mark: boolean }).mark = true));
    await changeElsewhere(cmd);
    return page().evaluate(() => (document.activeElement as unknown as { mark?: boolean } | null)?.mark === true);
  }

  it('leaves a list the player is in alone until they choose from it', async () => {
    // the language list in the header, while the game goes on elsewhere
    expect(await keptThrough('[data-testid=lang]', { type: 'cardDrawn', card: { islands: [8], plane: 'kate' } })).toBe(true);
    await page().getByTestId('lang').selectOption('es');
    // chosen: the page is rebuilt, in Spanish
    await expect.poll(() => page().getByTestId('nav-table').textContent()).toBe('Mesa');
    expect(await page().locator('html').getAttribute('lang')).toBe('es');
    await page().getByTestId('lang').selectOption('en');
  });

  it('leaves the card list the player is in alone while the last set-up card is entered elsewhere, then shows the table as it is', async () => {
    expect(await page().getByTestId('next-step').textContent()).toMatch(/1 to go/);
    expect(await keptThrough('[data-testid=card-pick]', { type: 'cardDrawn', card: { islands: [9], plane: 'jake' } })).toBe(true);
    expect(await page().getByTestId('next-step').textContent()).toMatch(/1 to go/); // the view waits for the player
    await page().getByTestId('card-pick').selectOption({ index: 1 });
    await expect.poll(() => page().getByTestId('next-step').textContent()).not.toMatch(/1 to go/);
  });

  it('gives a keyboard user\'s focus back to the same button after a command rebuilds the view', async () => {
    await page().getByTestId('undo').focus();
    await changeElsewhere({ type: 'cardDrawn', card: { islands: [1], plane: 'jake' } });
    expect(await page().evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('undo');
  });

  it('takes a press begun before a command arrived and ended after it as the click it is', async () => {
    await page().getByTestId('setup-menu-open').click();
    await page().getByTestId('nav-settings').scrollIntoViewIfNeeded();
    const settings = (await page().getByTestId('nav-settings').boundingBox())!;
    await page().mouse.move(settings.x + settings.width / 2, settings.y + settings.height / 2);
    await page().mouse.down();
    await changeElsewhere({ type: 'chooseAction', plane: 1, action: 'search' });
    await page().mouse.up();
    await expect.poll(() => new URL(page().url()).searchParams.get('view')).toBe('settings');
    expect(table.errors).toEqual([]);
  });
});
