/**
 * An attack's chance on its button, before the players commit: plane 3 flies into a Zeke (four equal
 * dice) with the three dice of a lightning attack. The button says 0 %, why beside it, and that the
 * Aggressive tile (a physical game: any tile not yet turned over) would attack with a normal attack's
 * dice; once a tile is picked the chance is not said (it was figured without one), and the roll the
 * engine then starts has those dice. The scene is set up through the HTTP API.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, command, shot, tableState, unlock, useBrowserTable } from './harness.ts';

type State = { roll: null | { purpose: string; manoeuvre: string | null; tracker: { spec: { dice: number } } }; actionChances: { plane: number; kind: string; chance: number }[] };

describe.skipIf(!HAVE_CHROMIUM)('an attack says its chance before it is made', () => {
  const t = useBrowserTable(undefined, { width: 1600, height: 1000 });
  const state = async () => (await tableState(t.server)) as unknown as State;

  it('0 % against a Zeke with three dice, why, and what the Aggressive tile would change', async () => {
    const { server, page } = t;
    // planes 3 and 4 start on red islands 8 and 9; a set-up card puts a Zeke on island 5, next to both
    await command(server, { type: 'newGame', players: 4, deck: 'physical', startIslands: [8, 9], seed: 3, expansions: { expertManoeuvres: true } });
    await command(server, { type: 'cardDrawn', card: { islands: [5], plane: 'zeke' } });
    await command(server, { type: 'cardDrawn', card: { islands: [1], plane: 'jake' } });
    await command(server, { type: 'cardDrawn', card: { islands: [2], plane: 'jake' } });
    // before the choice, each action that could do nothing from where its plane is says why
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
    const notes = async (id: number) => {
      const said: Record<string, string> = {};
      for (const a of ['search', 'takeoffLanding', 'attack', 'move']) {
        const note = page.getByTestId(`futile-${id}-${a}`);
        if (await note.count()) said[a] = (await note.textContent())!;
      }
      return said;
    };
    await page.getByTestId('choose-1-move').waitFor();
    // plane 1 in the approach area, plane 3 on red island 8
    expect(await notes(1)).toEqual({ search: 'not an orange island', attack: 'nothing to attack here' });
    expect(await notes(3)).toEqual({ search: 'not an orange island', takeoffLanding: 'lands from the approach area', attack: 'nothing to attack here' });
    await shot(page, 'action-notes');
    for (const id of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane: id, action: 'move' });
    await command(server, { type: 'move', plane: 3, to: 5 });
    await expect.poll(async () => (await state()).actionChances?.length).toBe(1);
    expect((await state()).actionChances).toEqual([{ plane: 3, kind: 'lightning', dice: 3, fewestEqual: 4, chance: 0, crash: 0 }]);

    const button = page.getByTestId('lightning-3');
    await expect.poll(() => button.textContent()).toBe('Lightning attack (0% to hit)');
    expect(await page.getByTestId('hopeless-3-lightning').textContent()).toBe(
      "Cannot hit: it needs 4 equal dice and plane 3 rolls 3. Aggressive (an expert manoeuvre) makes it with a normal attack's dice.",
    );
    await button.scrollIntoViewIfNeeded();
    await shot(page, 'attack-hopeless');

    // the tiles that serve a lightning attack are offered, no other
    expect(await page.locator('select[name=manoeuvre-3] option').allTextContents()).toEqual(['no', 'Efficient', 'Decisive', 'Aggressive']);
    // a tile picked: the chance figured without one is not said
    await page.locator('select[name=manoeuvre-3]').selectOption('aggressive');
    await expect.poll(() => button.textContent()).toBe('Lightning attack');
    expect(await page.getByTestId('hopeless-3-lightning').count()).toBe(0);
    await button.click();
    await expect.poll(async () => (await state()).roll?.purpose).toBe('lightningAttack');
    const roll = (await state()).roll!;
    // a normal attack's dice: the plane's 3, +1 for the fuel spent
    expect([roll.manoeuvre, roll.tracker.spec.dice]).toEqual(['aggressive', 4]);
    // where the dice come from, each source before its dice (a "+3 skill" read as skill gained)
    await expect.poll(() => page.getByTestId('dice-breakdown').textContent()).toBe(' (skill dice 3, fuel +1)');
    expect((await state()).actionChances ?? []).toEqual([]);
    expect(t.errors).toEqual([]);
  });
});
