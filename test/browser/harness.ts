/**
 * Shared set-up of the browser tests: builds the dashboard once, starts the real service
 * in-process (ephemeral port, temporary data folder, fixed PIN), and launches Debian's Chromium
 * through playwright-core. Tests skip with a message when /usr/bin/chromium is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { loadServiceConfig } from '../../server/config/service-config.ts';
import { buildApp } from '../../server/http/app.ts';
import { databaseFileIn } from '../../server/store/database.ts';
import { DiceSampleStore } from '../../server/store/dice-sample-store.ts';
import { tableGames } from '../../server/table/games.ts';
import { startHardware } from '../../server/table/table-hardware.ts';
import type { KioskOptions } from '../../server/table/kiosk.ts';
import { TableService } from '../../server/table/table-service.ts';
import { createDiceReader } from '../../server/vision/index.ts';
import { DiceModels } from '../../server/vision/dice-models.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const PIN = '4321';
export const ROOT = resolve(import.meta.dirname, '../..');
export const SHOTS = join(ROOT, 'test-output', 'screenshots');

if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds web/dist unless it is newer than every source it bundles (`npm run test:browser` builds it first). */
export function buildWeb(): void {
  const bundle = join(ROOT, 'web', 'dist', 'app.js');
  // the bundle also holds engine code (ruleset, board, dice odds), the table's list of recent events, and the statistics' calendar and longest range
  const sources = Math.max(...['web/src', 'web/public', 'server/games', 'server/dice', 'server/table', 'server/store', 'server/http'].map((d) => newestSource(join(ROOT, d))));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs')], { cwd: ROOT, stdio: 'pipe' });
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
  service: TableService;
  /** the service's temporary data folder (removed by close) */
  dataDir: string;
  /** where the dashboard's labelled dice photos are saved (`<dataDir>/dice-samples`) */
  samplesDir: string;
  /** the dice model read and taught from the dashboard */
  models: DiceModels;
}

/**
 * Starts the real service. `tables` is the content of a FLIGHTDECK_CONFIG file (default: one
 * table); `kiosk` the demo-station timing (faster than a real station's, for tests); `now` the
 * tables' wall clock (to move a game close to its deadline).
 */
/** model:adapt made short for the dashboard's "Teach" (a few steps of each stage; written even if no better). */
/**
 * The teaching at the service's own CPU priority: niced, it gets little of a machine busy with the other
 * test files, and would take as long as they leave it (the service's nice is checked in dice-model-routes).
 */
const TEST_TEACHING_PRIORITY = 0;
export const SHORT_TEACHING = ['--scenes', '2', '--real-photos', '0', '--epochs', '1', '--per-die', '2', '--detector-steps', '3', '--keep-worse'];

export async function startServer(tables?: unknown, kiosk?: Partial<KioskOptions>, now?: () => number): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fd-browser-'));
  const env: NodeJS.ProcessEnv = { PORT: '0', HOST: '127.0.0.1', TABLE_PIN: PIN, FLIGHTDECK_DATA: dataDir };
  if (tables !== undefined) {
    const file = join(dataDir, 'tables.json');
    writeFileSync(file, JSON.stringify(tables));
    env.FLIGHTDECK_CONFIG = file;
  }
  const config = loadServiceConfig(env);
  mkdirSync(config.dataDir, { recursive: true });
  const samplesDir = join(dataDir, 'dice-samples');
  let models: DiceModels | null = null;
  const { app, service } = await buildApp({
    logger: false,
    samples: new DiceSampleStore(samplesDir),
    service: (log) => new TableService({ config, dbFile: databaseFileIn(config.dataDir), games: tableGames, log, ...(kiosk ? { kiosk } : {}), ...(now ? { now } : {}) }),
    models: (log) =>
      (models = new DiceModels({ dataDir: config.dataDir, configuredDir: config.modelDir, photosDir: samplesDir, openReader: (modelDir) => createDiceReader({ modelDir }), log, teacher: { extraArgs: SHORT_TEACHING, priority: TEST_TEACHING_PRIORITY } })),
    hardware: async (svc, log) => startHardware(svc, { reader: () => models!.open(), log }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    service,
    dataDir,
    samplesDir,
    models: models!,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Collects page errors so a test can assert the page never threw. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text());
  });
  return errors;
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Answers the page's yes/no question (`web/src/views/ask.ts`) when it opens; returns what it asked. */
export async function answerAsk(page: Page, yes: boolean): Promise<string> {
  const dialog = page.getByTestId('ask');
  await dialog.waitFor();
  const text = await dialog.locator('.ask-text').innerText();
  await dialog.getByTestId(yes ? 'ask-yes' : 'ask-no').click();
  await dialog.waitFor({ state: 'detached' });
  return text;
}

/** Opens the PIN prompt and unlocks the controls. */
export async function unlock(page: Page): Promise<void> {
  await page.getByTestId('unlock').click();
  await page.getByTestId('pin-input').fill(PIN);
  await page.getByTestId('pin-submit').click();
  await page.getByTestId('control-state').waitFor();
}

/** Whether the page asks before the tab is closed or reloaded (its beforeunload is cancelled). */
export function leavingIsHeld(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const e = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  });
}

/** The manual dice entry is folded away while the camera reads the dice: open it. */
export async function openManualEntry(page: Page): Promise<void> {
  const details = page.locator('details.manual').first();
  await details.waitFor();
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
}

/** Opens the form for a Japanese card missing from the deck list (unless it is open already). */
export async function openOtherCard(page: Page): Promise<void> {
  const details = page.locator('details.other-card').first();
  await details.waitFor();
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
  await page.locator('select[name=card-island-a]').waitFor({ state: 'visible' });
}

type Json = Record<string, unknown>;

/** The service's HTTP API (for long stretches of play). */
export async function api(server: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; data: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${PIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json()) as Json;
  return { status: res.status, data };
}

/**
 * Sends a command, as a player who waits when told the dice are still moving (the simulated camera
 * throws the dice of each roll it is shown, and Confirm waits until they rest).
 */
export async function command(server: RunningServer, cmd: Json, table = 'default'): Promise<Json> {
  const waitUntil = Date.now() + 20_000;
  for (;;) {
    const { status, data } = await api(server, 'POST', `/api/tables/${table}/commands`, cmd);
    if (status === 200) return data;
    const code = (data as { error?: { code?: string } }).error?.code;
    if ((code === 'diceMoving' || code === 'diceBeingRead') && Date.now() < waitUntil) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    throw new Error(`${String(cmd.type)} refused (${status}): ${JSON.stringify(data)}`);
  }
}

/** Plane 1 flies to island 10 (a Jake and a Zeke there with seed 11) and attacks at once: the card drawn, a continuous roll. */
export async function rollScene(server: RunningServer, table: string): Promise<void> {
  await command(server, { type: 'newGame', players: 4, seed: 11 }, table);
  await command(server, { type: 'drawCard' }, table);
  for (const plane of [1, 2, 3, 4]) await command(server, { type: 'chooseAction', plane, action: plane === 1 ? 'move' : 'search' }, table);
  await command(server, { type: 'move', plane: 1, to: 10 }, table);
  await command(server, { type: 'lightningAttack', plane: 1 }, table);
}

/** The usual scene of the plane tests: a physical game (planes 3 and 4 on red islands 8 and 9) with the set-up cards placed (a Jake on 5, a Kate on 7); `turnCard` draws turn 1's (a Jake on 3). */
export async function physicalScene(server: RunningServer, options: Record<string, unknown>, turnCard = true): Promise<void> {
  await command(server, { type: 'newGame', players: 4, deck: 'physical', startIslands: [8, 9], seed: 3, ...options });
  await command(server, { type: 'cardDrawn', card: { islands: [5], plane: 'jake' } });
  await command(server, { type: 'cardDrawn', card: { islands: [7], plane: 'kate' } });
  if (turnCard) await command(server, { type: 'cardDrawn', card: { islands: [3], plane: 'jake' } });
}

/** The service's wall clock in a test (startServer's `now`): the real one, moved on by `advance`. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

/**
 * A clock the test moves on to a game's deadline (runOutTime). `span`: how far the test will move it
 * in all (a test game's stopwatch is under an hour); late in the day the clock starts that much behind
 * the real one, so that the games it ends stay on today's date in the statistics.
 */
export function testClock(span = 2 * 60 * 60_000): TestClock {
  const midnight = new Date();
  midnight.setHours(24, 0, 0, 0);
  const margin = 15 * 60_000;
  let offset = midnight.getTime() - Date.now() < span + margin ? -(span + margin) : 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}

/**
 * The stopwatch of the table's game runs out: `clock` (the service's) moves on to its deadline and the
 * table gets the timeUp its stopwatch sends then (Table.timeUp), in the same turn of the event loop: a
 * demo station's kiosk, on the same clock, never sees the game idle for all that time before it ends.
 */
export function runOutTime(server: RunningServer, clock: TestClock, tableId = 'default'): Json {
  const table = server.service.tables.get(tableId);
  const deadline = (table?.state as { deadline?: number | null } | undefined)?.deadline;
  if (!table || typeof deadline !== 'number') throw new Error(`runOutTime: no stopwatch running at table "${tableId}"`);
  clock.advance(Math.max(0, deadline - clock.now()));
  const ack = table.submit({ type: 'timeUp' }, 'stopwatch');
  if (!ack.ok) throw new Error(`timeUp refused at the deadline: ${JSON.stringify(ack.error)}`);
  return ack as unknown as Json;
}

export async function tableState(server: RunningServer, table = 'default'): Promise<Json> {
  const { data } = await api(server, 'GET', `/api/tables/${table}/state`);
  return data.state as Json;
}

/** The service, Chromium and one page, shared by the tests of a describe block. */
export interface BrowserTable {
  readonly server: RunningServer;
  readonly page: Page;
  /** the page's errors so far (watchErrors) */
  readonly errors: string[];
}

/**
 * Starts the service (startServer's `tables`, `kiosk` and `now`) and Chromium with one page of `viewport` (a phone's touch
 * screen with `device`) before the tests of the calling describe block, and closes them after; `buildWeb` first.
 */
export function useBrowserTable(tables: unknown, viewport = { width: 1280, height: 900 }, device: { isMobile?: boolean; hasTouch?: boolean } = {}, kiosk?: Partial<KioskOptions>, now?: () => number): BrowserTable {
  let started: { server: RunningServer; browser: Browser; page: Page; errors: string[] } | null = null;
  const running = () => {
    if (!started) throw new Error('useBrowserTable: the service and browser start in beforeAll');
    return started;
  };
  beforeAll(async () => {
    buildWeb();
    const server = await startServer(tables, kiosk, now);
    const browser = await launch();
    const page = await browser.newPage({ viewport, ...device });
    started = { server, browser, page, errors: watchErrors(page) };
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.server.close();
    started = null;
  });
  return {
    get server() {
      return running().server;
    },
    get page() {
      return running().page;
    },
    get errors() {
      return running().errors;
    },
  };
}
