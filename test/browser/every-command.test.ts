/**
 * Every command the service lists (GET /api/commands) has a way in from the dashboard. This file
 * gives the ones a played game rarely needs, in the page: an emergency landing with a physical
 * expert manoeuvre tile (Landing Ace), a weather token revealed and named, a load dropped, a drop
 * tank used, a Japanese card entered by what it shows, undo, and abandoning the game. Buttons
 * appear only when the engine would take the command (no search button away from an orange
 * island, no landing when the flight deck is full).
 *
 * Rule corrections (the Settings page's overrides, sent with newGame) make the scene short:
 * planes 3 and 4 start with 1 fuel, and a drop tank may be used at any fuel.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, answerAsk, api, buildWeb, command, launch, openManualEntry, openOtherCard, shot, startServer, tableState, unlock, watchErrors, type RunningServer } from './harness.ts';

type Plane = { id: number; fuel: number; load: string; position: { at: string; island?: number }; done: boolean; manoeuvre: { id: string | null; used: boolean } | null };
type State = {
  phase: string;
  turn: number;
  search: number;
  planes: Plane[];
  islands: { id: number; weather: { id: string | null; revealed: boolean } | null }[];
  roll: null | { purpose: string; tracker: { faces: number[] | null; spec: { dice: number } } };
  setup: unknown;
};

/** Where each command is given in the dashboard (the played game in full-game.test.ts gives the rest). */
const WAY_IN: Record<string, string> = {
  newGame: 'wizard: Start game',
  drawCard: 'table: Draw Japanese card (digital deck)',
  cardDrawn: 'table: Card drawn (physical deck; list or what it shows)',
  chooseAction: 'plane card / phone: the four action buttons',
  takeOff: 'plane card: load, destination, Take off',
  land: 'plane card: Land (+ expert manoeuvre)',
  move: 'plane card: destination, flying over, Move (+ expert manoeuvre)',
  search: 'plane card: Search (orange island)',
  revealWeather: 'plane card: Reveal weather (island with a face-down token)',
  attack: 'plane card: one button per target the engine would accept',
  lightningAttack: 'plane card: Lightning attack, right after a move',
  emergencyLanding: 'plane card: Emergency landing, right after a move to the approach area with 0 fuel',
  dropLoad: 'plane card: Drop the load',
  useDropTank: 'plane card: Use drop tank',
  dice: 'roll panel: typed in, or the camera (Throw on the simulated camera)',
  confirmRoll: 'roll panel: Confirm (+ the attack split, + the weather token in a physical game)',
  skipAction: 'plane card: Skip action',
  endTurn: 'table: End turn',
  timeUp: "the table's stopwatch (server side, when time runs out)",
  undo: 'table and roll panel: Undo',
  resetTable: 'table: Abandon game (asks first)',
};

describe.skipIf(!HAVE_CHROMIUM)('every command from the dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const state = async () => (await tableState(server)) as unknown as State;
  const plane = async (id: number) => (await state()).planes.find((p) => p.id === id)!;
  const card = (id: number) => page.locator(`article.plane-card[data-plane="${id}"]`);

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    await command(server, {
      type: 'newGame',
      players: 4,
      deck: 'physical',
      seed: 8,
      startIslands: [8, 9],
      expansions: { expertManoeuvres: true, dropTank: true, weather: true },
      ruleOverrides: { 'start.redIslandFuel': 1, 'dropTank.maxFuelToUse': 14 },
    });
    await command(server, { type: 'cardDrawn', card: { islands: [5], plane: 'jake' } });
    await command(server, { type: 'cardDrawn', card: { islands: [6], plane: 'kate' } });
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

  async function enterCard(island: number, type: string, event: string): Promise<void> {
    await openOtherCard(page);
    await page.locator('select[name=card-island-a]').selectOption(String(island));
    await page.locator('select[name=card-island-b]').selectOption('');
    await page.locator('select[name=card-plane]').selectOption(type);
    await page.locator('select[name=card-event]').selectOption(event);
    await page.getByTestId('other-card').click();
  }

  /** An action that can do nothing from where the plane is is asked about first: chosen anyway. */
  async function choose(id: number, action: string): Promise<void> {
    await page.getByTestId(`choose-${id}-${action}`).click();
    const chosen = async () => ((await state()).planes.find((p) => p.id === id) as Plane & { action: string | null }).action === action;
    await expect.poll(async () => (await chosen()) || (await page.getByTestId('ask').isVisible())).toBe(true);
    if (!(await chosen())) expect(await answerAsk(page, true)).toMatch(new RegExp(`^Plane ${id}: .* (can|may) do nothing this turn`));
    await expect.poll(chosen).toBe(true);
  }

  it('lists the same commands as the service, each with its way in', async () => {
    const { data } = await api(server, 'GET', '/api/commands');
    expect(Object.keys(data.commands as object).sort()).toEqual(Object.keys(WAY_IN).sort());
  });

  it('turn 1: a landing, a two-island move, and an emergency landing with the Landing Ace tile', async () => {
    await enterCard(1, 'jake', 'cap');
    await expect.poll(async () => (await state()).phase).toBe('planes');
    await choose(1, 'takeoffLanding');
    await choose(2, 'move');
    await choose(3, 'move');
    await choose(4, 'search');
    // plane 4 on a red island: nothing to search or reveal there (the card redraws when the state arrives)
    await expect.poll(async () => card(4).locator('.plane-controls').textContent()).toContain('Searching needs an orange island');
    expect(await card(4).getByTestId('search-4').count()).toBe(0);
    expect(await card(4).getByTestId('weather-4').count()).toBe(0);

    await card(1).getByTestId('land-1').click();
    await expect.poll(async () => (await plane(1)).position.at).toBe('deck');

    await page.locator('select[name=to-2]').selectOption('4');
    await page.locator('select[name=via-2]').selectOption('8');
    await page.getByTestId('move-2').click();
    await expect.poll(async () => (await plane(2)).position.island).toBe(4);

    await page.locator('select[name=to-3]').selectOption('approach');
    await page.getByTestId('move-3').click();
    await expect.poll(async () => (await plane(3)).fuel).toBe(0);
    // physical tiles: the players say which tile they turned over
    await card(3).locator('select[name=manoeuvre-3]').selectOption('landingAce');
    await shot(page, 'emergency-landing');
    await page.getByTestId('emergency-3').click();
    await expect.poll(async () => (await plane(3)).position.at).toBe('deck');
    expect((await plane(3)).manoeuvre).toEqual({ id: 'landingAce', used: true });
    expect((await state()).roll).toBeNull();

    await page.getByTestId('skip-4').click();
    await expect.poll(async () => (await plane(4)).done).toBe(true);
    // a plane that did not act is not said to have done its action
    await expect.poll(() => page.getByTestId('action-4').textContent()).toMatch(/ \(skipped\)$/);
    expect(await page.getByTestId('action-3').textContent()).toMatch(/ \(done\)$/);
    await page.getByTestId('end-turn').click();
    await expect.poll(async () => (await state()).phase).toBe('japanese');
  });

  it('turn 2: a weather token revealed and named, a bomb dropped, a drop tank taken up; undo', async () => {
    await enterCard(3, 'kate', 'none');
    await expect.poll(async () => (await state()).phase).toBe('planes');
    await choose(1, 'takeoffLanding');
    await choose(2, 'search');
    await choose(3, 'takeoffLanding');
    await choose(4, 'move');

    // plane 1 takes off with a drop tank, plane 3 with a bomb (the flight deck is then full)
    await page.locator('select[name=load-1]').selectOption('dropTank');
    await page.locator('select[name=to-1]').selectOption('approach');
    await page.getByTestId('takeoff-1').click();
    await expect.poll(async () => (await plane(1)).load).toBe('dropTank');
    await page.locator('select[name=load-3]').selectOption('bomb');
    await page.locator('select[name=to-3]').selectOption('approach');
    await page.getByTestId('takeoff-3').click();
    await expect.poll(async () => (await plane(3)).load).toBe('bomb');

    // undo takes the last take-off back; it is made again
    await page.getByTestId('undo').click();
    await expect.poll(async () => (await plane(3)).position.at).toBe('deck');
    await page.locator('select[name=load-3]').selectOption('bomb');
    await page.getByTestId('takeoff-3').click();
    await expect.poll(async () => (await plane(3)).load).toBe('bomb');
    // its card says the bomb takes a die off its rolls
    await expect.poll(() => card(3).getByTestId('dice-note-3').textContent()).toBe('−1 (bomb)');

    // the bomb goes into the sea once the players say so (a stray tap asks first)
    await page.getByTestId('dropload-3').click();
    expect(await answerAsk(page, true)).toBe('Drop the bomb of plane 3? It is gone until the plane is back on the Yorktown.');
    await expect.poll(async () => (await plane(3)).load).toBe('none');
    await expect.poll(() => card(3).getByTestId('dice-note-3').count()).toBe(0);

    // plane 2 on a green island with a face-down token: reveal it (no orange island: no search button)
    expect(await card(2).getByTestId('search-2').count()).toBe(0);
    // its chance of turning the token over said before the fuel is spent
    expect(await card(2).getByTestId('weather-2').textContent()).toMatch(/ \((\d+%|<1%|>99%) to reveal it(, (\d+%|<1%) to run out of fuel)?\)$/);
    await card(2).getByTestId('weather-2').click();
    await expect.poll(async () => (await state()).roll?.purpose).toBe('weather');
    const dice = (await state()).roll!.tracker.spec.dice;
    await openManualEntry(page);
    const faces = [4, 4, 2, 3, 5, 6].slice(0, dice);
    for (const f of faces) await page.getByTestId(`face-${f}`).click();
    await page.getByTestId('send-dice').click();
    await expect.poll(async () => (await state()).roll?.tracker.faces).toEqual(faces);
    // a physical game: the players say which token they turned over
    await page.locator('select[name=weather]').selectOption('goodVisibility');
    await shot(page, 'weather-reveal');
    const search = (await state()).search;
    await page.getByTestId('confirm-roll').click();
    await expect.poll(async () => (await state()).roll).toBeNull();
    const after = await state();
    expect(after.search).toBe(search + 1);
    expect(after.islands.find((i) => i.id === 4)!.weather).toBeNull();

    // plane 4 (0 fuel, on island 9) skips, asked first as it crashes; the turn ends
    await page.getByTestId('skip-4').click();
    expect(await answerAsk(page, true)).toMatch(/^Plane 4 has 0 fuel: skipping costs 1 and it crashes\. Skip anyway\?$/);
    await page.getByTestId('end-turn').click();
    await expect.poll(async () => (await state()).phase).toBe('japanese');
  });

  it('turn 3: the drop tank is used before the plane acts; no take-off is offered once the flight deck is full', async () => {
    // plane 4 stayed up with no fuel: it crashed back onto the deck
    expect((await plane(4)).position.at).toBe('deck');
    await enterCard(2, 'jake', 'none');
    await expect.poll(async () => (await state()).phase).toBe('planes');
    for (const id of [1, 3, 4]) await choose(id, 'takeoffLanding');
    await choose(2, 'move');
    const fuel = (await plane(1)).fuel;
    await card(1).getByTestId('droptank-1').click();
    await expect.poll(async () => (await plane(1)).load).toBe('none');
    expect((await plane(1)).fuel).toBeGreaterThan(fuel);
    // planes 1 and 3 land (enough fuel: no roll); plane 4 is then told the deck is full instead of getting a Take off button
    expect(await page.getByTestId('takeoff-4').count()).toBe(1);
    await page.getByTestId('land-1').click();
    await expect.poll(async () => (await plane(1)).position.at).toBe('deck');
    await page.getByTestId('land-3').click();
    await expect.poll(async () => (await plane(3)).position.at).toBe('deck');
    await page.getByTestId('deck-full-4').waitFor();
    expect(await page.getByTestId('takeoff-4').count()).toBe(0);
    expect(await page.getByTestId('deck-full-4').textContent()).toContain('The flight deck is full');
    await shot(page, 'deck-full');
  });

  it('abandons the game (resetTable) after asking', async () => {
    await page.getByTestId('reset').click();
    expect(await answerAsk(page, true)).toBe('Abandon the game in progress?');
    await expect.poll(async () => (await state()).setup).toBeNull();
    await expect.poll(() => page.locator('.no-game').count()).toBe(1);
  });

  it('never threw in the page', () => {
    expect(errors).toEqual([]);
  });
});
