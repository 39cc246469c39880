/**
 * A phone's screen: the game at a glance (hits, search, CAP, the danger to the Yorktown), the end of a
 * game shown whole (its Close within reach), the physical deck's cards entered there. The header keeps to two lines on a 360 px screen, in either language, before and after the
 * PIN: the brand and the player's pages, then the controls (the unlock button's short name). The
 * phone is a player's, away from the table-side screen: it is not shown the PIN.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PIN, command, runOutTime, shot, tableState, testClock, useBrowserTable, watchErrors } from './harness.ts';

const tables = { tables: [{ id: 'default', name: 'Table 1', camera: 'synthetic', serial: 'virtual', showPinOnLocalDisplay: false }] };

describe.skipIf(!HAVE_CHROMIUM)('phone screen', () => {
  const clock = testClock();
  const table = useBrowserTable(tables, { width: 360, height: 640 }, {}, undefined, clock.now);
  const page = () => table.page;
  /** The header's lines: its parts' middles, those within half a button of each other counted as one. */
  const headerLines = (on: Page) => on.evaluate(() => {
    const parts = document.querySelectorAll<HTMLElement>('header.chrome > .brand, header.chrome > nav, header.chrome .tools > *');
    const middles = Array.from(parts).filter((el) => el.offsetParent !== null).map((el) => {
      const box = el.getBoundingClientRect();
      return box.top + box.height / 2;
    }).sort((a, b) => a - b);
    return middles.filter((y, i) => i === 0 || y - middles[i - 1]! > 22).length;
  });

  for (const lang of ['en', 'es']) {
    it(`keeps to two lines at 360 px (${lang})`, async () => {
      // a phone of its own: the PIN given on one is kept by that one
      const phone = await page().context().browser()!.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
      const errors = watchErrors(phone);
      await phone.goto(`${table.server.url}/?view=phone&seat=1&lang=${lang}`);
      await phone.getByTestId('unlock').waitFor();
      expect(await phone.locator('.pin-shown').count()).toBe(0);
      expect(await phone.getByTestId('unlock').innerText()).toBe(lang === 'en' ? 'Unlock' : 'Desbloquear');
      expect(await headerLines(phone)).toBe(2);
      await shot(phone, `phone-header-${lang}`);
      await phone.getByTestId('unlock').click();
      await phone.getByTestId('pin-input').fill(PIN);
      await phone.getByTestId('pin-submit').click();
      await phone.getByTestId('control-state').waitFor();
      // the PIN shown to whoever controls the table, to give to the others, and a tick for "Controlling"
      expect(await phone.locator('.pin-shown').innerText()).toBe(`PIN ${PIN}`);
      expect(await phone.getByTestId('control-state').locator('.wide-only').isVisible()).toBe(false);
      expect(await phone.getByTestId('control-state').innerText()).toMatch(/^✓/);
      expect(await headerLines(phone)).toBe(2);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      expect(errors).toEqual([]);
      await phone.close();
    });
  }

  it('shows the end of a game whole on a 360×640 phone: the verdict at the top, its buttons within reach; the next set-up starts from its choices', async () => {
    await command(table.server, { type: 'newGame', players: 2, seed: 5 });
    runOutTime(table.server, clock);
    const phone = await page().context().browser()!.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const errors = watchErrors(phone);
    await phone.goto(`${table.server.url}/?view=phone&seat=1&lang=es&pin=${PIN}`);
    const end = phone.getByTestId('end-screen');
    await end.waitFor();
    await shot(phone, 'phone-end-screen');
    const title = await end.locator('.end-title').boundingBox();
    expect(title!.y).toBeGreaterThanOrEqual(0);
    // every button of the end screen in view, or brought into it by scrolling the overlay
    for (const button of await end.locator('button').all()) {
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(640);
    }
    // its New game opens the next game's set-up from this one's choices: the same two players
    await end.getByTestId('end-new-game').click();
    await end.waitFor({ state: 'detached' });
    await expect.poll(() => phone.getByTestId('players-2').getAttribute('aria-checked')).toBe('true');
    expect(errors).toEqual([]);
    await phone.close();
  });

  it('keeps the game at a glance on a phone: hits, search and CAP, and the danger to the Yorktown as it comes', async () => {
    await command(table.server, { type: 'newGame', players: 2, deck: 'physical', seed: 3 });
    const st = (await tableState(table.server)) as unknown as { rules: { board: { islands: { id: number; colour: string }[]; lines: [number, number][] } } };
    // a chain orange - green - red along white lines: the Yorktown is spotted at the turn's card
    const { islands, lines } = st.rules.board;
    const joined = (a: number, b: number) => lines.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
    const of = (colour: string) => islands.filter((i) => i.colour === colour).map((i) => i.id);
    const chain = of('orange').flatMap((o) => of('green').filter((g) => joined(o, g)).flatMap((g) => of('red').filter((r) => joined(g, r)).map((r) => [o, g, r])))[0]!;
    await command(table.server, { type: 'cardDrawn', card: { islands: [chain[0]], plane: 'jake', directHit: true } });
    const phone = await page().context().browser()!.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const errors = watchErrors(phone);
    await phone.goto(`${table.server.url}/?view=phone&seat=1&lang=en`);
    const glance = phone.getByTestId('phone-glance');
    await expect.poll(() => glance.locator('.glance-chip').allTextContents()).toEqual(['Yorktown 0/3', 'Shōhō 0/3', 'Search 0', 'CAP 0']);
    expect(await phone.getByTestId('glance-danger').count()).toBe(0);
    // a set-up card only places its planes: its Direct Hit is not said to miss
    expect(await phone.getByTestId('phone-card').textContent()).toBe(`Japanese card: ${chain[0]} · Jake · DIRECT HIT!`);
    await command(table.server, { type: 'cardDrawn', card: { islands: [chain[1], chain[2]], plane: 'zeke' } });
    await expect.poll(() => phone.getByTestId('glance-danger').textContent()).toBe('Japanese chain complete: the Yorktown will be spotted');
    await command(table.server, { type: 'cardDrawn', card: { islands: [chain[0]], plane: 'kate' } });
    await expect.poll(() => phone.getByTestId('glance-danger').textContent()).toBe('The Japanese attack the Yorktown: roll their dice');
    expect(await phone.getByTestId('direct-hit-missed').count()).toBe(0);
    expect(await phone.getByTestId('glance-danger').getAttribute('class')).toContain(' on');
    // in view at the top of the phone, under its stopwatch
    const box = (await glance.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(640);
    await shot(phone, 'phone-glance-attack');
    // the last events, four of them, and the longer list on demand (the other phones' moves scroll by fast)
    const history = phone.getByTestId('history');
    expect(await history.locator('li').count()).toBe(4);
    await history.getByTestId('history-longer').click();
    await expect.poll(() => history.locator('li').count()).toBeGreaterThan(4);
    expect(await history.getByTestId('history-longer').textContent()).toBe('Show fewer');
    await history.getByTestId('history-longer').click();
    await expect.poll(() => history.locator('li').count()).toBe(4);
    expect(errors).toEqual([]);
    await phone.close();
  });

  it('enters the card drawn from the players\' own deck on a phone (no table screen needed)', async () => {
    await command(table.server, { type: 'newGame', players: 2, deck: 'physical', seed: 3 });
    const phone = await page().context().browser()!.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const errors = watchErrors(phone);
    await phone.goto(`${table.server.url}/?view=phone&seat=2&lang=en&pin=${PIN}`);
    const entry = phone.getByTestId('phone-card-entry');
    await entry.waitFor();
    const id = await entry.getByTestId('card-pick').locator('option:not([value=""])').first().getAttribute('value');
    await entry.getByTestId('card-pick').selectOption(id!);
    await entry.getByTestId('card-drawn').click();
    await expect.poll(async () => ((await tableState(table.server)) as { deck: { discard: string[] } }).deck.discard).toEqual([id]);
    // a card the list does not have, by what it shows
    await entry.locator('.other-card summary').click();
    await entry.locator('select[name=card-island-a]').selectOption('4');
    await entry.getByTestId('other-card').click();
    await expect.poll(async () => ((await tableState(table.server)) as { lastCard: { islands: number[] } }).lastCard.islands).toEqual([4]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(phone, 'phone-card-entry');
    expect(errors).toEqual([]);
    await phone.close();
  });

  it('says a Direct Hit card drawn while the Yorktown is not spotted does nothing', async () => {
    await command(table.server, { type: 'newGame', players: 2, deck: 'physical', seed: 3 });
    // set-up cards far apart: no chain
    await command(table.server, { type: 'cardDrawn', card: { islands: [1], plane: 'jake' } });
    await command(table.server, { type: 'cardDrawn', card: { islands: [10], plane: 'jake' } });
    await command(table.server, { type: 'cardDrawn', card: { islands: [2], plane: 'kate', directHit: true } });
    expect(((await tableState(table.server)) as { spotted: boolean; yorktownHits: number })).toMatchObject({ spotted: false, yorktownHits: 0 });
    const phone = await page().context().browser()!.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    await phone.goto(`${table.server.url}/?view=phone&seat=1&lang=en`);
    await expect.poll(() => phone.getByTestId('phone-card').textContent()).toBe('Japanese card: 2 · Kate · DIRECT HIT! (no effect: the Yorktown was not spotted)');
    await phone.close();
  });

  it('names the button in full on a wider screen', async () => {
    await page().setViewportSize({ width: 800, height: 640 });
    await page().goto(`${table.server.url}/?view=phone&seat=1&lang=en`);
    await expect.poll(() => page().getByTestId('unlock').innerText()).toBe('Unlock controls');
    expect(await headerLines(page())).toBe(2);
    expect(table.errors).toEqual([]);
  });
});
