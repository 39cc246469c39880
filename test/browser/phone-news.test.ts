/**
 * What one phone does that the others must know (`web/src/news.ts`, `App.announce`): an Undo from
 * seat 2's phone of seat 1's roll asks first and is told on seat 1's phone, naming the plane and seat;
 * a crash is an alert on every phone, once. The games come from the engine's built-in policy.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { GameCommand } from '../../server/games/game-module.ts';
import { yorktown1942 } from '../../server/games/yorktown1942/index.ts';
import { playGame } from '../../server/games/yorktown1942/simulation.ts';
import type { YorktownState } from '../../server/games/yorktown1942/types.ts';
import { HAVE_CHROMIUM, answerAsk, command, unlock, useBrowserTable, watchErrors } from './harness.ts';

const SETUP = { players: 2 as const, difficulty: 30 as const };

/**
 * The first seed whose two-player game has a command `wanted` picks; its commands after newGame up to
 * and including that one, and the state before it.
 */
function seeded(wanted: (before: YorktownState, command: GameCommand, after: YorktownState, events: { type: string }[]) => boolean): { seed: number; commands: GameCommand[]; before: YorktownState } {
  for (let seed = 1; seed <= 100; seed++) {
    const entries = playGame({ seed, ...SETUP }).journal.effective.map((e) => e.entry);
    let state: YorktownState = yorktown1942.emptyState();
    for (const [i, entry] of entries.entries()) {
      const result = yorktown1942.apply(state, entry.command as never, entry.at);
      if (!result.ok) break;
      if (i > 0 && wanted(state, entry.command, result.state, result.events)) return { seed, commands: entries.slice(1, i + 1).map((e) => e.command), before: state };
      state = result.state;
    }
  }
  throw new Error('no seed in 1..100 gives the command wanted');
}

const toast = (page: Page) => page.locator('#toast .toast');

async function atSeq(page: Page, seq: number): Promise<void> {
  await expect.poll(() => page.locator('[data-seq]').first().getAttribute('data-seq')).toBe(String(seq));
}

describe.skipIf(!HAVE_CHROMIUM)('news between the phones of one table', () => {
  const t = useBrowserTable(undefined, { width: 390, height: 844 });

  async function twoPhones(): Promise<{ phone1: Page; phone2: Page; errors2: string[] }> {
    const phone1 = t.page;
    const phone2 = await phone1.context().browser()!.newPage({ viewport: { width: 390, height: 844 } });
    const errors2 = watchErrors(phone2);
    for (const [page, seat] of [[phone1, 1], [phone2, 2]] as const) {
      await page.goto(`${t.server.url}/phone/${seat}?lang=en`);
      // the tab keeps the PIN given in a test before
      await page.locator('[data-testid="unlock"], [data-testid="control-state"]').first().waitFor();
      if ((await page.getByTestId('control-state').count()) === 0) await unlock(page);
    }
    return { phone1, phone2, errors2 };
  }

  it("seat 2's Undo of seat 1's confirmed roll asks first, and seat 1's phone is told", async () => {
    // a roll of seat 1's plane confirmed, no roll after it
    const { seed, commands, before } = seeded((b, c, a) => c.type === 'confirmRoll' && !!b.roll?.plane && b.planes.find((p) => p.id === b.roll!.plane)?.seat === 1 && a.roll === null && a.outcome === null);
    const plane = before.roll!.plane!;
    await command(t.server, { type: 'newGame', seed, ...SETUP });
    let seq = 0;
    for (const c of commands) seq = (await command(t.server, c as Record<string, unknown>)).seq as number;
    const { phone1, phone2, errors2 } = await twoPhones();
    await atSeq(phone1, seq);
    await atSeq(phone2, seq);

    // seat 1's own move: undone at once, without a question; seat 2's phone is told who undid it
    await phone1.getByTestId('phone-undo').click();
    await expect.poll(() => toast(phone1).textContent()).toBe(`Undone: plane ${plane}'s confirmed roll (seat 1).`);
    await expect.poll(() => toast(phone2).textContent()).toBe(`Seat 1 undid plane ${plane}'s confirmed roll (seat 1).`);
    expect(await phone1.getByTestId('ask').count()).toBe(0);
    seq = (await command(t.server, commands[commands.length - 1] as Record<string, unknown>)).seq as number;
    await atSeq(phone1, seq);
    await atSeq(phone2, seq);

    // the question left open while play goes on (here the table's own Undo): the move it named is not taken back blindly
    await phone2.getByTestId('phone-undo').click();
    await phone2.getByTestId('ask').waitFor();
    await command(t.server, { type: 'undo' });
    // the page's own question stays open through the push (the browser's would have held the page still)
    await atSeq(phone2, seq + 1);
    expect(await phone2.getByTestId('ask').isVisible()).toBe(true);
    await phone2.getByTestId('ask-yes').click();
    await expect.poll(() => toast(phone2).textContent()).toMatch(/Nothing undone: the move asked about \(#\d+\) is no longer the last one/);
    expect(((await (await fetch(`${t.server.url}/api/tables/default/state`)).json()) as { seq: number }).seq).toBe(seq + 1);
    seq = (await command(t.server, commands[commands.length - 1] as Record<string, unknown>)).seq as number;
    await atSeq(phone1, seq);
    await atSeq(phone2, seq);

    await phone2.getByTestId('phone-undo').click();
    expect(await answerAsk(phone2, true)).toBe(`Undo plane ${plane}'s confirmed roll (seat 1)? It is not this seat's move.`);
    await expect.poll(() => toast(phone2).textContent()).toBe(`Undone: plane ${plane}'s confirmed roll (seat 1).`);
    await expect.poll(() => toast(phone1).textContent()).toBe(`Seat 2 undid plane ${plane}'s confirmed roll (seat 1).`);
    await atSeq(phone1, seq + 1);
    expect(t.errors).toEqual([]);
    expect(errors2).toEqual([]);
    await phone2.close();
  });

  it('a crash is an alert on every phone, told once', async () => {
    const { seed, commands } = seeded((_b, _c, _a, events) => events.some((e) => e.type === 'planeCrashed'));
    await command(t.server, { type: 'newGame', seed, ...SETUP });
    let seq = 0;
    for (const c of commands.slice(0, -1)) seq = (await command(t.server, c as Record<string, unknown>)).seq as number;
    const { phone1, phone2, errors2 } = await twoPhones();
    await atSeq(phone1, seq);
    await atSeq(phone2, seq);

    await command(t.server, commands[commands.length - 1] as Record<string, unknown>);
    for (const page of [phone1, phone2]) {
      await expect.poll(() => toast(page).textContent()).toMatch(/Plane \d crashes( \(pilot unharmed\):|: pilot injured(, −\d+ skill( \(all it had\))?| \(no skill left to lose\)),) back on the deck with cockpit B/);
      expect(await toast(page).getAttribute('class')).toContain('toast-alert');
    }
    // the page opened again gets the same last command's events: not told twice
    await phone2.reload();
    await atSeq(phone2, seq + 1);
    await phone2.waitForTimeout(500);
    expect(await toast(phone2).count()).toBe(0);
    expect(t.errors).toEqual([]);
    expect(errors2).toEqual([]);
    await phone2.close();
  });
});
