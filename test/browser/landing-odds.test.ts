/**
 * A landing roll's panel: before the first throw it has reached nothing yet (not "crash, pilot
 * injured"), and its odds are the chance of each way the landing ends (safe, crash with the pilot
 * unharmed, crash with the pilot injured), best first, adding up to 100 %. Plane 1 lands from the
 * approach area with a rule set where every landing is rolled, on its three skill dice alone. And
 * the flight deck's limit said on the choice of a plane that would find it full.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, command, physicalScene, unlock, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('a landing roll', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it('says nothing is reached before the throw, and the chance of each end of the landing', async () => {
    const { server, page } = t;
    await physicalScene(server, { ruleOverrides: { 'landing.autoFuel': 15, 'landing.dicePerFuel': 0 } });
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: id === 1 ? 'takeoffLanding' : 'move' });
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
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
