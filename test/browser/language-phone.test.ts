/** Switching language (remembered across reloads) and the phone view on a 360×640 screen. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaries } from '../../web/src/i18n.ts';
import { HAVE_CHROMIUM, answerAsk, api, buildWeb, command, launch, shot, startServer, tableState, unlock, watchErrors, type RunningServer } from './harness.ts';

describe.skipIf(!HAVE_CHROMIUM)('language and phone', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    browser = await launch();
    await command(server, { type: 'newGame', players: 2, seed: 11, difficulty: 30 });
    await command(server, { type: 'drawCard' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('every string exists in both languages', () => {
    const en = Object.keys(dictionaries.en).sort();
    expect(Object.keys(dictionaries.es).sort()).toEqual(en);
    for (const key of en) expect(dictionaries.es[key as keyof typeof dictionaries.es].trim(), key).not.toBe('');
  });

  it('every string takes the same {placeholders} in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(dictionaries.en) as (keyof typeof dictionaries.en)[]) {
      expect(placeholders(dictionaries.es[key]), key).toEqual(placeholders(dictionaries.en[key]));
    }
  });

  it('switches to Spanish with the rulebook terms and remembers it', async () => {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchErrors(page);
    await page.goto(`${server.url}/?view=table`);
    await page.getByTestId('lang').selectOption('en');
    await expect.poll(() => page.getByTestId('nav-table').textContent()).toBe('Table');
    expect(await page.getByTestId('table-name').textContent()).toBe('Table 1');
    await page.getByTestId('lang').selectOption('es');
    await expect.poll(() => page.getByTestId('nav-table').textContent()).toBe('Mesa');
    // the service's own name for its one table (no tables file) is said in the page's language
    expect(await page.getByTestId('table-name').textContent()).toBe('Mesa 1');
    expect(await page.getByTestId('phase').textContent()).toBe('Acciones de los jugadores');
    expect(await page.locator('.plane-card').first().textContent()).toContain('Combustible');
    await page.reload();
    await expect.poll(() => page.getByTestId('nav-wizard').textContent()).toBe('Nueva partida');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await shot(page, 'table-display-es');
    await page.getByTestId('lang').selectOption('en');
    await expect.poll(() => page.getByTestId('nav-wizard').textContent()).toBe('New game');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works on a 360×640 phone: seat picker, planes, action choice', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const errors = watchErrors(page);
    await page.goto(`${server.url}/?view=phone&lang=en`);
    await page.getByTestId('seat-2').click();
    await expect.poll(() => page.locator('.plane-card').count()).toBe(2); // two players: planes 3 and 4 fly for seat 2
    expect(new URL(page.url()).searchParams.get('seat')).toBe('2');
    await unlock(page);
    // from a red island a search can do nothing: asked first; "no" leaves it unchosen, "yes" chooses it anyway
    await page.getByTestId('choose-3-search').click();
    await answerAsk(page, false);
    expect(((await tableState(server)).planes as { action: string | null }[])[2]!.action).toBeNull();
    await page.getByTestId('choose-3-search').click();
    expect(await answerAsk(page, true)).toBe('Plane 3: Search can do nothing this turn (not an orange island). The plane could only skip it, losing 1 fuel. Choose it anyway?');
    await expect.poll(async () => ((await tableState(server)).planes as { id: number; action: string | null }[])[2]!.action).toBe('search');
    await expect.poll(() => page.getByTestId('action-3').textContent()).toBe('Search');
    // nothing wider than the screen
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    // tap targets stay large enough for a finger
    const box = await page.getByTestId('choose-3-move').boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await shot(page, 'phone');
    // a player's menu: the table, the dice and the phone (set-up and hardware pages from the table's)
    expect(await page.locator('nav .nav-btn').allTextContents()).toEqual(['Table', 'Dice', 'Phone']);
    // the turn's Japanese card in one line
    const card = (await tableState(server)).lastCard as { islands: number[]; plane: string };
    expect(await page.getByTestId('phone-card').textContent()).toMatch(new RegExp(`^Japanese card: ${card.islands.join(' \\+ ')} · ${dictionaries.en[`jap_${card.plane}` as keyof typeof dictionaries.en]}`));
    // the board and counters, folded until asked for, fit the screen and stay open through a state push
    const board = page.getByTestId('phone-board');
    expect(await board.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await board.locator('summary').click();
    await expect.poll(() => board.locator('svg.board .island').count()).toBe(10);
    expect(await board.locator('.counters').count()).toBe(1);
    await page.getByTestId('choose-3-move').click();
    await expect.poll(() => page.getByTestId('action-3').textContent()).toBe('Move');
    expect(await board.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await board.scrollIntoViewIfNeeded();
    await shot(page, 'phone-board');
    // every control a finger must hit is at least 44 px tall
    const small = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('button, summary, select, input[type=checkbox]'))
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({ what: el.dataset.testid ?? el.textContent?.trim().slice(0, 30) ?? el.tagName, h: Math.round(el.getBoundingClientRect().height) }))
      .filter((x) => x.h < 44));
    expect(small).toEqual([]);
    // a tap in the wrong place is taken back on the phone, and it says what it took back
    await page.getByTestId('phone-undo').click();
    await expect.poll(() => page.getByTestId('action-3').textContent()).toBe('Search');
    expect(await page.locator('.toast-ok').textContent()).toBe("Undone: plane 3's action chosen (seat 2).");
    expect(errors).toEqual([]);
    await page.close();
  });

  it('gives a phone the turn\'s next step as a button: End turn once every plane has acted, then Draw the card', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const errors = watchErrors(page);
    await page.goto(`${server.url}/phone/2?lang=en`);
    await unlock(page);
    type Plane = { id: number; action: string | null; done: boolean };
    const planes = async () => (await tableState(server)).planes as Plane[];
    // not yet: some planes have still to act
    expect(await page.getByTestId('end-turn').count()).toBe(0);
    for (const p of await planes()) if (p.action === null) await command(server, { type: 'chooseAction', plane: p.id, action: 'move' });
    for (const p of await planes()) if (!p.done) await command(server, { type: 'skipAction', plane: p.id });
    await page.getByTestId('end-turn').click();
    await expect.poll(async () => (await tableState(server)).phase).toBe('japanese');
    await page.getByTestId('draw-card').click();
    await expect.poll(async () => (await tableState(server)).phase).toBe('planes');
    await expect.poll(() => page.getByTestId('draw-card').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs under its strict Content-Security-Policy with nothing from outside', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url) && !req.url().startsWith('ws://127.0.0.1')) outside.push(req.url());
    });
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(`${server.url}/?view=table&lang=en`);
    const csp = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    await expect.poll(() => page.locator('.plane-card').count()).toBe(4);
    await expect.poll(() => page.locator('svg.board .island').count()).toBe(10);
    // widths set through the CSSOM (fuel bars) are allowed by style-src 'self'
    const width = await page.locator('.bar-fill').first().evaluate((el) => (el as HTMLElement).style.width);
    expect(width).toMatch(/%$/);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    // the policy is really in force: an inline script is refused
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    });
    // one report per policy in force (the page's meta tag, and the service's header when it sends one)
    await expect.poll(() => page.evaluate(() => (window as unknown as { violations: string[] }).violations.length)).toBeGreaterThan(0);
    const reports = await page.evaluate(() => (window as unknown as { violations: string[] }).violations);
    expect(new Set(reports)).toEqual(new Set(['script-src-elem inline']));
    expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
    await page.close();
  });

  it('shows a phone its dealt tile once the PIN is typed into its prompt (the last test: a new game)', async () => {
    await command(server, { type: 'newGame', players: 2, seed: 11, difficulty: 30, expansions: { expertManoeuvres: true } });
    const page = await browser.newPage({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const errors = watchErrors(page);
    await page.goto(`${server.url}/phone/2?lang=en`);
    await expect.poll(() => page.getByTestId('tile-3').textContent()).toBe('face down');
    await unlock(page);
    const { data } = await api(server, 'GET', '/api/tables/default/seats/2/secrets');
    const tile = (data.secrets as { tiles: { plane: number; manoeuvre: string }[] }).tiles.find((x) => x.plane === 3)!;
    const name = dictionaries.en[`man_${tile.manoeuvre}` as keyof typeof dictionaries.en];
    // with what it does
    const why = dictionaries.en[`manWhy_${tile.manoeuvre}` as keyof typeof dictionaries.en];
    await expect.poll(() => page.getByTestId('tile-3').textContent()).toBe(`${name} (only on your phone)${why}`);
    expect(await page.getByTestId('tile-why-3').textContent()).toBe(why);
    expect(errors).toEqual([]);
    await page.close();
  });
});
