/** Demo station (?kiosk=1): the attract game the service plays when idle, and the day's statistics. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PIN, api, buildWeb, command, launch, runOutTime, shot, startServer, tableState, testClock, watchErrors, type RunningServer } from './harness.ts';

const TABLES = {
  tables: [
    { id: 'demo', name: 'Demo station', kiosk: { attractAfterMinutes: 0.02, resetAfterGameSeconds: 2, idleResetMinutes: null } },
    { id: 'quiet', name: 'Quiet station', kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 2, idleResetMinutes: null } },
    { id: 'idle', name: 'Idle station', kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 30, idleResetMinutes: 0.25 } },
  ],
};

describe.skipIf(!HAVE_CHROMIUM)('demo station', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const clock = testClock();

  beforeAll(async () => {
    buildWeb();
    server = await startServer(TABLES, { tickMs: 200, stepMs: 400, attractEndSeconds: 2 }, clock.now);
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

  it("starts a visitor's game from a tap anywhere at once, with the screen's PIN unshown, counts it and resets after it", async () => {
    // "tap to play": not only the banner, any part of the screen; the language a visitor picked meanwhile stays theirs
    await page.getByTestId('lang').selectOption('es');
    await page.getByTestId('day-stats').click();
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/demo/state')).data.attract).toBe(false);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    // the standard game: no set-up form, no PIN to type (the station's own screen holds it)
    await expect.poll(async () => (await tableState(server, 'demo')).setup as unknown).toMatchObject({ players: 4 });
    expect(await page.getByTestId('pin-input').count()).toBe(0);
    // controlling the table without saying so in the header ("Controlling" says nothing to a visitor)
    await expect.poll(() => page.getByTestId('unlock').count()).toBe(0);
    expect(await page.getByTestId('control-state').count()).toBe(0);
    expect(await page.locator('.pin-shown').count()).toBe(0);
    await page.getByTestId('draw-card').click();
    await expect.poll(async () => (await tableState(server, 'demo')).phase).toBe('planes');
    runOutTime(server, clock, 'demo');
    await page.getByTestId('end-screen').waitFor();
    // play again: straight into the next game
    await page.getByTestId('end-new-game').click();
    await expect.poll(async () => (await tableState(server, 'demo')).outcome).toBeNull();
    runOutTime(server, clock, 'demo');
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
    // the owner's pages are not opened on the station's screen, whose tab holds the PIN: its own page instead
    for (const view of ['settings', 'camera', 'samples', 'box', 'table']) {
      await page.goto(`${server.url}/?kiosk=1&table=quiet&lang=en&view=${view}`);
      await page.getByTestId('kiosk-view').waitFor();
      expect(await page.locator('#app').getAttribute('class')).toContain('view-kiosk');
    }
    // nor on an address typed without ?kiosk=1: the station's screen, sent the PIN as its display, goes to its own page
    await page.goto(`${server.url}/?table=quiet&lang=en&view=settings`);
    await expect.poll(() => page.url()).toContain('kiosk=1');
    await page.getByTestId('kiosk-view').waitFor();
    // the owner, giving the PIN, opens it
    await page.goto(`${server.url}/?table=quiet&lang=en&view=settings&pin=${PIN}`);
    await page.locator('#app.view-settings').waitFor();
    await page.evaluate(() => sessionStorage.clear());
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

  it('asks "Still playing?" before clearing a game nobody plays, keeps it at a tap, and greets the next visitors in its own language', async () => {
    await page.goto(`${server.url}/?kiosk=1&table=idle&lang=en`);
    // the set-up form of a station: no seed, no physical deck, and a way back
    await page.getByTestId('play-choose').click();
    await page.getByTestId('start-game').waitFor();
    expect(await page.locator('input[name="seed"]').count()).toBe(0);
    expect(await page.getByTestId('deck-physical').count()).toBe(0);
    await page.getByTestId('wizard-back').click();
    await page.getByTestId('kiosk-play').waitFor();
    // a visitor reads Spanish, turns the sound off, plays, and walks away
    await page.getByTestId('lang').selectOption('es');
    await page.getByTestId('sound').click();
    await expect.poll(() => page.getByTestId('sound').getAttribute('aria-pressed')).toBe('false');
    await page.getByTestId('play-now').click();
    await expect.poll(async () => (await tableState(server, 'idle')).setup as unknown).toMatchObject({ players: 4 });
    // 15 idle seconds: asked halfway, 7.5 s before the game is cleared, the focus on "Keep playing"
    await page.getByTestId('reset-warning').waitFor({ timeout: 15_000 });
    expect(await page.locator('#reset-title').textContent()).toBe('¿Seguís jugando?');
    expect(await page.getByTestId('reset-countdown').textContent()).toMatch(/^Hace rato que nadie juega: esta partida se borrará para los siguientes visitantes en \d s\./);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('still-here');
    // and it stays there through a push that draws the screen again (here an alert of the table's)
    const idleTable = server.service.tables.get('idle')!;
    idleTable.setAlert('dbUnavailable', 'a push while the question is open (test)');
    await page.locator('.alerts li[data-code=dbUnavailable]').waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('still-here');
    idleTable.setAlert('dbUnavailable', null);
    // a tap keeps the game
    await page.getByTestId('reset-warning').click({ position: { x: 20, y: 20 } });
    await page.getByTestId('reset-warning').waitFor({ state: 'detached' });
    expect((await tableState(server, 'idle')).setup).not.toBeNull();
    // left alone again: cleared, and the screen back in the station's language
    await page.getByTestId('reset-warning').waitFor({ timeout: 15_000 });
    await shot(page, 'kiosk-still-playing');
    await expect.poll(async () => (await tableState(server, 'idle')).setup, { timeout: 20_000 }).toBeNull();
    await page.getByTestId('reset-warning').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    // and with its sound on again
    await expect.poll(() => page.getByTestId('sound').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('play-now').textContent()).toBe('Play now');
    // "tap to play" on the empty table too, as its invitation says: a tap on its words starts a game
    await page.locator('.kiosk-play .invite').click();
    // a game's end says when the table clears itself
    await expect.poll(async () => (await tableState(server, 'idle')).setup).not.toBeNull();
    runOutTime(server, clock, 'idle');
    await page.getByTestId('end-screen').waitFor();
    const clears = (await page.getByTestId('end-reset').textContent())!.match(/^The table clears itself for the next visitors in (\d+) s\.$/);
    expect(clears).not.toBeNull();
    expect(Number(clears![1])).toBeGreaterThan(0);
    expect(Number(clears![1])).toBeLessThanOrEqual(30);
    const ended = await api(server, 'GET', '/api/tables/idle/state');
    expect(ended.data.resetAt).toBe((ended.data.state as { outcome: { at: number } }).outcome.at + 30_000);
    expect(errors).toEqual([]);
  });

  it('asks in a dialog of its own, not the browser\'s, before abandoning a game', async () => {
    const native: string[] = [];
    page.on('dialog', (d) => {
      native.push(d.message());
      void d.dismiss();
    });
    // a game of its own: the one the set-up form started above is left with seconds on its stopwatch, the clock moved on to the idle station's deadline
    await command(server, { type: 'newGame', players: 3 }, 'quiet');
    await page.goto(`${server.url}/?kiosk=1&table=quiet&lang=en`);
    expect((await tableState(server, 'quiet')).setup).not.toBeNull();
    await page.getByTestId('reset').click();
    expect(await page.locator('#ask-text').textContent()).toBe('Abandon the game in progress?');
    expect(await page.getByTestId('ask-yes').textContent()).toBe('Abandon game');
    await page.getByTestId('ask-no').click();
    await page.getByTestId('ask').waitFor({ state: 'detached' });
    expect((await tableState(server, 'quiet')).setup).not.toBeNull();
    // a tap beside the question is a no; so is the game moving on while it is open (the card drawn elsewhere)
    await page.getByTestId('reset').click();
    await page.getByTestId('ask').click({ position: { x: 5, y: 5 } });
    await page.getByTestId('ask').waitFor({ state: 'detached' });
    await page.getByTestId('reset').click();
    await page.getByTestId('ask').waitFor();
    const phase = (await tableState(server, 'quiet')).phase;
    await command(server, phase === 'japanese' ? { type: 'drawCard' } : { type: 'endTurn' }, 'quiet');
    await page.getByTestId('ask').waitFor({ state: 'detached' });
    expect((await tableState(server, 'quiet')).setup).not.toBeNull();
    await page.getByTestId('reset').click();
    await page.getByTestId('ask-yes').click();
    await expect.poll(async () => (await tableState(server, 'quiet')).setup).toBeNull();
    expect(native).toEqual([]);
    expect(errors).toEqual([]);
  });
});
