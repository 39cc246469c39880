/**
 * A phone's dice over the camera image: the boxes drawn on the roll's image are no controls (the dice kept
 * from a re-roll are picked with the buttons under it, a finger's size), and on the dice photos page each
 * die's tap target is at least 44 px however small the die is drawn.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PIN, api, command, tableState, unlock, useBrowserTable } from './harness.ts';

/** Width and height of what `selector` finds, rounded. */
function sizes(page: Page, selector: string): Promise<{ w: number; h: number }[]> {
  return page.locator(selector).evaluateAll((els) => els.map((el) => {
    const b = el.getBoundingClientRect();
    return { w: Math.round(b.width), h: Math.round(b.height) };
  }));
}

const atLeast44 = (boxes: { w: number; h: number }[]) => boxes.filter((b) => b.w < 44 || b.h < 44);

describe.skipIf(!HAVE_CHROMIUM)('dice on a phone\'s camera image', () => {
  const tb = useBrowserTable(undefined, { width: 390, height: 844 }, { isMobile: true, hasTouch: true });

  it('draws the roll\'s dice boxes as no controls, and keeps its keep buttons a finger\'s size', async (ctx) => {
    const { page, server } = tb;
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) return ctx.skip('no dice model to read the simulated camera');
    await command(server, { type: 'newGame', players: 1, seed: 11 });
    await command(server, { type: 'drawCard' });
    for (const plane of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane, action: plane === 1 ? 'move' : 'search' });
    await command(server, { type: 'move', plane: 1, to: 10 });
    await command(server, { type: 'lightningAttack', plane: 1 });
    await page.goto(`${server.url}/?view=phone&seat=1&lang=es`);
    await unlock(page);
    await page.getByTestId('throw').click();
    await expect.poll(async () => ((await tableState(server)).roll as { tracker: { readings: number } }).tracker.readings, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.locator('.dice-overlay .die-box').first().waitFor();
    expect(await page.locator('.dice-overlay :is(a, button, input, [tabindex], [role=button], [onclick])').count()).toBe(0);
    const keep = await sizes(page, '.die-keep');
    expect(keep.length).toBeGreaterThan(0);
    expect(atLeast44(keep)).toEqual([]);
    expect(tb.errors).toEqual([]);
  }, 60_000);

  it('gives each die of a dice photo a tap target of 44 px or more', async (ctx) => {
    const { page, server } = tb;
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) return ctx.skip('no dice model to read the simulated camera');
    await page.goto(`${server.url}/?view=samples&lang=es&pin=${PIN}`);
    const thrownAt = Date.now();
    await api(server, 'POST', '/api/tables/default/simulator/throw', { faces: [2, 3, 4, 5] });
    await expect.poll(async () => {
      const { status, data } = await api(server, 'POST', '/api/tables/default/dice-samples/hold');
      return status === 200 && (data.at as number) > thrownAt ? (data.dice as unknown[]).length : 0;
    }, { timeout: 30_000, interval: 300 }).toBe(4);
    await page.getByTestId('take-photo').click();
    await expect.poll(() => page.locator('.sample-die').count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('sample-photo').evaluate((img) => (img as HTMLImageElement).decode());
    expect(atLeast44(await sizes(page, '.sample-face'))).toEqual([]);
    expect(tb.errors).toEqual([]);
  }, 60_000);
});
