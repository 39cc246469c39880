/**
 * A roll on a 1366 × 768 laptop or TV (and 1280 to 1920 px, and phones): the roll's buttons and the
 * dice entry in sight without scrolling, on the table and the demo station's screens; every figure on
 * a plane card clearly apart from the next ("Fuel 14, Skill 0" once read as "140").
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, command, rollScene, shot, unlock, useBrowserTable } from './harness.ts';

const TABLES = {
  tables: [
    { id: 'default', name: 'Table', camera: { source: 'synthetic' } },
    { id: 'demo', name: 'Demo station', camera: { source: 'synthetic' }, kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 60, idleResetMinutes: null } },
  ],
};

/** The roll's controls that are not inside the viewport (scrolled to the top). */
async function controlsOutOfView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    const out: string[] = [];
    for (const sel of ['[data-testid=throw]', '[data-testid=confirm-roll]', '[data-testid=undo-roll]', 'details.manual > summary']) {
      const box = document.querySelector(sel)?.getBoundingClientRect();
      if (!box || box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth) out.push(`${sel} ${box ? `${Math.round(box.top)}-${Math.round(box.bottom)}` : 'missing'}`);
    }
    return out;
  });
}

/**
 * On every plane card: the horizontal space between the glyphs of each two figures side by side (fuel,
 * skill, dice, cockpit) and between the number badge and the plane's name; figures that overlap are listed.
 */
async function cardGaps(page: Page): Promise<{ figures: number[]; badge: number[]; overlaps: string[]; scrollWidth: number }> {
  return page.evaluate(() => {
    const ink = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect();
    };
    const figures: number[] = [];
    const badge: number[] = [];
    const overlaps: string[] = [];
    for (const card of document.querySelectorAll('.plane-card')) {
      const boxes = Array.from(card.querySelectorAll('.stat:not(.wide) > dd:not(.bar)')).map(ink);
      if (boxes.length !== 4) overlaps.push(`plane ${card.getAttribute('data-plane')}: ${boxes.length} figures`);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          const sameRow = a.top < b.bottom && b.top < a.bottom;
          if (sameRow && a.left < b.right && b.left < a.right) overlaps.push(`plane ${card.getAttribute('data-plane')}: figures ${i} and ${j}`);
          if (sameRow && j === i + 1) figures.push(Math.round(b.left - a.right));
        }
      }
      const name = card.querySelector('.plane-name');
      const round = card.querySelector('.plane-badge');
      if (name && round) badge.push(Math.round(ink(name).left - round.getBoundingClientRect().right));
    }
    return { figures, badge, overlaps, scrollWidth: document.documentElement.scrollWidth };
  });
}

/**
 * The plane cards' selects whose chosen option is not shown whole: its text longer than the select's room
 * on one line, and the select not grown to hold it on the lines it wraps to.
 */
async function selectsCut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const sel of document.querySelectorAll<HTMLSelectElement>('.plane-card select')) {
      const style = getComputedStyle(sel);
      ctx.font = style.font;
      const text = sel.selectedOptions[0]?.text ?? '';
      const fontSize = parseFloat(style.fontSize);
      // the select's own width less its padding and the arrow beside the text
      const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * fontSize;
      const lines = Math.ceil(ctx.measureText(text).width / room);
      const wraps = style.appearance === 'base-select' && style.whiteSpace !== 'nowrap';
      if (lines > 1 && !(wraps && sel.clientHeight >= lines * fontSize * 1.1)) out.push(`${sel.name} "${text}" in ${sel.clientWidth} px`);
    }
    return out;
  });
}

/** Picks the longest choice a plane card's destination lists (the one most likely cut). */
async function pickLongestDestinations(page: Page): Promise<void> {
  for (const sel of await page.locator('.plane-card select[name^="to-"]').all()) {
    const longest = await sel.evaluate((el: HTMLSelectElement) => Array.from(el.options).filter((o) => !o.disabled).sort((a, b) => b.text.length - a.text.length)[0]!.value);
    await sel.selectOption(longest);
  }
}

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1280, height: 800 },
  { width: 1600, height: 900 },
  { width: 1920, height: 1080 },
];
const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 800 },
];

async function checkCards(page: Page, label: string, width: number): Promise<void> {
  await page.locator('.plane-card').first().waitFor();
  const gaps = await cardGaps(page);
  expect(gaps.overlaps, label).toEqual([]);
  expect(gaps.figures.length, label).toBeGreaterThan(0);
  expect(Math.min(...gaps.figures), `${label}: figures ${gaps.figures.join(' ')}`).toBeGreaterThanOrEqual(10);
  expect(Math.min(...gaps.badge), `${label}: badge ${gaps.badge.join(' ')}`).toBeGreaterThanOrEqual(7);
  expect(gaps.scrollWidth, label).toBeLessThanOrEqual(width);
}

describe.skipIf(!HAVE_CHROMIUM)('a roll on a 1366 × 768 screen', () => {
  const t = useBrowserTable(TABLES, { width: 1366, height: 768 });

  it('keeps Throw, Confirm, Undo and the dice entry in sight on the table, and the plane cards\' figures apart', async () => {
    const { server, page } = t;
    await rollScene(server, 'default');
    await page.goto(`${server.url}/?lang=en`);
    await unlock(page);
    await page.getByTestId('confirm-roll').waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      const label = `table ${size.width}×${size.height}`;
      expect(await controlsOutOfView(page), label).toEqual([]);
      await checkCards(page, label, size.width);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, 'layout-1366-table-roll');
    // the Dice view's cards, beside the stopwatch
    await page.goto(`${server.url}/?view=roll&lang=en`);
    await page.getByTestId('confirm-roll').waitFor();
    for (const size of [...SIZES, ...PHONES]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      await checkCards(page, `dice view ${size.width}×${size.height}`, size.width);
    }
    // phones: the table's cards too (the buttons stay under the figures there, reached by scrolling)
    await page.goto(`${server.url}/?lang=en`);
    await page.getByTestId('confirm-roll').waitFor();
    for (const size of PHONES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      await checkCards(page, `table ${size.width}×${size.height}`, size.width);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(t.errors).toEqual([]);
  });

  it('keeps every word of a plane card inside the card, in Spanish too (longer words)', async () => {
    const { server, page } = t;
    await command(server, { type: 'newGame', players: 4, seed: 11 });
    await command(server, { type: 'drawCard' });
    for (const plane of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane, action: plane <= 2 ? 'takeoffLanding' : 'move' });
    for (const lang of ['en', 'es']) {
    await page.goto(`${server.url}/?lang=${lang}`);
    await page.getByTestId('phase').waitFor();
    if (await page.getByTestId('unlock').count()) await unlock(page); // the PIN given in an earlier test holds
    await page.locator('select[name=to-3]').waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      const sticking = await page.evaluate(() => {
        const out: string[] = [];
        for (const card of document.querySelectorAll('.plane-card')) {
          const edge = card.getBoundingClientRect();
          for (const el of card.querySelectorAll('dd, button, select, .form-row')) {
            const box = el.getBoundingClientRect();
            if (box.width > 0 && (box.right > edge.right + 1 || box.left < edge.left - 1)) out.push(`plane ${card.getAttribute('data-plane')} ${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.right - edge.right)} px`);
            if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1) out.push(`plane ${card.getAttribute('data-plane')} button "${(el.textContent ?? '').trim().slice(0, 30)}" cut`);
            // a word wraps whole or not at all: "Aterriza|r" split over two lines reads as two words
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent ?? '';
              for (const m of text.matchAll(/\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                if (lines.size > 1) out.push(`plane ${card.getAttribute('data-plane')} word "${m[0]}" split`);
              }
            }
          }
        }
        return out;
      });
      expect(sticking, `${lang} ${size.width}×${size.height}`).toEqual([]);
    }
    }
    // a destination longer than the card is wide ("Isla 10 (3 de combustible, sobrevolando 9)") shown whole, on a phone too
    await pickLongestDestinations(page);
    for (const size of [...SIZES, PHONES[0]!]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      expect(await selectsCut(page), `${size.width}×${size.height}`).toEqual([]);
    }
    await shot(page, 'layout-390-destination-es');
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(t.errors).toEqual([]);
  });

  it('keeps them in sight on the demo station\'s screen too', async () => {
    const { server, page } = t;
    await rollScene(server, 'demo');
    await page.goto(`${server.url}/?kiosk=1&table=demo&lang=en`);
    await page.getByTestId('confirm-roll').waitFor();
    for (const size of [...SIZES, ...PHONES]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      const label = `kiosk ${size.width}×${size.height}`;
      if (size.width >= 1280) expect(await controlsOutOfView(page), label).toEqual([]);
      await checkCards(page, label, size.width);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, 'layout-1366-kiosk-roll');
    expect(t.errors).toEqual([]);
  });
});
