/**
 * scripts/kiosk-browser.sh: a demo station's browser is opened only once the service answers (one
 * started before it would stay on its own error page), on the kiosk page, full screen. The browser
 * here is a stand-in script that writes down how it was started.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { tempDir, testApp } from './helpers.ts';

const SCRIPT = join(import.meta.dirname, '../../scripts/kiosk-browser.sh');
const HAVE_CURL = existsSync('/usr/bin/curl') || existsSync('/bin/curl');
const BASH = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? 'bash';
let dir: ReturnType<typeof tempDir>;
const closers: (() => Promise<unknown>)[] = [];

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  dir.cleanup();
});

/** A port nothing listens on yet. */
async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!HAVE_CURL)('the demo station browser launcher', () => {
  it('waits for the service, then opens the kiosk page full screen', async () => {
    const port = await freePort();
    const opened = join(dir.dir, 'opened.txt');
    const browser = join(dir.dir, 'browser.sh');
    writeFileSync(browser, `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > '${opened}'\n`);
    chmodSync(browser, 0o755);
    const url = `http://127.0.0.1:${port}/?kiosk=1&table=default`;
    const child = spawn('bash', [SCRIPT, url], { env: { ...process.env, BROWSER: browser, KIOSK_ONCE: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr.on('data', (d) => (said += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    closers.push(async () => {
      if (child.exitCode === null) child.kill();
    });
    // no service yet: it waits, and opens nothing
    await expect.poll(() => said, { timeout: 15_000 }).toContain('waiting for the service');
    expect(existsSync(opened)).toBe(false);
    const built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: { tally: tallyAdapter }, tables: [{ game: 'tally' }] });
    closers.push(() => built.app.close());
    await built.app.listen({ port, host: '127.0.0.1' });
    expect(await exited).toBe(0);
    const args = readFileSync(opened, 'utf8').trim().split('\n');
    expect(args).toContain('--kiosk');
    // a visitor cannot pinch the page out of shape or swipe back off it
    expect(args).toEqual(expect.arrayContaining(['--disable-pinch', '--overscroll-history-navigation=0']));
    // said once that it waits, with no curl error every 2 s
    expect(said.match(/waiting for the service/g)).toHaveLength(1);
    expect(said).not.toMatch(/curl:/);
    // a profile of its own (a browser already running would take the address and return at once)
    expect(args.some((a) => a.startsWith('--user-data-dir=') && a.endsWith('flightdeck-kiosk-browser'))).toBe(true);
    expect(args.at(-1)).toBe(url);
  });

  it('says so when there is no browser to open', async () => {
    // a PATH with no browser on it (the script's bash named by its own path)
    const child = spawn(BASH, [SCRIPT], { env: { ...process.env, BROWSER: '', PATH: dir.dir }, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr.on('data', (d) => (said += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(said).toContain('no browser found');
  });
});
