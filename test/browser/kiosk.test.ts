/** Demo station (?kiosk=1): the attract game the service plays when idle, and the day's statistics. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, buildWeb, command, launch, shot, startServer, tableState, watchErrors, type RunningServer } from './harness.ts';

const TABLES = {
  tables: [
    { id: 'demo', name: 'Demo station', kiosk: { attractAfterMinutes: 0.02, resetAfterGameSeconds: 2, idleResetMinutes: null } },
    { id: 'quiet', name: 'Quiet station', kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 2, idleResetMinutes: null } },
  ],
};

describe.skipIf(!HAVE_CHROMIUM)('demo station', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    buildWeb();
    server = await startServer(TABLES, { tickMs: 200, stepMs: 400, attractEndSeconds: 2 });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the attract game the table plays by itself when idle', async () => {
    await page.goto(`${server.url}/?kiosk=1&table=demo&lang=en`);
    await page.getByTestId('attract').waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await tableState(server, 'demo')).setup).not.toBeNull();
    expect(await page.locator('nav').count()).toBe(0); // kiosk layout: no navigation
    await page.waitForTimeout(1500);
    await shot(page, 'kiosk-attract');
  });

  it("starts a visitor's game from the banner at once, with the screen's PIN unshown, counts it and resets after it", async () => {
    await page.getByTestId('attract').click();
    // the standard game: no set-up form, no PIN to type (the station's own screen holds it)
    await expect.poll(async () => (await tableState(server, 'demo')).setup as unknown).toMatchObject({ players: 4 });
    expect(await page.getByTestId('pin-input').count()).toBe(0);
    await page.getByTestId('control-state').waitFor();
    expect(await page.locator('.pin-shown').count()).toBe(0);
    await page.getByTestId('draw-card').click();
    await expect.poll(async () => (await tableState(server, 'demo')).phase).toBe('planes');
    await command(server, { type: 'timeUp' }, 'demo');
    await page.getByTestId('end-screen').waitFor();
    // play again: straight into the next game
    await page.getByTestId('end-new-game').click();
    await expect.poll(async () => (await tableState(server, 'demo')).outcome).toBeNull();
    await command(server, { type: 'timeUp' }, 'demo');
    await page.getByTestId('end-screen').waitFor();
    // the station resets itself a little after the end (resetAfterGameSeconds): the end screen goes
    await page.getByTestId('end-screen').waitFor({ state: 'detached', timeout: 20_000 });
    expect((await tableState(server, 'demo')).outcome).toBeNull();
    await page.goto(`${server.url}/?kiosk=1&table=demo&lang=en`);
    await expect.poll(() => page.getByTestId('stats-games').textContent(), { timeout: 20_000 }).toBe('2');
    expect(await page.getByTestId('defeats-time').textContent()).toBe('Time ran out: 2');
    await shot(page, 'kiosk-stats');
    expect(errors).toEqual([]);
  });

  it('offers Play on an empty table, and the set-up form for who wants to choose', async () => {
    await page.goto(`${server.url}/?kiosk=1&table=quiet&lang=en`);
    await page.getByTestId('kiosk-play').waitFor();
    expect(await page.locator('.no-game').count()).toBe(0);
    await shot(page, 'kiosk-play');
    await page.getByTestId('play-choose').click();
    await page.getByTestId('players-3').click();
    await page.getByTestId('start-game').click();
    await expect.poll(async () => (await tableState(server, 'quiet')).setup as unknown).toMatchObject({ players: 3 });
    await page.locator('.kiosk-view').waitFor();
    expect(await page.getByTestId('kiosk-play').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
