/** The settings page (assumed rule values and the owner's corrections) and the virtual button box. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, HAVE_CHROMIUM, buildWeb, command, launch, leavingIsHeld, shot, startServer, tableState, unlock, watchErrors, type RunningServer } from './harness.ts';
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
    // a number in a number field: left empty, or not whole, it is refused in words
    expect(await row.locator('input').getAttribute('type')).toBe('number');
    await row.locator('input').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.rule-msg').textContent()).toBe('skill.max: write a number.');
    await row.locator('input').fill('18.5');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.rule-msg').textContent()).toContain('skill.max must be a whole number');

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

  /** Saves a row and waits until the page shows the service's answer (the settings are drawn again then). */
  async function saveRow(row: import('playwright-core').Locator): Promise<void> {
    const before = Number(await page.locator('section.settings').getAttribute('data-saves'));
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => Number(await page.locator('section.settings').getAttribute('data-saves'))).toBe(before + 1);
  }

  it('edits a list of steps as a table and a yes/no value as a choice; a value that is not JSON is refused in words', async () => {
    const tiers = page.locator('li.rule[data-path="search.tiers"]');
    const defaults = listRuleValues().find((r) => r.path === 'search.tiers')!.value as { equal: number }[];
    expect(await tiers.locator('tbody tr').count()).toBe(defaults.length);
    // one more result asking for more equal dice than the last
    await tiers.getByTestId('add-row-search.tiers').click();
    expect(await tiers.locator('tbody tr').count()).toBe(defaults.length + 1);
    const last = tiers.locator('tbody tr').last();
    const fields = last.locator('input');
    const names = await last.locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name));
    const equalAt = names.indexOf('search.tiers.equal');
    expect(equalAt).toBeGreaterThanOrEqual(0);
    await fields.nth(equalAt).fill(String(defaults[defaults.length - 1]!.equal + 1));
    await saveRow(tiers);
    await expect.poll(async () => ((await api(server, 'GET', '/api/tables/default/settings')).data as { settings: { ruleOverrides: Record<string, { equal: number }[]> } }).settings.ruleOverrides['search.tiers']?.length).toBe(defaults.length + 1);
    // a row taken out again gives the default back: no correction left
    await page.locator('li.rule[data-path="search.tiers"] tbody tr').last().getByRole('button', { name: 'Remove this row' }).click();
    await saveRow(page.locator('li.rule[data-path="search.tiers"]'));
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: {} } });

    const yesNo = page.locator('li.rule[data-path="flightDeck.emergencyLandingCounts"]');
    const before = listRuleValues().find((r) => r.path === 'flightDeck.emergencyLandingCounts')!.value as boolean;
    await yesNo.locator('select').selectOption(before ? 'false' : 'true');
    await saveRow(yesNo);
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: { 'flightDeck.emergencyLandingCounts': !before } } });
    const saves = Number(await page.locator('section.settings').getAttribute('data-saves'));
    await page.locator('li.rule[data-path="flightDeck.emergencyLandingCounts"]').getByRole('button', { name: 'Back to default' }).click();
    await expect.poll(async () => Number(await page.locator('section.settings').getAttribute('data-saves'))).toBe(saves + 1);
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: {} } });

    // values of other shapes are written as JSON
    const substitution = page.locator('li.rule[data-path="japanese.substitution"]');
    await substitution.locator('input, textarea').first().fill('{"jake": ["kate"],');
    await substitution.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => substitution.locator('.rule-msg').textContent()).toContain('Not a valid value');
  });

  it('keeps a value typed and not saved while another row is saved, and asks before the tab is closed', async () => {
    // the value refused above is still as typed: cancelled, the row shows the value saved again
    const substitution = page.locator('li.rule[data-path="japanese.substitution"]');
    expect(await substitution.locator('input, textarea').first().inputValue()).toBe('{"jake": ["kate"],');
    expect(await leavingIsHeld(page)).toBe(true);
    await substitution.getByRole('button', { name: 'Cancel changes' }).click();
    await expect.poll(() => page.locator('li.rule[data-path="japanese.substitution"] input, li.rule[data-path="japanese.substitution"] textarea').first().inputValue()).not.toBe('{"jake": ["kate"],');
    expect(await page.locator('li.rule[data-path="japanese.substitution"] .rule-msg').count()).toBe(0);
    expect(await leavingIsHeld(page)).toBe(false);
    const skill = page.locator('li.rule[data-path="skill.max"]');
    expect(await skill.getByRole('button', { name: 'Cancel changes' }).isVisible()).toBe(false);
    await skill.locator('input').fill('17');
    expect(await skill.getByRole('button', { name: 'Cancel changes' }).isVisible()).toBe(true);
    expect(await leavingIsHeld(page)).toBe(true);
    const yesNo = page.locator('li.rule[data-path="flightDeck.emergencyLandingCounts"]');
    const before = listRuleValues().find((r) => r.path === 'flightDeck.emergencyLandingCounts')!.value as boolean;
    await yesNo.locator('select').selectOption(before ? 'false' : 'true');
    await saveRow(yesNo);
    // the page was drawn again: the value typed is still there, and saving it keeps the other row's
    expect(await page.locator('li.rule[data-path="skill.max"] input').inputValue()).toBe('17');
    await saveRow(page.locator('li.rule[data-path="skill.max"]'));
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: { 'skill.max': 17, 'flightDeck.emergencyLandingCounts': !before } } });
    expect(await leavingIsHeld(page)).toBe(false);
    for (const path of ['skill.max', 'flightDeck.emergencyLandingCounts']) {
      const saves = Number(await page.locator('section.settings').getAttribute('data-saves'));
      await page.locator(`li.rule[data-path="${path}"]`).getByRole('button', { name: 'Back to default' }).click();
      await expect.poll(async () => Number(await page.locator('section.settings').getAttribute('data-saves'))).toBe(saves + 1);
    }
    await expect.poll(async () => (await api(server, 'GET', '/api/tables/default/settings')).data).toMatchObject({ settings: { ruleOverrides: {} } });
    expect(errors).toEqual([]);
  });

  it('presses the virtual button box: confirm draws the card, plane + move chooses the action', async () => {
    await page.getByTestId('setup-menu-open').click();
    await page.getByTestId('nav-box').click();
    expect((await tableState(server)).phase).toBe('japanese');
    await page.getByTestId('box-confirm').click();
    await expect.poll(async () => (await tableState(server)).phase).toBe('planes');
    await page.getByTestId('box-plane1').click();
    // plane 1 is in the approach area: a search there is refused (not an orange island), a move chosen
    await page.getByTestId('box-move').click();
    await expect.poll(async () => ((await tableState(server)).planes as { action: string | null }[])[0]!.action).toBe('move');
    // the box's lights as the service reports them: four planes, spotted, roll
    await expect.poll(() => page.locator('.box-leds .led').count()).toBe(6);
    // the plane lights are the box's yellow ones, the spotted light its red one (drawn red when it blinks too), and what each light means is said
    expect(await page.locator('.box-leds .led.lit-yellow').count()).toBe(4);
    expect(await page.locator('.box-leds .led').nth(4).getAttribute('class')).toMatch(/\blit-red\b/);
    const lamp = page.locator('.box-leds .led').first();
    await expect.poll(() => lamp.locator('.led-mode').getAttribute('data-mode')).toBe('on');
    expect(await lamp.locator('.lamp').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(253, 216, 53)');
    expect(await page.getByTestId('led-legend').textContent()).toMatch(/blink = fuel low.*blinking = Japanese planes are about to spot it.*off while the dice move/);
    // each light's state in words, not the protocol's names
    const modes = await page.locator('.box-leds .led-mode').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.mode, e.textContent]));
    const words: Record<string, string> = { off: 'off', on: 'on', blink: 'blinking', pulse: 'pulsing', green: 'green', red: 'red', greenBlink: 'blinking green', redBlink: 'blinking red' };
    for (const [mode, text] of modes) expect(text).toBe(words[mode!]);
    await shot(page, 'button-box');
    expect(errors).toEqual([]);
  });
});
