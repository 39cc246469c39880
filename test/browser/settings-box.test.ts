/** The settings page (assumed rule values and the owner's corrections) and the virtual button box. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, HAVE_CHROMIUM, buildWeb, command, launch, shot, startServer, tableState, unlock, watchErrors, type RunningServer } from './harness.ts';
import { listRuleValues } from '../../server/games/yorktown1942/ruleset.ts';

describe.skipIf(!HAVE_CHROMIUM)('settings and button box', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists every assumed rule value with its reason', async () => {
    await page.goto(`${server.url}/?view=settings&lang=en`);
    await unlock(page);
    const assumed = listRuleValues().filter((r) => r.source === 'assumed');
    await expect.poll(() => page.locator('li.rule').count()).toBe(assumed.length);
    const first = page.locator(`li.rule[data-path="${assumed[0]!.path}"]`);
    expect(await first.locator('.rule-why').textContent()).toContain(assumed[0]!.why!.slice(0, 30));
    await page.getByTestId('show-all').check();
    await expect.poll(() => page.locator('li.rule').count()).toBe(listRuleValues().length);
    await page.getByTestId('show-all').uncheck();
    await shot(page, 'settings');
  });

  it('saves a correction used by the next game, and refuses bad values in words', async () => {
    const row = page.locator('li.rule[data-path="skill.max"]');
    await row.locator('input').fill('"lots"');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.rule-msg').textContent()).toContain('skill.max must be a number');
    await row.locator('input').fill('18,');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.rule-msg').textContent()).toContain('Not a valid value');

    await row.locator('input').fill('18');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: { 'skill.max': 18 } } });
    await expect.poll(() => page.locator('.overrides').textContent()).toContain('skill.max');

    await command(server, { type: 'newGame', players: 4, seed: 3 });
    const rules = (await tableState(server)).rules as { skill: { max: number } };
    expect(rules.skill.max).toBe(18);

    await page.locator('li.rule[data-path="skill.max"]').getByRole('button', { name: 'Back to default' }).click();
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: {} } });
  });

  it('presses the virtual button box: confirm draws the card, plane + search chooses the action', async () => {
    await page.getByTestId('nav-box').click();
    expect((await tableState(server)).phase).toBe('japanese');
    await page.getByTestId('box-confirm').click();
    await expect.poll(async () => (await tableState(server)).phase).toBe('planes');
    await page.getByTestId('box-plane1').click();
    await page.getByTestId('box-search').click();
    await expect.poll(async () => ((await tableState(server)).planes as { action: string | null }[])[0]!.action).toBe('search');
    // the box's lights as the service reports them: four planes, spotted, roll
    await expect.poll(() => page.locator('.box-leds .led').count()).toBe(6);
    // the spotted light is the box's red one, and what each light means is said
    expect(await page.locator('.box-leds .led.lit-red').count()).toBe(1);
    expect(await page.getByTestId('led-legend').textContent()).toMatch(/blink = fuel low/);
    await shot(page, 'button-box');
    expect(errors).toEqual([]);
  });
});
