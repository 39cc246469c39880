/**
 * The Statistics page, opened from the header's Set-up menu without the PIN once games were played:
 * the range's totals, a row per day (newest first, days without a game too), the CSV link, two days
 * picked, on a 1280 px screen and a 360 px phone.
 */
import { describe, expect, it } from 'vitest';
import { localDay, shiftDay } from '../../server/store/local-days.ts';
import { HAVE_CHROMIUM, command, runOutTime, shot, testClock, useBrowserTable } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('statistics page', () => {
  const clock = testClock();
  const table = useBrowserTable(undefined, { width: 1280, height: 900 }, {}, undefined, clock.now);
  const page = () => table.page;
  const today = localDay(Date.now());
  const threeDaysAgo = shiftDay(today, -3);
  const text = (testId: string) => page().getByTestId(testId).textContent();
  const cells = (day: string) => page().getByTestId(`stats-day-${day}`).locator('th, td').allTextContents();

  it('opens from the Set-up menu and shows the last 7 days: totals, every day newest first, the CSV', async () => {
    // today: a game lost on time, one left for a new game after its first card, and that one lost on time too
    await command(table.server, { type: 'newGame', players: 2, seed: 5 });
    runOutTime(table.server, clock);
    await command(table.server, { type: 'newGame', players: 2, seed: 6 });
    await command(table.server, { type: 'drawCard' });
    await command(table.server, { type: 'newGame', players: 2, seed: 7 });
    runOutTime(table.server, clock);
    // the end screen cleared (a finished game is not left unfinished)
    await command(table.server, { type: 'resetTable' });
    // a game started and cleared with no move made (a stray tap): said apart, counted in neither
    await command(table.server, { type: 'newGame', players: 2, seed: 8 });
    await command(table.server, { type: 'resetTable' });
    // three days ago: a game won in 20 minutes
    const wonAt = new Date(`${threeDaysAgo}T15:00:00`).getTime();
    table.server.service.stats.record({ tableId: 'default', game: 'yorktown1942', startedSeq: 1000, startedAt: wonAt - 20 * 60_000, endedAt: wonAt, result: 'won', cause: 'shohoSunk', attract: false, details: {} });

    await page().goto(`${table.server.url}/?lang=en`);
    await page().locator('#app[data-seq]').waitFor();
    await page().getByTestId('setup-menu-open').click();
    await page().getByTestId('nav-stats').click();
    await page().getByTestId('stats-page').waitFor();
    expect(new URL(page().url()).searchParams.get('view')).toBe('stats');
    expect(await text('setup-menu-open')).toBe('Statistics ▾');
    expect(await page().getByTestId('stats-last-7').getAttribute('aria-pressed')).toBe('true');
    expect(await page().getByTestId('stats-from').inputValue()).toBe(shiftDay(today, -6));
    expect(await page().getByTestId('stats-to').inputValue()).toBe(today);

    await expect.poll(() => text('stats-total-games')).toBe('3');
    expect(await text('stats-total-wins')).toBe('1 (33.3 %)');
    expect(await text('stats-total-left')).toBe('1 (a new game in its place 1)');
    expect(await text('stats-total-untouched')).toBe('1');
    expect(await text('defeats-time')).toBe('Time ran out: 2');
    expect(await page().getByTestId('unlock').count()).toBe(1); // watching: no PIN asked

    const rows = page().locator('[data-testid=stats-days] tbody tr');
    expect(await rows.count()).toBe(7);
    expect(await rows.first().getAttribute('data-testid')).toBe(`stats-day-${today}`);
    expect(await rows.last().getAttribute('data-testid')).toBe(`stats-day-${shiftDay(today, -6)}`);
    expect((await cells(today)).slice(1, 4)).toEqual(['2', '0', '1']);
    expect((await cells(threeDaysAgo)).slice(1)).toEqual(['1', '1', '0', '20′ 00″']);
    expect((await cells(shiftDay(today, -1))).slice(1)).toEqual(['0', '0', '0', '—']);

    const href = await page().getByTestId('stats-csv').getAttribute('href');
    expect(href).toBe(`/api/tables/default/stats/games.csv?from=${shiftDay(today, -6)}&to=${today}`);
    const csv = await (await fetch(`${table.server.url}${href}`)).text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(6); // the header and five games (the untouched one too)
    await shot(page(), 'stats-1280');
    expect(table.errors).toEqual([]);
  });

  it('shows two days picked, says when they are the wrong way round, and the last 30 days', async () => {
    await page().getByTestId('stats-from').fill(threeDaysAgo);
    await page().getByTestId('stats-to').fill(threeDaysAgo);
    await expect.poll(() => text('stats-total-wins')).toBe('1 (100.0 %)');
    expect(await page().getByTestId('stats-last-7').getAttribute('aria-pressed')).toBe('false');
    expect(await page().locator('[data-testid=stats-days] tbody tr').count()).toBe(1);

    await page().getByTestId('stats-from').fill(today);
    expect(await text('stats-problem')).toBe('The first day is after the last one: pick them the other way round.');
    expect(await page().getByTestId('stats-totals').count()).toBe(0);

    await page().getByTestId('stats-last-30').click();
    await expect.poll(() => page().locator('[data-testid=stats-days] tbody tr').count()).toBe(30);
    expect(await text('stats-total-games')).toBe('3');
    expect(table.errors).toEqual([]);
  });

  it('fits a 360 px phone, in Spanish too', async () => {
    await page().setViewportSize({ width: 360, height: 640 });
    await page().goto(`${table.server.url}/?view=stats&lang=es`);
    await expect.poll(() => text('stats-total-games')).toBe('3');
    expect(await page().locator('.stats-page h2').textContent()).toBe('Estadísticas de partidas');
    expect(await text('setup-menu-open')).toBe('Estadísticas ▾');
    expect(await text('stats-csv')).toBe('Descargar CSV');
    await shot(page(), 'stats-phone-es');
    // nothing wider than the screen: no sideways scrolling
    expect(await page().evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // the day by day table too, which would scroll sideways on its own
    expect(await page().locator('.stats-days-scroll').evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    await page().setViewportSize({ width: 1280, height: 900 });
    expect(table.errors).toEqual([]);
  });
  it("counts the last days to the service's today, whatever the browser's time zone", async () => {
    // a zone whose date is not the service's now: of UTC+14 and UTC-12 one always differs
    const dateIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    const zone = ['Etc/GMT-14', 'Etc/GMT+12'].find((z) => dateIn(z) !== today)!;
    const far = await page().context().browser()!.newPage({ viewport: { width: 1280, height: 900 }, timezoneId: zone });
    await far.goto(`${table.server.url}/?view=stats&lang=en`);
    await far.getByTestId('stats-page').waitFor();
    await expect.poll(() => far.getByTestId('stats-to').inputValue()).toBe(today);
    expect(await far.getByTestId('stats-from').inputValue()).toBe(shiftDay(today, -6));
    await far.close();
  });
});
