/**
 * The move form: it starts on the cheapest move, never lists the plane's own island, lists a flight
 * over Japanese planes only with the Invisible tile picked, and what the players picked does not carry
 * into the next turn; the tile offered is the one that serves a move. Plane 3 starts on red island 8 (white lines to 4, 5 and 9) with a Jake on 5.
 * The scene is set up through the HTTP API with a physical deck and physical expert manoeuvre tiles.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, answerAsk, command, physicalScene, tableState, unlock, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('the move form', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it('starts on the cheapest move, flies over Japanese planes only with Invisible, and forgets the last turn', async () => {
    const { server, page } = t;
    await physicalScene(server, { expansions: { expertManoeuvres: true } }, false);
    const turn = async () => {
      await command(server, { type: 'cardDrawn', card: { islands: [3], plane: 'jake' } });
      for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'move' });
    };
    await turn();
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);

    const to = page.locator('select[name=to-3]');
    const option = (v: string) => to.locator(`option[value="${v}"]`);
    await expect.poll(() => to.inputValue()).toBe('4'); // one step for 1 fuel, before a return or a flight of two
    expect(await option('8').count()).toBe(0);
    // over the Jake on 5 it would be reached: the Jake is what stands in the way
    expect(await option('2').textContent()).toBe('Island 2 (Japanese planes in the way)');
    expect(await option('2').isDisabled()).toBe(true);
    expect(await option('1').textContent()).toBe('Island 1 (3 fuel, flying over 4)');

    // the only tile that serves a move is offered
    expect(await page.locator('select[name=manoeuvre-3] option').allTextContents()).toEqual(['no', 'Invisible']);
    // the Invisible tile turned over: over the Jake on 5
    await page.locator('select[name=manoeuvre-3]').selectOption('invisible');
    await expect.poll(() => option('2').textContent()).toBe('Island 2 (3 fuel, flying over 5)');
    await to.selectOption('2');
    await expect.poll(() => page.locator('select[name=via-3] option').allTextContents()).toEqual(['Island 5']);
    // no tile: island 2 cannot be reached again, and the form goes back to the cheapest move
    await page.locator('select[name=manoeuvre-3]').selectOption('');
    await expect.poll(() => option('2').isDisabled()).toBe(true);
    expect(await to.inputValue()).toBe('4');

    // a destination picked and not flown: the next turn's move starts afresh
    await to.selectOption('1');
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'skipAction', plane: id });
    await command(server, { type: 'endTurn' });
    await turn();
    await expect.poll(() => to.inputValue()).toBe('4');
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the move form on a wide table screen', () => {
  const t = useBrowserTable(undefined, { width: 1920, height: 1080 });

  it('keeps its destination list inside the plane card, and the whole game on the screen', async () => {
    const { server, page } = t;
    await physicalScene(server, { expansions: { expertManoeuvres: true } });
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'move' });
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
    for (const id of [3, 4]) {
      const select = page.locator(`select[name=to-${id}]`);
      await expect.poll(() => select.count()).toBe(1);
      const inside = await select.evaluate((el) => {
        const card = el.closest('.plane-card')!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return { left: box.left >= card.left - 0.5, right: box.right <= card.right + 0.5, cardWidth: card.width };
      });
      expect(inside).toMatchObject({ left: true, right: true });
    }
    // the whole game on one 1920 × 1080 screen: four planes two by two, the board, the clock, End turn
    const page1080 = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight, endTurn: document.querySelector('[data-testid=end-turn]')?.getBoundingClientRect().bottom ?? null }));
    expect(page1080.width).toBeLessThanOrEqual(1920);
    expect(page1080.height).toBeLessThanOrEqual(1080);
    expect(page1080.endTurn).not.toBeNull();
    // a 1366 × 768 laptop or TV: the planes' column takes more of the width, so that each card is still laid out wide (the four
    // actions in a row, or two by two where four abreast would split a word: layout-1366.test.ts)
    await page.setViewportSize({ width: 1366, height: 768 });
    await expect.poll(() => page.evaluate(() => {
      const tops = Array.from(document.querySelectorAll('[data-testid^="choose-1-"]')).map((b) => Math.round(b.getBoundingClientRect().top));
      return tops.length === 4 && new Set(tops).size <= 2;
    })).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await page.setViewportSize({ width: 1920, height: 1080 });
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('a plane short of fuel', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it('is offered only the moves its fuel pays for, and told when it can only skip (and crash)', async () => {
    const { server, page } = t;
    const game = async (fuel: number) => {
      // planes 3 and 4 start on red islands 8 and 9 with this fuel
      await physicalScene(server, { ruleOverrides: { 'start.redIslandFuel': fuel } });
    };
    await game(1);
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'move' });
    const option = (v: string) => page.locator(`select[name=to-3] option[value="${v}"]`);
    await expect.poll(() => option('4').textContent()).toBe('Island 4 (1 fuel)');
    expect(await option('4').isDisabled()).toBe(false);
    expect(await option('1').textContent()).toBe('Island 1 (3 fuel: not enough, flying over 4)');
    expect(await option('1').isDisabled()).toBe(true);

    // at 4 fuel its fuel is shown low (a landing is no longer automatic), as the box's plane LED blinks; not a plane on the deck
    await game(4);
    const fuelClass = (id: number) => page.locator(`article.plane-card[data-plane="${id}"] .stat.fuel`).getAttribute('class');
    await expect.poll(() => page.getByTestId('fuel-3').textContent()).toBe('4');
    expect(await fuelClass(3)).toContain('low');
    expect(await fuelClass(1)).not.toContain('low');

    await game(0);
    await expect.poll(() => page.getByTestId('futile-3-move').textContent()).toBe('not enough fuel');
    expect(await page.getByTestId('futile-3-search').textContent()).toBe('not an orange island');
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'move' });
    await expect.poll(() => page.getByTestId('move-no-fuel-3').textContent()).toBe('Plane 3 has 0 fuel: a move costs at least 1. It can only skip.');
    expect(await page.locator('select[name=to-3]').count()).toBe(0);
    expect(await page.getByTestId('skip-3').textContent()).toBe('Skip action (−1 fuel: it crashes)');
    // a skip or an end of turn that crashes a plane is asked first, saying so
    await page.getByTestId('skip-3').click();
    expect(await answerAsk(page, false)).toBe('Plane 3 has 0 fuel: skipping costs 1 and it crashes. Skip anyway?');
    await page.getByTestId('end-turn').click();
    expect(await answerAsk(page, false)).toBe('Not acted yet: planes 1, 2, 3 and 4. End the turn anyway? Each plane that has not acted skips its action (in the air: −1 fuel). Crash (not enough fuel): planes 3 and 4.');
    const plane3 = async () => ((await tableState(server)).planes as { position: { at: string } }[])[2]!;
    expect(await plane3()).toMatchObject({ done: false, fuel: 0, position: { at: 'island' } });
    await page.getByTestId('skip-3').click();
    await answerAsk(page, true);
    await expect.poll(async () => (await plane3()).position.at).toBe('deck');
    expect(t.errors).toEqual([]);
  });

  it('offers no attack its fuel does not pay for: says so, and what is left to it', async () => {
    const { server, page } = t;
    // plane 3 on red island 8 with no fuel, and a Jake put on 8 by the turn's card
    await physicalScene(server, { ruleOverrides: { 'start.redIslandFuel': 0 } }, false);
    await command(server, { type: 'cardDrawn', card: { islands: [8], plane: 'jake' } });
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'attack' });
    await page.goto(`${server.url}/?lang=en`); // the PIN given in the test before holds
    await expect.poll(() => page.getByTestId('no-fuel-3').textContent()).toBe('Plane 3 has 0 fuel: an attack costs 1. It can only skip.');
    expect(await page.getByTestId('attack-3-planes').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('a plane cut off from the approach area', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });

  it('says so on its card, naming the islands whose Japanese planes stand in every way back', async () => {
    const { server, page } = t;
    // plane 3 flies from red island 8 to green island 4 (lines to 1, 5 and 8); a Jake holds 5 and a Kate 7
    await physicalScene(server, {}, false);
    await command(server, { type: 'cardDrawn', card: { islands: [3], plane: 'jake' } });
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'move' });
    await command(server, { type: 'move', plane: 3, to: 4 });
    for (const id of [1, 2, 4]) await command(server, { type: 'skipAction', plane: id });
    await command(server, { type: 'endTurn' });
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
    await expect.poll(() => page.locator('[data-plane="3"] [data-testid=pos-3]').innerText()).toMatch(/4/);
    expect(await page.locator('[data-testid=way-home-3]').count()).toBe(0);
    // Zekes land on 6 and 8: from 4, every way back to the approach area now passes Japanese planes
    await command(server, { type: 'cardDrawn', card: { islands: [6, 8], plane: 'zeke' } });
    const state = await tableState(server);
    const held = (state.islands as { id: number; japanese: unknown[] }[]).filter((i) => i.japanese.length > 0).map((i) => i.id);
    const note = page.locator('[data-testid=way-home-3]');
    await expect.poll(() => note.count()).toBe(1);
    const named = (await note.innerText()).match(/islands? ([\d, ]+) stand on every way back to the approach area/);
    expect(named).not.toBeNull();
    const islands = named![1].split(', ').map(Number);
    expect(islands.length).toBeGreaterThan(0);
    expect(islands.every((id) => held.includes(id))).toBe(true);
    // plane 4 on red island 9 borders the approach area: nothing to say
    expect(await page.locator('[data-testid=way-home-4]').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });
});
