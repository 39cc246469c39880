/**
 * Every page of the dashboard checked with axe-core (the accessibility rules of WCAG 2.1 A/AA and
 * best practice): headings, labels, lists, contrast, names of controls. Pages are checked as players
 * meet them: before a game, with the PIN prompt open, in a game, in the middle of a roll, in
 * Spanish, on a phone.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, command, openManualEntry, unlock, useBrowserTable } from './harness.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules the page breaks, each with up to three of the elements that break it. */
async function violations(page: Page): Promise<string[]> {
  // evaluated through the debugging protocol: the page's Content-Security-Policy stays as it is
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    type Result = { id: string; help: string; nodes: { target: string[]; failureSummary?: string }[] };
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Result[] }> } }).axe;
    const found = await axe.run(document, { resultTypes: ['violations'] });
    return found.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').replace(/\s+/g, ' ')})`).join('; ')}`);
  });
}

describe.skipIf(!HAVE_CHROMIUM)('accessibility of every page (axe-core)', () => {
  const table = useBrowserTable({ tables: [{ id: 'default', camera: { source: 'synthetic', seed: 7 } }] });
  const page = () => table.page;

  /** Opens a page and waits for it to be drawn from the table's state. */
  async function open(path: string): Promise<void> {
    await page().goto(`${table.server.url}${path}`);
    await page().locator('#app[data-seq]').waitFor();
    await page().locator('#main > *').first().waitFor();
  }

  it('before a game, locked and with the PIN prompt open', async () => {
    await open('/?lang=en');
    expect(await violations(page())).toEqual([]);
    await page().getByTestId('unlock').click();
    await page().getByTestId('pin-input').waitFor();
    expect(await violations(page())).toEqual([]);
    await page().getByTestId('pin-input').fill('4321');
    await page().getByTestId('pin-submit').click();
    await page().getByTestId('pin-input').waitFor({ state: 'detached' });
  });

  it('every view of a table with a game on', async () => {
    // planes 3 and 4 start on red island 8 and 9, a Jake and a Kate on island 8
    await command(table.server, { type: 'newGame', players: 4, deck: 'physical', startIslands: [8, 9], seed: 3 });
    await command(table.server, { type: 'cardDrawn', card: { islands: [8], plane: 'jake' } });
    await command(table.server, { type: 'cardDrawn', card: { islands: [8], plane: 'kate' } });
    await command(table.server, { type: 'cardDrawn', card: { islands: [1], plane: 'jake' } });
    for (const view of ['table', 'roll', 'phone', 'wizard', 'settings', 'camera', 'samples', 'box', 'kiosk', 'stats']) {
      await open(`/?view=${view}&lang=en`);
      // the statistics page's figures and table, not its "Asking the table…"
      if (view === 'stats') await page().getByTestId('stats-totals').waitFor();
      // with the PIN (kept for the tab): every control shown
      expect(await page().getByTestId('unlock').count()).toBe(0);
      expect({ view, broken: await violations(page()) }).toEqual({ view, broken: [] });
    }
  });

  it('in the middle of an attack roll, dice typed in', async () => {
    for (const id of [1, 2, 4]) await command(table.server, { type: 'chooseAction', plane: id, action: 'search' });
    await command(table.server, { type: 'chooseAction', plane: 3, action: 'attack' });
    await open('/?lang=en');
    await page().getByTestId('attack-3-planes').click();
    await openManualEntry(page());
    await page().getByTestId('slot-0').click();
    await page().getByTestId('face-3').click();
    expect(await violations(page())).toEqual([]);
  });

  it('in Spanish, and on a phone', async () => {
    await open('/?lang=es');
    expect(await violations(page())).toEqual([]);
    await page().setViewportSize({ width: 360, height: 640 });
    await open('/phone/3?lang=en');
    expect(await violations(page())).toEqual([]);
    expect(table.errors).toEqual([]);
  });
});
