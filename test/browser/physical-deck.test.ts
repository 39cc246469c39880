/**
 * A game with the physical Japanese deck: the set-up cards and the turn's card are entered on the
 * dashboard (by id from the deck list, or by what an unlisted card shows), and the Japanese attack
 * on the Yorktown is a single roll typed in by hand.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, buildWeb, launch, openManualEntry, openOtherCard, shot, startServer, tableState, unlock, watchErrors, type RunningServer } from './harness.ts';

type State = {
  phase: string;
  setupDraws: number;
  yorktownHits: number;
  lastCard: { id: string; islands: number[]; plane: string; event: string } | null;
  roll: null | { purpose: string; tracker: { spec: { dice: number; continuous: boolean } } };
  deck: { mode: string };
};

describe.skipIf(!HAVE_CHROMIUM)('physical Japanese deck', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const state = async () => (await tableState(server)) as unknown as State;

  async function enterOtherCard(islands: number[], plane: string, event: string): Promise<void> {
    await openOtherCard(page);
    await page.locator('select[name=card-island-a]').selectOption(String(islands[0]));
    await page.locator('select[name=card-island-b]').selectOption(islands[1] === undefined ? '' : String(islands[1]));
    await page.locator('select[name=card-plane]').selectOption(plane);
    await page.locator('select[name=card-event]').selectOption(event);
    await page.getByTestId('other-card').click();
    // the form folds once the card is in: wait for it, so that the next card finds it folded and opens it
    // (under load the page could still show this open form when the next card starts, and fold it after)
    await page.waitForFunction(() => !(document.querySelector('details.other-card') as HTMLDetailsElement | null)?.open);
  }

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('enters the set-up cards: one by id from the deck list, one by what it shows', async () => {
    await page.goto(`${server.url}/?view=wizard&lang=en`);
    await unlock(page);
    await page.getByTestId('deck-physical').click();
    await page.getByTestId('start-game').click();
    await page.locator('.table-view').waitFor();
    const st = (await tableState(server)) as unknown as State & {
      rules: { board: { islands: { id: number; colour: string }[]; lines: [number, number][] }; deck: { id: string; islands: number[] }[] };
    };
    expect(st).toMatchObject({ phase: 'setup', deck: { mode: 'physical' } });
    // the stopwatch waits for the set-up cards, showing the game's whole time
    const minutes = (st as unknown as { minutes: number }).minutes;
    await expect.poll(() => page.locator('.stopwatch .label').textContent()).toBe('Starts after the set-up cards');
    expect(await page.locator('#stopwatch-time').textContent()).toBe(`${minutes}:00`);
    // a chain orange - green - red along white lines, so that the Yorktown is spotted at the first card
    const joined = (a: number, b: number) => st.rules.board.lines.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
    const chain = st.rules.board.islands
      .filter((o) => o.colour === 'orange')
      .flatMap((o) => st.rules.board.islands.filter((g) => g.colour === 'green' && joined(o.id, g.id)).map((g) => [o.id, g.id]))
      .flatMap(([o, g]) => st.rules.board.islands.filter((r) => r.colour === 'red' && joined(g!, r.id)).map((r) => [o!, g!, r.id]))[0]!;
    const single = st.rules.deck.find((c) => c.islands.length === 1 && c.islands[0] === chain[0] && !('directHit' in c && (c as { directHit: boolean }).directHit));
    // nothing picked at first: "Card drawn" waits for the card in the players' hand
    expect(await page.getByTestId('card-pick').inputValue()).toBe('');
    expect(await page.getByTestId('card-drawn').isDisabled()).toBe(true);
    if (single) {
      // listed as the card reads: its islands, its plane, its code last
      expect(await page.getByTestId('card-pick').locator(`option[value="${single.id}"]`).textContent()).toMatch(new RegExp(`^${single.islands[0]} · .* \\(${single.id}\\)$`));
      await page.getByTestId('card-pick').selectOption(single.id);
      await page.getByTestId('card-drawn').click();
    } else {
      await enterOtherCard([chain[0]!], 'jake', 'none');
    }
    await expect.poll(async () => (await state()).lastCard?.islands).toEqual([chain[0]]);
    expect((await state()).phase).toBe('setup'); // one island: another card is drawn
    await enterOtherCard([chain[1]!, chain[2]!], 'zeke', 'none');
    await expect.poll(async () => (await state()).phase).toBe('japanese');
    await expect.poll(() => page.locator('.stopwatch .label').textContent()).toBe('Time left');
  });

  it("enters a card that is not in the list by what it shows, and types in the Yorktown's attack roll", async () => {
    // a card drawn at set-up is listed as drawn and cannot be picked again
    const drawn = ((await tableState(server)) as unknown as { deck: { discard: string[] } }).deck.discard;
    expect(drawn).toHaveLength(1); // the set-up's first card, picked from the list
    for (const id of drawn) {
      const option = page.getByTestId('card-pick').locator(`option[value="${id}"]`);
      expect(await option.isDisabled()).toBe(true);
      expect(await option.textContent()).toMatch(/\(drawn\)$/);
    }
    expect(drawn).not.toContain(await page.getByTestId('card-pick').inputValue());
    await enterOtherCard([3], 'kate', 'cap');
    await expect.poll(async () => (await state()).lastCard?.islands).toEqual([3]);
    const st = await state();
    expect(st.lastCard).toMatchObject({ plane: 'kate', event: 'cap' });
    // the server took the card; the page shows it once the state push arrives
    await expect.poll(() => page.getByTestId('last-card').textContent()).toContain('Kate');
    expect(st.roll, 'the set-up chain spots the Yorktown').not.toBeNull();
    {
      // the Yorktown was spotted: a single roll, the faces read as they fall
      expect(st.roll!.purpose).toBe('yorktownAttack');
      expect(st.roll!.tracker.spec.continuous).toBe(false);
      const dice = st.roll!.tracker.spec.dice;
      const faces = [2, 2, 5, 6, 3, 4, 5].slice(0, dice);
      // the simulated camera throws a single roll once (with a dice model to read it)
      const visionReady = ((await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean } }).vision?.ready === true;
      if (visionReady) await expect.poll(() => page.getByTestId('throw').textContent()).toBe('Throw (simulated camera; a single roll)');
      await openManualEntry(page);
      for (const f of faces) await page.getByTestId(`face-${f}`).click();
      await page.getByTestId('send-dice').click();
      await expect.poll(async () => ((await tableState(server)).roll as { tracker: { faces: number[] | null } }).tracker.faces).toEqual(faces);
      await expect.poll(() => page.getByTestId('throw').count()).toBe(0);
      expect(await page.getByTestId('throw-leaning').count()).toBe(0);
      // what the roll does, in words, and what the faces mean
      await expect.poll(() => page.getByTestId('best').textContent()).toBe(`${faces.join(' ')} → 1 hit on the Yorktown`);
      expect(await page.locator('.roll-panel p.hint', { hasText: 'Single roll' }).first().textContent()).toMatch(/a pair of 1s is the anti-aircraft guns: the attacker is shot down and no plane of the card is placed/);
      await shot(page, 'yorktown-attack-roll');
      await page.getByTestId('confirm-roll').click();
      await expect.poll(async () => (await state()).roll).toBeNull();
      // one pair of equal dice (2, 2) and no anti-aircraft face: one hit
      if (dice >= 2) expect((await state()).yorktownHits).toBe(1);
      await expect.poll(() => page.getByTestId('yorktown-hits').textContent()).toMatch(/^1 \//);
    }
    await expect.poll(async () => (await state()).phase).toBe('planes');
    expect(errors).toEqual([]);
  });
});
