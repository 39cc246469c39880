/**
 * The attack-split picker: a plane attacks a Jake and a Kate on its island; the roll panel lists
 * what the dice showing can take, with the skill each choice gains and what stays on the island,
 * and the players' pick goes to the engine as `confirmRoll {assign}`.
 * The scene is set up through the HTTP API with a physical deck (the cards say where the
 * Japanese planes go); the attack, the dice and the choice are made in the page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, buildWeb, command, launch, openManualEntry, shot, startServer, tableState, unlock, watchErrors, type RunningServer } from './harness.ts';

type Plane = { id: number; skill: number; position: { at: string; island?: number } };
type State = {
  phase: string;
  planes: Plane[];
  islands: { id: number; japanese: string[] }[];
  roll: null | { purpose: string; tracker: { faces: number[] | null; spec: { dice: number } } };
};

describe.skipIf(!HAVE_CHROMIUM)('splitting an attack roll over several targets', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const state = async () => (await tableState(server)) as unknown as State;

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    // planes 3 and 4 start on red islands 8 and 9; the set-up cards put a Jake and a Kate on island 8
    await command(server, { type: 'newGame', players: 4, deck: 'physical', startIslands: [8, 9], seed: 3 });
    await command(server, { type: 'cardDrawn', card: { islands: [8], plane: 'jake' } });
    await command(server, { type: 'cardDrawn', card: { islands: [8], plane: 'kate' } });
    // turn 1: plane 4 joins plane 3 on island 8; the others wait
    await command(server, { type: 'cardDrawn', card: { islands: [1], plane: 'jake' } });
    for (const id of [1, 2, 3]) await command(server, { type: 'chooseAction', plane: id, action: 'search' });
    await command(server, { type: 'chooseAction', plane: 4, action: 'move' });
    await command(server, { type: 'move', plane: 4, to: 8 });
    await command(server, { type: 'endTurn' });
    // turn 2: both attack (plane 3 rolls skill + fuel + 1 for the ally in the same space)
    await command(server, { type: 'cardDrawn', card: { islands: [2], plane: 'jake' } });
    for (const id of [1, 2]) await command(server, { type: 'chooseAction', plane: id, action: 'search' });
    for (const id of [3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'attack' });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    errors = watchErrors(page);
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function typeDice(faces: number[]): Promise<void> {
    await openManualEntry(page);
    for (let i = 0; i < faces.length; i++) {
      await page.getByTestId(`slot-${i}`).click();
      await page.getByTestId(`face-${faces[i]}`).click();
    }
    await page.getByTestId('send-dice').click();
    await expect.poll(async () => (await state()).roll?.tracker.faces?.join(',')).toBe(faces.join(','));
  }

  it('offers only the targets the engine would accept, and starts the attack', async () => {
    // plane 3 is on island 8 with Japanese planes and no bomb, the Shōhō not located: only "planes"
    const card = page.locator('article.plane-card[data-plane="3"]');
    await card.getByTestId('attack-3-planes').waitFor();
    expect(await card.getByTestId('attack-3-cap').count()).toBe(0);
    expect(await card.getByTestId('attack-3-shoho').count()).toBe(0);
    await card.getByTestId('attack-3-planes').click();
    await expect.poll(async () => (await state()).roll?.purpose).toBe('attack');
    expect((await state()).roll!.tracker.spec.dice).toBe(5);
  });

  it('shows a split that takes both planes, with what it achieves', async () => {
    await typeDice([3, 3, 3, 5, 5]);
    const options = page.getByTestId('split').locator('.split-option');
    await expect.poll(() => options.count()).toBe(1);
    const both = page.getByTestId('split-i8-0+i8-1');
    expect(await both.textContent()).toMatch(/Jake \(Island 8\).*Kate \(Island 8\)/);
    expect(await both.textContent()).toContain('+3 skill');
    expect(await both.textContent()).toContain('Island 8 cleared');
    // the odds are those of the dice showing now: both reached, where the start gave less
    const odds = page.getByTestId('odds');
    expect(await odds.getAttribute('data-from')).toBe('now');
    expect(await odds.locator('.odds-value').allTextContents()).toEqual([expect.stringMatching(/^100%start \d+%$/), expect.stringMatching(/^100%start \d+%$/), expect.stringMatching(/^0%/)]);
    expect(await odds.getByTestId('odds-from').textContent()).toBe('odds from the dice showing now');
    // the targets the dice showing hit already are marked so (the figure: still hit when the roll ends)
    expect(await odds.locator('li.taken-now .odds-label').allTextContents()).toEqual(['Jake (Island 8)hit now', 'Kate (Island 8)hit now']);
    // the strategy the figures assume, folded away until asked for
    expect(await odds.getByTestId('odds-strategy').isVisible()).toBe(false);
    await odds.locator('details.odds-how summary').click();
    expect(await odds.getByTestId('odds-strategy').textContent()).toMatch(/^Throw all dice; /);
  });

  it('lets the players take the Kate instead of the best choice (the Jake) and sends that', async () => {
    await typeDice([3, 3, 3, 3, 2]);
    const jake = page.getByTestId('split-i8-0');
    const kate = page.getByTestId('split-i8-1');
    await jake.waitFor();
    expect(await jake.textContent()).toContain('+2 skill');
    expect(await jake.textContent()).toContain('Kate stays on Island 8');
    expect(await jake.locator('.tag').textContent()).toBe('best');
    // the best split's target is the one marked hit now
    expect(await page.getByTestId('odds').locator('li.taken-now .odds-label').allTextContents()).toEqual(['Jake (Island 8)hit now']);
    expect(await kate.textContent()).toContain('+1 skill');
    expect(await kate.textContent()).toContain('Jake stays on Island 8');
    expect(await jake.locator('input').isChecked()).toBe(true);
    await kate.locator('input').check();
    await expect.poll(() => kate.locator('input').isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId('odds').locator('li.taken-now .odds-label').allTextContents()).toEqual(['Kate (Island 8)hit now']);
    await shot(page, 'attack-split');
    const skillBefore = (await state()).planes.find((p) => p.id === 3)!.skill;
    await page.getByTestId('confirm-roll').click();
    await expect.poll(async () => (await state()).roll).toBeNull();
    const after = await state();
    expect(after.islands.find((i) => i.id === 8)!.japanese).toEqual(['jake']);
    expect(after.planes.find((p) => p.id === 3)!.skill).toBe(skillBefore + 1);
  });

  it('never threw in the page', () => {
    expect(errors).toEqual([]);
  });
});
