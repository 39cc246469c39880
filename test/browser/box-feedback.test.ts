/** What the button box did, on the table screen: a refused press's reason as a toast, in the page's language, once. */
import { describe, expect, it } from 'vitest';
import { api, HAVE_CHROMIUM, PIN, command, runOutTime, shot, testClock, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('the box on the table screen', () => {
  const clock = testClock();
  const t = useBrowserTable(undefined, { width: 1280, height: 900 }, {}, undefined, clock.now);

  const snapshot = async () => (await api(t.server, 'GET', '/api/tables/default/state')).data as { seq: number; box: unknown };
  const press = (button: string, kind: 'short' | 'long' = 'short') => api(t.server, 'POST', '/api/tables/default/box/press', { button, press: kind });
  const boxToasts = () => t.page.locator('.toast', { hasText: /Button box|Caja de botones/ });
  const toastText = () => boxToasts().textContent({ timeout: 5000 }).catch(() => null);
  /** the page shows journal position `seq` (a push arrived) */
  const shows = (seq: number) => t.page.waitForFunction((s) => document.getElementById('app')?.dataset.seq === String(s), seq);

  it('shows why a press was refused for a few seconds, and not again after a reload or another push', async () => {
    await t.page.goto(`${t.server.url}/?lang=en`);
    await shows(0);
    expect((await press('confirm')).status).toBe(200);
    await expect.poll(toastText, { timeout: 10_000 }).toBe('Button box: no game is running: hold Confirm to start one, or set one up on the dashboard');
    expect(await t.page.locator('.toast.toast-error').count()).toBe(1);
    await shot(t.page, 'box-refused-toast');

    await t.page.reload();
    await shows(0);
    const seq = (await command(t.server, { type: 'newGame', seed: 5, players: 2, deck: 'digital' })).seq as number;
    await shows(seq);
    expect(await boxToasts().count()).toBe(0);
  });

  it("shows a refused press on the virtual box's own t.page too (its answer does not take the toast away)", async () => {
    await t.page.goto(`${t.server.url}/?view=box&lang=en&pin=${PIN}`);
    await t.page.getByTestId('box-undo').waitFor();
    await t.page.getByTestId('box-attack').click(); // the game waits for its Japanese card
    await expect.poll(toastText, { timeout: 10_000 }).toMatch(/^Button box: actions are chosen in the plane phase/);
    // still there a moment after the press's answer came
    await t.page.waitForTimeout(500);
    expect(await boxToasts().count()).toBe(1);
  });

  it('says it in Spanish on a Spanish t.page, and the service knows the plane the box selected', async () => {
    await t.page.goto(`${t.server.url}/?lang=es`);
    await shows((await snapshot()).seq);
    await press('attack'); // the game waits for its Japanese card
    await expect.poll(toastText, { timeout: 10_000 }).toBe('Caja de botones: las acciones se eligen en la fase de los aviones');
    await press('plane2');
    expect((await snapshot()).box).toMatchObject({ selected: 2, note: { key: 'selected', refused: false } });
    await expect.poll(toastText, { timeout: 10_000 }).toBe('Caja de botones: avión 2 elegido');
    // and its card is marked so on the table screen; pressed again, deselected
    await expect.poll(() => t.page.locator('article.plane-card[data-plane="2"]').getAttribute('data-box-selected')).toBe('true');
    expect(await t.page.getByTestId('box-selected-2').count()).toBe(1);
    expect(await t.page.locator('article.plane-card.box-selected').count()).toBe(1);
    await press('plane2');
    await expect.poll(() => t.page.locator('article.plane-card.box-selected').count()).toBe(0);
    // selected again, then the game over (the box's lights all off): no card is marked
    await press('plane2');
    await expect.poll(() => t.page.locator('article.plane-card.box-selected').count()).toBe(1);
    const seq = runOutTime(t.server, clock).seq as number;
    await shows(seq);
    expect((await api(t.server, 'GET', '/api/tables/default/state')).data).toMatchObject({ state: { phase: 'over' }, box: { selected: 2 } });
    expect(await t.page.locator('article.plane-card').count()).toBeGreaterThan(0);
    expect(await t.page.locator('article.plane-card.box-selected').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });

  it('shows on the plane\'s card the move the box shows for Confirm, and the plane moved there by Confirm', async () => {
    await command(t.server, { type: 'newGame', seed: 5, players: 2, deck: 'digital' });
    await t.page.goto(`${t.server.url}/?lang=en`);
    await press('confirm'); // draws the card
    for (const plane of [2, 3, 4]) await command(t.server, { type: 'chooseAction', plane, action: 'attack' });
    for (const button of ['plane1', 'move', 'move']) await press(button);
    const shown = () => t.page.getByTestId('box-shown-1').textContent({ timeout: 5000 }).catch(() => null);
    await expect.poll(shown, { timeout: 10_000 }).toMatch(/^Box: plane 1 → (Island \d+|Approach) \(1 fuel\): Confirm to move, Move for the next$/);
    await shot(t.page, 'box-move-shown');
    await press('confirm');
    await expect.poll(() => t.page.getByTestId('box-shown-1').count()).toBe(0);
    expect((await snapshot() as unknown as { state: { planes: { done: boolean }[] } }).state.planes[0].done).toBe(true);
    expect(t.errors).toEqual([]);
  });
});
