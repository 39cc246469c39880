/** The service's start when its port is taken: said in words, exit code 2, the devices it opened let go (no stack trace). */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runUntilExit } from '../reliability/server-process.ts';

describe('start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-start-'));
  const taken = createServer();
  afterAll(() => {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says the port is in use and stops with exit code 2', async () => {
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as AddressInfo).port;
    const { code, output } = await runUntilExit({ PORT: String(port), HOST: '127.0.0.1', FLIGHTDECK_DATA: join(dir, 'data') });
    expect(code).toBe(2);
    expect(output).toContain(`port ${port} is in use (another Flight Deck running? stop it, or start this one with PORT=<another port>)`);
    expect(output).not.toMatch(/\n\s+at /);
    // it stopped before opening the database (a second copy must not touch the first one's journal, camera or box)
    expect(existsSync(join(dir, 'data')) ? readdirSync(join(dir, 'data')).filter((f) => /\.(db|sqlite)/.test(f)) : []).toEqual([]);
  }, 60_000);
});
