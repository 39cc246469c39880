/** What the button box did, on the table screen: a refused press's reason as a toast, in the page's language, once. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, HAVE_CHROMIUM, buildWeb, command, launch, shot, startServer, watchErrors, type RunningServer } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('the box on the table screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const snapshot = async () => (await api(server, 'GET', '/api/tables/default/state')).data as { seq: number; box: unknown };
  const press = (button: string, kind: 'short' | 'long' = 'short') => api(server, 'POST', '/api/tables/default/box/press', { button, press: kind });
  const boxToasts = () => page.locator('.toast', { hasText: /Button box|Caja de botones/ });
  const toastText = () => boxToasts().textContent({ timeout: 5000 }).catch(() => null);
  /** the page shows journal position `seq` (a push arrived) */
  const shows = (seq: number) => page.waitForFunction((s) => document.getElementById('app')?.dataset.seq === String(s), seq);

  it('shows why a press was refused for a few seconds, and not again after a reload or another push', async () => {
    await page.goto(`${server.url}/?lang=en`);
    await shows(0);
    expect((await press('confirm')).status).toBe(200);
    await expect.poll(toastText, { timeout: 10_000 }).toBe('Button box: no game is running: hold Confirm to start one, or set one up on the dashboard');
    expect(await page.locator('.toast.toast-error').count()).toBe(1);
    await shot(page, 'box-refused-toast');

    await page.reload();
    await shows(0);
    const seq = (await command(server, { type: 'newGame', seed: 5, players: 2, deck: 'digital' })).seq as number;
    await shows(seq);
    expect(await boxToasts().count()).toBe(0);
  });

  it('says it in Spanish on a Spanish page, and the service knows the plane the box selected', async () => {
    await page.goto(`${server.url}/?lang=es`);
    await shows((await snapshot()).seq);
    await press('attack'); // the game waits for its Japanese card
    await expect.poll(toastText, { timeout: 10_000 }).toBe('Caja de botones: las acciones se eligen en la fase de los aviones');
    await press('plane2');
    expect((await snapshot()).box).toMatchObject({ selected: 2, note: { key: 'selected', refused: false } });
    await expect.poll(toastText, { timeout: 10_000 }).toBe('Caja de botones: avión 2 elegido');
    // and its card is marked so on the table screen; pressed again, deselected
    await expect.poll(() => page.locator('article.plane-card[data-plane="2"]').getAttribute('data-box-selected')).toBe('true');
    expect(await page.getByTestId('box-selected-2').count()).toBe(1);
    expect(await page.locator('article.plane-card.box-selected').count()).toBe(1);
    await press('plane2');
    await expect.poll(() => page.locator('article.plane-card.box-selected').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
