/**
 * A landing roll's panel: before the first throw it has reached nothing yet (not "crash, pilot
 * injured"), and its odds are the chance of each way the landing ends (safe, crash with the pilot
 * unharmed, crash with the pilot injured), best first, adding up to 100 %. Plane 1 lands from the
 * approach area with a rule set where every landing is rolled, on its three skill dice alone. And
 * the flight deck's limit said on the choice of a plane that would find it full.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAVE_CHROMIUM, command, physicalScene, tableState, unlock, useBrowserTable, type RunningServer } from './harness.ts';

/** Every landing rolled, on the plane's skill dice alone; the planes listed land or take off, the others move; the table page opened. */
async function landingScene(server: RunningServer, page: Page, landing: number[]): Promise<void> {
  await physicalScene(server, { ruleOverrides: { 'landing.autoFuel': 15, 'landing.dicePerFuel': 0 } });
  for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: landing.includes(id) ? 'takeoffLanding' : 'move' });
  await page.goto(`${server.url}/?lang=en`);
  await unlock(page);
}

describe.skipIf(!HAVE_CHROMIUM)('a landing roll', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it('says nothing is reached before the throw, and the chance of each end of the landing', async () => {
    const { server, page } = t;
    await landingScene(server, page, [1]);
    // before the players commit, the landing's chance of ending safely
    await expect.poll(() => page.getByTestId('land-1').textContent()).toMatch(/^Land \(\d+% safe\)$/);
    await page.getByTestId('land-1').click();
    await page.getByTestId('roll-panel').waitFor();
    expect(await page.getByTestId('best').textContent()).toBe('nothing yet');
    const rows = page.locator('[data-testid=odds] li');
    await expect.poll(() => rows.locator('.odds-label').allTextContents()).toEqual(['safe landing', 'crash, pilot unharmed', 'crash, pilot injured']);
    const values = (await rows.locator('.odds-value').allTextContents()).map((v) => Number(v.replace('%', '')));
    expect(values.every((v) => v > 0 && v < 100)).toBe(true);
    expect(Math.abs(values.reduce((a, b) => a + b, 0) - 100)).toBeLessThanOrEqual(2);
    // the plane's action is said to be rolling, not done, while its roll is on
    expect(await page.getByTestId('action-1').first().textContent()).toMatch(/ \(rolling\)$/);
    // three dice, none alike: said so, not "1 × 6"
    await command(server, { type: 'dice', faces: [2, 4, 6] });
    await expect.poll(() => page.getByTestId('best').textContent()).toBe('no two dice alike → crash, pilot injured');
    // a reading of too few dice: what to look for, and the manual entry at hand
    await command(server, { type: 'dice', faces: [2, 4] });
    await expect.poll(() => page.getByTestId('flag-dice-count').textContent()).toMatch(/^Expected 3 dice, saw 2\. A die may be hidden, leaning on another or outside the tray/);
    await page.getByTestId('count-manual').click();
    await expect.poll(() => page.locator('details.manual').getAttribute('open')).not.toBeNull();
    expect(t.errors).toEqual([]);
  });

  it('a plane is told when the other planes\' choices already fill the flight deck', async () => {
    const { server, page } = t;
    await physicalScene(server, { ruleOverrides: { 'flightDeck.perTurn': 1 } });
    await page.goto(`${server.url}/?lang=en`);
    // this page gave the PIN in the test before (kept for the session)
    await page.getByTestId('choose-2-takeoffLanding').waitFor();
    expect(await page.getByTestId('futile-2-takeoffLanding').count()).toBe(0);
    await command(server, { type: 'chooseAction', plane: 1, action: 'takeoffLanding' });
    await expect.poll(() => page.getByTestId('futile-2-takeoffLanding').textContent()).toBe('the flight deck is taken this turn');
    // the plane that chose it is not told so
    expect(await page.getByTestId('futile-1-takeoffLanding').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('a roll on a wide table screen', () => {
  const t = useBrowserTable(undefined, { width: 1920, height: 1080 });

  it('shows the roll panel, the board and the stopwatch together on one 1920 × 1080 screen', async () => {
    const { server, page } = t;
    await landingScene(server, page, [1]);
    await page.getByTestId('land-1').click();
    await page.getByTestId('roll-panel').waitFor();
    // the board goes beside the roll (under the planes), not under it out of sight
    const bottoms = await page.evaluate(() => Object.fromEntries(['[data-testid=roll-panel]', '.table-view svg.board', '.stopwatch', '[data-testid=confirm-roll]'].map((s) => {
      const box = document.querySelector(s)?.getBoundingClientRect();
      return [s, box ? { top: box.top, bottom: box.bottom } : null];
    })));
    for (const [selector, box] of Object.entries(bottoms)) {
      expect(box, selector).not.toBeNull();
      expect(box!.top, selector).toBeGreaterThanOrEqual(0);
      expect(box!.bottom, selector).toBeLessThanOrEqual(1080);
    }
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the camera image when a new roll begins', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it('draws the last roll\'s dice, still in the tray, faded and asks for a throw', async (ctx) => {
    const { server, page } = t;
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) {
      ctx.skip('no dice model to read the simulated camera');
      return;
    }
    await landingScene(server, page, [1, 2]);
    const readings = async () => ((await tableState(server)).roll as { tracker: { readings: number } } | null)?.tracker.readings ?? null;
    await page.getByTestId('land-1').click();
    await page.getByTestId('roll-panel').waitFor();
    // a new roll with no dice in the tray yet: nothing to call old
    expect(await page.getByTestId('dice-from-before').count()).toBe(0);
    // plane 1's landing thrown until every die is read (one may land leaning), then confirmed
    for (let tries = 1; (await readings()) === 0; tries++) {
      expect(tries, 'three throws and no full reading').toBeLessThanOrEqual(3);
      await page.getByTestId('throw').click();
      await expect.poll(async () => (await readings()) !== 0 || (await page.locator('.die-box.unreadable:not(.pending)').count()) > 0, { timeout: 30_000 }).toBe(true);
    }
    await page.getByTestId('confirm-roll').click();
    await expect.poll(async () => (await tableState(server)).roll).toBeNull();
    // plane 2 lands: the tray still holds plane 1's dice
    await page.getByTestId('land-2').click();
    await expect.poll(() => page.getByTestId('dice-from-before').textContent()).toBe('the dice in the tray are from before this roll: throw them');
    expect(await page.locator('.die-box.before').count()).toBeGreaterThan(0);
    // thrown, they are this roll's
    await page.getByTestId('throw').click();
    await expect.poll(() => page.getByTestId('dice-from-before').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.locator('.die-box.before').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });
});
