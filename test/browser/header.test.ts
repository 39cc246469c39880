/**
 * The header: the pages of play side by side, the set-up pages folded in one menu that names the page
 * shown, so that the header keeps to one line on a 1 280 px screen; the menu closes when a page is
 * picked, at Escape and at a press elsewhere. Back and Forward move between the pages opened.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PIN, command, shot, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('header', () => {
  const table = useBrowserTable(undefined, { width: 1280, height: 800 });
  const page = () => table.page;
  /** The header is one line: no taller than its title and a control's padding (read in the page: a render may replace it meanwhile). */
  const oneLine = () => page().evaluate(() => {
    const header = document.querySelector('header.chrome')!.getBoundingClientRect();
    const title = document.querySelector('.app-title')!.getBoundingClientRect();
    return header.height < title.height + 40;
  });
  const menuOpen = () => page().getByTestId('setup-menu').evaluate((d) => (d as HTMLDetailsElement).open);

  it('keeps to one line at 1280 px, the set-up pages in a menu that names the one shown', async () => {
    await page().goto(`${table.server.url}/?lang=en&pin=${PIN}`);
    await page().getByTestId('control-state').waitFor();
    // no game yet: the table page starts one
    expect(await page().locator('.no-game p').textContent()).toBe('No game is running.');
    expect(await page().getByTestId('table-new-game').textContent()).toBe('New game');
    // the set-up form's Back returns to the page it was opened from, as the browser's Back would (Forward reopens it)
    await page().getByTestId('table-new-game').click();
    await page().getByTestId('wizard-back').click();
    await expect.poll(() => page().getByTestId('nav-table').getAttribute('aria-current')).toBe('page');
    await page().goForward();
    await expect.poll(() => page().getByTestId('nav-wizard').getAttribute('aria-current')).toBe('page');
    await page().goBack();
    await expect.poll(() => page().getByTestId('nav-table').getAttribute('aria-current')).toBe('page');
    expect(await page().locator('nav .nav-btn').allTextContents()).toEqual(['Table', 'Dice', 'Phone', 'New game']);
    await expect.poll(oneLine).toBe(true);
    expect(await page().getByTestId('setup-menu-open').textContent()).toBe('Set-up ▾');
    expect(await menuOpen()).toBe(false);

    await page().getByTestId('setup-menu-open').click();
    expect(await page().locator('.setup-menu-list .nav-btn').allTextContents()).toEqual(['Settings', 'Camera', 'Dice photos', 'Button box', 'Demo station', 'Statistics']);
    await shot(page(), 'header-setup-menu');
    await page().getByTestId('nav-camera').click();
    await expect.poll(() => new URL(page().url()).searchParams.get('view')).toBe('camera');
    expect(await menuOpen()).toBe(false);
    expect(await page().getByTestId('setup-menu-open').textContent()).toBe('Camera ▾');
    expect(await page().getByTestId('setup-menu-open').getAttribute('title')).toBe('Set-up: Camera');
    expect(await page().getByTestId('nav-camera').getAttribute('aria-current')).toBe('page');

    // still one line with the longest page name in the menu's place
    await page().getByTestId('setup-menu-open').click();
    await page().getByTestId('nav-samples').click();
    await expect.poll(() => page().getByTestId('setup-menu-open').textContent()).toBe('Dice photos ▾');
    await expect.poll(oneLine).toBe(true);
    await page().goBack();
    await expect.poll(() => page().getByTestId('setup-menu-open').textContent()).toBe('Camera ▾');

    // Escape closes it, and so does a press elsewhere; a push from the service leaves it as it is
    await page().getByTestId('setup-menu-open').click();
    expect(await menuOpen()).toBe(true);
    await page().keyboard.press('Escape');
    await expect.poll(menuOpen).toBe(false);
    await page().getByTestId('setup-menu-open').click();
    await page().mouse.click(640, 600);
    await expect.poll(menuOpen).toBe(false);

    // Back returns to the table page, Forward to the camera page
    await page().goBack();
    await expect.poll(() => page().getByTestId('nav-table').getAttribute('aria-current')).toBe('page');
    expect(await page().getByTestId('setup-menu-open').textContent()).toBe('Set-up ▾');
    await page().goForward();
    await expect.poll(() => page().getByTestId('setup-menu-open').textContent()).toBe('Camera ▾');
    expect(table.errors).toEqual([]);
  });

  it('keeps the menu open through a push from the service', async () => {
    await page().getByTestId('setup-menu-open').click();
    const seq = await page().locator('#app').getAttribute('data-seq');
    await command(table.server, { type: 'newGame', players: 2, seed: 5 });
    await expect.poll(() => page().locator('#app').getAttribute('data-seq')).not.toBe(seq);
    expect(await menuOpen()).toBe(true);
    await page().keyboard.press('Escape');
    await expect.poll(menuOpen).toBe(false);
  });
});
