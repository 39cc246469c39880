/**
 * A portrait table screen (a TV turned upright at a demo station, 1080 × 1920, and a 768 × 1366 one): no
 * sideways scrolling; during a roll the stopwatch, the status, the roll panel with its camera image and the
 * four plane cards in sight together on 1080 × 1920, without scrolling (the board may go under them), on
 * the table's and the demo station's screens, after a throw of the simulated camera too, in English and
 * Spanish (longer words); type large enough to read across the table.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, command, runOutTime, shot, tableState, testClock, unlock, useBrowserTable, type RunningServer } from './harness.ts';

const TABLES = {
  tables: [
    { id: 'default', name: 'Table', camera: { source: 'synthetic' } },
    { id: 'demo', name: 'Demo station', camera: { source: 'synthetic' }, kiosk: { attractAfterMinutes: null, resetAfterGameSeconds: 600, idleResetMinutes: null } },
  ],
};

const TALL = { width: 1080, height: 1920 };
const SMALL = { width: 768, height: 1366 };

/** A game with turn 1's card drawn: every plane to choose its action. */
async function playScene(server: RunningServer, table: string): Promise<void> {
  await command(server, { type: 'newGame', players: 4, seed: 11 }, table);
  await command(server, { type: 'drawCard' }, table);
}

/** Plane 1 flies to island 10 (a Jake and a Zeke there with this seed) and attacks at once: a continuous roll. */
async function rollScene(server: RunningServer, table: string): Promise<void> {
  for (const plane of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane, action: plane === 1 ? 'move' : 'search' }, table);
  await command(server, { type: 'move', plane: 1, to: 10 }, table);
  await command(server, { type: 'lightningAttack', plane: 1 }, table);
}

/** Throws the roll's dice with the simulated camera's button and waits for the camera's reading to be taken. */
async function throwAndRead(server: RunningServer, page: Page): Promise<void> {
  const readings = async () => ((await tableState(server)).roll as { tracker: { readings: number } }).tracker.readings;
  const before = await readings();
  await page.getByTestId('throw').click();
  await expect.poll(readings, { timeout: 30_000 }).toBeGreaterThan(before);
  await page.locator('.roll-panel .faces-row').first().waitFor();
}

interface Sight {
  /** the elements (selector and index) not wholly inside the viewport, scrolled to the top, with their box */
  outside: string[];
  /** how many elements each selector found */
  found: Record<string, number>;
  scrollWidth: number;
  /** the camera image's box, once the image has loaded (null before: every roll's update loads a new one) */
  frame: { width: number; height: number } | null;
}

/** Which of the elements of `selectors` (every match of each) are not wholly in the viewport, at the page's top. */
async function sight(page: Page, selectors: string[]): Promise<Sight> {
  return page.evaluate((sels) => {
    window.scrollTo(0, 0);
    const outside: string[] = [];
    const found: Record<string, number> = {};
    for (const sel of sels) {
      const all = Array.from(document.querySelectorAll(sel));
      found[sel] = all.length;
      all.forEach((el, i) => {
        const b = el.getBoundingClientRect();
        if (b.top < 0 || b.left < 0 || b.bottom > innerHeight + 0.5 || b.right > innerWidth + 0.5 || b.height === 0) {
          outside.push(`${sel}[${i}] ${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)}`);
        }
      });
    }
    const img = document.querySelector<HTMLImageElement>('.roll-panel img.frame');
    const box = img?.complete && img.naturalWidth > 0 ? img.getBoundingClientRect() : null;
    return { outside, found, scrollWidth: document.documentElement.scrollWidth, frame: box && { width: box.width, height: box.height } };
  }, selectors);
}

/** As `sight`, measured once the camera image shows (a new image is loaded at each of the camera's updates). */
async function sightWithFrame(page: Page, selectors: string[]): Promise<Sight> {
  let seen = await sight(page, selectors);
  for (let tries = 0; !seen.frame && tries < 50; tries++) {
    await page.waitForTimeout(100);
    seen = await sight(page, selectors);
  }
  expect(seen.frame, 'the camera image loaded').not.toBeNull();
  return seen;
}

/** Sets the viewport, lets the page lay out, and checks that nothing is wider than the screen. */
async function at(page: Page, size: { width: number; height: number }, label: string): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForTimeout(250);
  expect((await sight(page, [])).scrollWidth, `${label}: no sideways scrolling`).toBeLessThanOrEqual(size.width);
}

/** The roll in progress: on 1080 × 1920 everything asked for in sight; on 768 × 1366 the clock, the status, the roll's buttons and the camera. */
async function checkRoll(page: Page, label: string): Promise<void> {
  await at(page, TALL, `${label} ${TALL.width}×${TALL.height}`);
  const tall = await sightWithFrame(page, ['.stopwatch', '.counters', '[data-testid=roll-panel]', '.roll-panel .frame-wrap', '.roll-panel .dice-overlay', '.plane-card']);
  expect(tall.found['.plane-card'], label).toBe(4);
  expect(tall.found['.roll-panel .dice-overlay'], label).toBe(1);
  expect(tall.outside, `${label} ${TALL.width}×${TALL.height}: in sight without scrolling`).toEqual([]);
  // the camera image large enough to make out the dice boxes across the table
  expect(tall.frame!.width, label).toBeGreaterThanOrEqual(420);

  await at(page, SMALL, `${label} ${SMALL.width}×${SMALL.height}`);
  const small = await sightWithFrame(page, ['.stopwatch', '.counters', '[data-testid=confirm-roll]', '[data-testid=undo-roll]', '.roll-panel .frame-wrap', '.roll-panel .dice-overlay']);
  expect(small.outside, `${label} ${SMALL.width}×${SMALL.height}: in sight without scrolling`).toEqual([]);
  await page.setViewportSize(TALL);
}

/** Type read across the table on 1080 × 1920: the clock's figures, the planes' figures. */
async function checkType(page: Page, label: string): Promise<void> {
  const sizes = await page.evaluate(() => {
    const px = (sel: string) => Math.min(...Array.from(document.querySelectorAll(sel)).map((e) => parseFloat(getComputedStyle(e).fontSize)));
    return { clock: px('.stopwatch-time'), figures: px('.plane-figures dd'), text: parseFloat(getComputedStyle(document.documentElement).fontSize) };
  });
  expect(sizes.clock, `${label}: the stopwatch's figures`).toBeGreaterThanOrEqual(120);
  expect(sizes.figures, `${label}: the planes' figures`).toBeGreaterThanOrEqual(24);
  expect(sizes.text, `${label}: the base type`).toBeGreaterThanOrEqual(19);
}

describe.skipIf(!HAVE_CHROMIUM)('a portrait table screen', () => {
  const clock = testClock();
  const t = useBrowserTable(TABLES, TALL, {}, undefined, clock.now);

  it('fits the table between games and in play, without sideways scrolling', async () => {
    const { server, page } = t;
    await page.goto(`${server.url}/?lang=en`);
    await page.locator('.no-game').waitFor();
    for (const size of [TALL, SMALL]) {
      await at(page, size, `no game ${size.width}×${size.height}`);
      expect((await sight(page, ['.stopwatch', '.no-game'])).outside, `no game ${size.width}×${size.height}`).toEqual([]);
    }
    await unlock(page);
    await playScene(server, 'default');
    await page.locator('.plane-card').nth(3).waitFor();
    // the planes two by two: the four cards and their action buttons in sight on 1080 × 1920
    await at(page, TALL, 'in play');
    const play = await sight(page, ['.stopwatch', '.counters', '.plane-card', '.plane-card .action-choice']);
    expect(play.found['.plane-card']).toBe(4);
    expect(play.outside, 'in play 1080×1920').toEqual([]);
    await checkType(page, 'in play');
    await at(page, SMALL, 'in play 768×1366');
    expect((await sight(page, ['.stopwatch', '.counters'])).outside, 'in play 768×1366').toEqual([]);
    await page.setViewportSize(TALL);
    expect(t.errors).toEqual([]);
  });

  it('keeps the stopwatch, the status, the roll with its camera and the four planes in sight during a roll', async () => {
    const { server, page } = t;
    await rollScene(server, 'default');
    await page.getByTestId('confirm-roll').waitFor();
    await checkRoll(page, 'table, the roll begun');
    await checkType(page, 'table, a roll');
    await sightWithFrame(page, []);
    await shot(page, 'layout-portrait-table-roll');
    // the dice read (as typed in): the faces, what they take and the odds make the panel longer
    await command(server, { type: 'dice', faces: [3, 3, 5] });
    await page.locator('.roll-panel .faces-row .die').first().waitFor();
    await page.getByTestId('split').waitFor();
    await checkRoll(page, 'table, the dice read');
    await sightWithFrame(page, []);
    await shot(page, 'layout-portrait-table-dice');
    // a landscape screen and a phone keep their own layouts: three columns, the base type unchanged, a phone's buttons under the figures
    for (const [size, columns, type] of [[{ width: 1920, height: 1080 }, 3, 18], [{ width: 1366, height: 768 }, 3, 18], [{ width: 390, height: 844 }, 1, 16]] as const) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      const kept = await page.evaluate(() => ({
        columns: getComputedStyle(document.querySelector('.table-layout')!).gridTemplateColumns.split(' ').length,
        type: parseFloat(getComputedStyle(document.documentElement).fontSize),
        panel: getComputedStyle(document.querySelector('.roll-panel')!).display,
      }));
      expect(kept, `${size.width}×${size.height}`).toEqual({ columns, type, panel: size.width < 760 ? 'flex' : 'block' });
    }
    // Spanish: a long position ("zona de aproximación") stays inside its card on 768 px
    await page.goto(`${server.url}/?lang=es`);
    await page.getByTestId('confirm-roll').waitFor();
    await at(page, SMALL, 'es 768×1366');
    await at(page, TALL, 'es 1080×1920');
    // after a throw of the simulated camera (its buttons shown, the dice read kept or thrown again), in both languages
    await throwAndRead(server, page);
    await checkRoll(page, 'es, after a throw');
    await sightWithFrame(page, []);
    await shot(page, 'layout-portrait-table-throw-es');
    await page.goto(`${server.url}/?lang=en`);
    await page.getByTestId('confirm-roll').waitFor();
    await checkRoll(page, 'en, after a throw');
    expect(t.errors).toEqual([]);
  });

  it('shows the end of the game whole', async () => {
    const { server, page } = t;
    runOutTime(server, clock);
    await page.getByTestId('end-screen').waitFor();
    for (const size of [TALL, SMALL]) {
      await at(page, size, `end ${size.width}×${size.height}`);
      expect((await sight(page, ['.end-screen .overlay-box', '[data-testid=end-new-game]'])).outside, `end ${size.width}×${size.height}`).toEqual([]);
    }
    await page.setViewportSize(TALL);
    await shot(page, 'layout-portrait-end');
    expect(t.errors).toEqual([]);
  });

  it("does the same on the demo station's screen", async () => {
    const { server, page } = t;
    await page.goto(`${server.url}/?kiosk=1&table=demo&lang=en`);
    await page.getByTestId('kiosk-play').waitFor();
    for (const size of [TALL, SMALL]) {
      await at(page, size, `kiosk, no game ${size.width}×${size.height}`);
      expect((await sight(page, ['[data-testid=play-now]', '.stopwatch'])).outside, `kiosk, no game ${size.width}×${size.height}`).toEqual([]);
    }
    await page.setViewportSize(TALL);
    await playScene(server, 'demo');
    await page.locator('.plane-card').nth(3).waitFor();
    await at(page, TALL, 'kiosk, in play');
    expect((await sight(page, ['.stopwatch', '.counters', '.plane-card'])).outside, 'kiosk, in play 1080×1920').toEqual([]);
    await rollScene(server, 'demo');
    await page.getByTestId('confirm-roll').waitFor();
    await checkRoll(page, 'kiosk, the roll begun');
    await checkType(page, 'kiosk, a roll');
    await command(server, { type: 'dice', faces: [3, 3, 5] }, 'demo');
    await page.locator('.roll-panel .faces-row .die').first().waitFor();
    await page.getByTestId('split').waitFor();
    await checkRoll(page, 'kiosk, the dice read');
    await sightWithFrame(page, []);
    await shot(page, 'layout-portrait-kiosk-dice');
    runOutTime(server, clock, 'demo');
    await page.getByTestId('end-screen').waitFor();
    for (const size of [TALL, SMALL]) {
      await at(page, size, `kiosk, end ${size.width}×${size.height}`);
      expect((await sight(page, ['.end-screen .overlay-box', '[data-testid=end-new-game]'])).outside, `kiosk, end ${size.width}×${size.height}`).toEqual([]);
    }
    await page.setViewportSize(TALL);
    expect(t.errors).toEqual([]);
  });
});
