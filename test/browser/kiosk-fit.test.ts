/**
 * The demo station's screen fits its TV, landscape 1920 × 1080 and portrait 1080 × 1920, without
 * scrolling: a visitor's game with the Japanese card drawn and a roll under way (the card's foot and
 * "What happened" in sight), in English and Spanish (longer words), and the attract game with its
 * banner and the day's strip (from a store owner's walkthrough: the page was 1115-1207 px tall), the board
 * at least 180 px each way wherever it is shown.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, command, rollScene, shot, useBrowserTable } from './harness.ts';

const TABLES = {
  tables: [
    { id: 'demo', name: 'Demo station', camera: { source: 'synthetic' }, kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 600, idleResetMinutes: null } },
    { id: 'note', name: 'Note station', kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 600, idleResetMinutes: null } },
    { id: 'titled', name: '1942 USS Yorktown: try it!', kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 600, idleResetMinutes: null } },
    { id: 'attract', name: 'Attract station', kiosk: { attractAfterMinutes: 0.02, resetAfterGameSeconds: 600, idleResetMinutes: null } },
  ],
};

const WIDE = { width: 1920, height: 1080 };
const TALL = { width: 1080, height: 1920 };

/** The page's height against the viewport's, which of `selectors` end below the fold (scrolled to the top), and blocks drawn over each other. */
async function fit(page: Page, selectors: string[]): Promise<{ scrollHeight: number; innerHeight: number; scrollWidth: number; below: string[] }> {
  return page.evaluate((sels) => {
    window.scrollTo(0, 0);
    const below: string[] = [];
    for (const sel of sels) {
      const all = Array.from(document.querySelectorAll(sel));
      if (all.length === 0) below.push(`${sel} missing`);
      all.forEach((el, i) => {
        const b = el.getBoundingClientRect();
        if (b.bottom > innerHeight + 0.5 || b.right > innerWidth + 0.5) below.push(`${sel}[${i}] bottom ${Math.round(b.bottom)}`);
      });
    }
    // the screen's blocks each in a place of its own (none drawn over another to fit)
    const blocks = Array.from(document.querySelectorAll('.next-step, .kiosk-top > *, .stopwatch, .counters, .jap-card, .game-controls, .roll-panel, .history, .plane-card, .board'));
    blocks.forEach((a, i) => blocks.slice(i + 1).forEach((b) => {
      const [p, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
      if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) below.push(`${a.className} over ${b.className} by ${Math.round(Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top))}`);
    }));
    // the board big enough to make out from the visitors' side (beside a roll it was squeezed to nothing, 0 px
    // tall, on a landscape screen; 213 px on an upright one; now 517, and upright 385 in English, 188 in Spanish,
    // its longer words making the roll and the planes taller)
    for (const board of Array.from(document.querySelectorAll('.board'))) {
      const b = board.getBoundingClientRect();
      if (b.height < 180 || b.width < 180) below.push(`.board only ${Math.round(b.width)} × ${Math.round(b.height)}`);
    }
    return { scrollHeight: document.documentElement.scrollHeight, innerHeight, scrollWidth: document.documentElement.scrollWidth, below };
  }, selectors);
}

async function checkFit(page: Page, label: string, selectors: string[]): Promise<void> {
  const seen = await fit(page, selectors);
  console.log(`${label}: page ${seen.scrollHeight} px tall in ${seen.innerHeight}`);
  expect.soft(seen.below.join("; "), label).toBe("");
  expect.soft(seen.scrollHeight, label).toBeLessThanOrEqual(seen.innerHeight);
  expect.soft(seen.scrollWidth, label).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** At 1920 × 1080 and 1080 × 1920, in English and Spanish: `open` shows the page, `selectors` must be on it. */
async function checkScreens(page: Page, what: string, open: (lang: string) => Promise<void>, selectors: string[]): Promise<void> {
  for (const lang of ['en', 'es']) {
    await page.setViewportSize(WIDE);
    await open(lang);
    for (const size of [WIDE, TALL]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await checkFit(page, `${what} ${lang} ${size.width}×${size.height}`, selectors);
      await shot(page, `kiosk-fit-${what}-${lang}-${size.width}x${size.height}`);
    }
  }
}

describe.skipIf(!HAVE_CHROMIUM)("the demo station's screen fits one TV screen", () => {
  const t = useBrowserTable(TABLES, WIDE, {}, { tickMs: 200, stepMs: 400 });

  it("keeps a visitor's game, its card and what happened on the screen, in English and Spanish", async () => {
    const { server, page } = t;
    await rollScene(server, 'demo');
    await checkScreens(page, 'game', async (lang) => {
      await page.goto(`${server.url}/?kiosk=1&table=demo&lang=${lang}`);
      await page.getByTestId('confirm-roll').waitFor();
      await page.locator('.jap-card .card-islands').waitFor();
    }, ['.jap-card', '.history', '.roll-panel', '.plane-card', '.stopwatch', '.counters', '.board']);
    // the card says what the plane rolls for after its move; what each target is worth is said as skill
    expect(await page.getByTestId('action-1').textContent()).toBe('Ataque relámpago');
    await page.goto(`${server.url}/?kiosk=1&table=demo&lang=en`);
    await expect.poll(() => page.getByTestId('action-1').textContent()).toBe('Lightning attack');
    expect(await page.locator('.needs li').allInnerTexts()).toEqual(['3 equal dice → Jake (Island 10) (+2 skill)', '4 equal dice → Zeke (Island 10) (+3 skill)']);
    expect(t.errors).toEqual([]);
  });

  it("keeps the attract game, its banner and the day's strip on the screen", async () => {
    const { server, page } = t;
    await checkScreens(page, 'attract', async (lang) => {
      await page.goto(`${server.url}/?kiosk=1&table=attract&lang=${lang}`);
      await page.getByTestId('attract').waitFor({ timeout: 30_000 });
      await page.locator('.jap-card .card-islands').waitFor({ timeout: 30_000 });
    }, ['[data-testid=attract]', '[data-testid=day-stats]', '.jap-card', '.history', '.plane-card', '.stopwatch']);
    expect(t.errors).toEqual([]);
  });

  it("writes the card's note and the planes' labels large and dark enough to read from a step back", async () => {
    const { server, page } = t;
    // a Direct Hit drawn while the Yorktown is not spotted: the card says it has no effect
    await command(server, { type: 'newGame', players: 4, deck: 'physical', startIslands: [8, 9], seed: 3 }, 'note');
    await command(server, { type: 'cardDrawn', card: { islands: [5], plane: 'jake' } }, 'note');
    await command(server, { type: 'cardDrawn', card: { islands: [7], plane: 'kate' } }, 'note');
    await command(server, { type: 'cardDrawn', card: { islands: [3], plane: 'jake', directHit: true } }, 'note');
    await checkScreens(page, 'note', async (lang) => {
      await page.goto(`${server.url}/?kiosk=1&table=note&lang=${lang}`);
      await page.getByTestId('direct-hit-missed').waitFor();
    }, ['.jap-card', '[data-testid=direct-hit-missed]', '.plane-card']);
    await page.setViewportSize(WIDE);
    for (const lang of ['en', 'es']) {
      await page.goto(`${server.url}/?kiosk=1&table=note&lang=${lang}`);
      await page.getByTestId('direct-hit-missed').waitFor();
      const seen = await page.evaluate(() => {
        const rgb = (c: string) => c.match(/[\d.]+/g)!.slice(0, 3).map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const note = document.querySelector('[data-testid=direct-hit-missed]')!;
        const [a, b] = [lum(getComputedStyle(note).color), lum(getComputedStyle(note.closest('.jap-card')!).backgroundColor)];
        const labels = Array.from(document.querySelectorAll('.plane-card dt')).map((dt) => parseFloat(getComputedStyle(dt).fontSize));
        return { contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), smallest: Math.min(...labels) };
      });
      expect(seen.contrast, `${lang}: the note's contrast`).toBeGreaterThanOrEqual(4.5);
      expect(seen.smallest, `${lang}: the planes' smallest label`).toBeGreaterThanOrEqual(14);
    }
    expect(t.errors).toEqual([]);
  });

  it("names the game once in the header of a station named after it", async () => {
    const { server, page } = t;
    await page.setViewportSize(TALL);
    for (const table of ['titled', 'demo']) {
      await page.goto(`${server.url}/?kiosk=1&table=${table}&lang=en`);
      await page.getByTestId('table-name').waitFor();
      const brand = await page.locator('.chrome .brand').innerText();
      expect(brand.split('1942 USS Yorktown').length - 1, brand).toBe(1);
    }
    expect(t.errors).toEqual([]);
  });
});
