/**
 * The stopwatch counts down to the deadline on the server's clock: the table's clock is moved to
 * a minute before the deadline, and the display turns to its last-minute colour and beeps
 * (WebAudio oscillators are counted in the page).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, buildWeb, command, launch, shot, startServer, tableState, watchErrors, type RunningServer } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('stopwatch', () => {
  let server: RunningServer;
  let browser: Browser;
  let shift = 0;

  beforeAll(async () => {
    buildWeb();
    server = await startServer(undefined, undefined, () => Date.now() + shift);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('follows the server clock, turns red and beeps in the last minute', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await page.addInitScript(() => {
      const w = window as unknown as { oscillators: number };
      w.oscillators = 0;
      const original = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        w.oscillators++;
        return original.call(this);
      };
    });
    await command(server, { type: 'newGame', players: 4, difficulty: 25, seed: 9 });
    await page.goto(`${server.url}/?view=table&lang=en`);
    await expect.poll(() => page.locator('#stopwatch-time').textContent()).toMatch(/^2[45]:\d\d$/);
    expect(await page.locator('.stopwatch').getAttribute('class')).toContain('level-ok');
    await page.mouse.click(5, 5); // a gesture: browsers allow sound only after one

    const deadline = (await tableState(server)).deadline as number;
    shift = deadline - Date.now() - 63_000;
    await command(server, { type: 'drawCard' }); // any change pushes a snapshot with the server's time
    await expect.poll(() => page.locator('#stopwatch-time').textContent()).toMatch(/^1:0\d$/);
    await expect.poll(() => page.locator('.stopwatch').getAttribute('class'), { timeout: 10_000 }).toContain('level-critical');
    await expect.poll(() => page.evaluate(() => (window as unknown as { oscillators: number }).oscillators), { timeout: 10_000 }).toBeGreaterThan(0);
    await shot(page, 'stopwatch-last-minute');
    expect(errors).toEqual([]);
    await page.close();
  });
});
