/**
 * The service stopped and started again (a restart by systemd, Ctrl-C): the screens connected to it
 * find it again by themselves. socket.io's client retries a connection whose transport closed, but not
 * one the server said to leave ("io server disconnect"): the service closes the transports.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import type { TableSnapshot } from '../../server/http/protocol.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { nextEvent, tempDir, testApp } from './helpers.ts';

let dir: ReturnType<typeof tempDir>;
const sockets: Socket[] = [];
const apps: { app: { close(): Promise<unknown> } }[] = [];

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  for (const b of apps.splice(0)) await b.app.close();
  dir.cleanup();
});

describe('a restart of the service', () => {
  it('closes the connections under the clients, which find the service again once it is back', async () => {
    const start = async (port: number) => {
      const built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: { tally: tallyAdapter }, tables: [{ game: 'tally' }] });
      apps.push(built);
      await built.app.listen({ port, host: '127.0.0.1' });
      return built;
    };
    const first = await start(0);
    const port = (first.app.server.address() as { port: number }).port;
    // a screen's connection, retrying as the dashboard's does (socket.io's defaults)
    const screen = connect(`http://127.0.0.1:${port}`, { auth: { table: 'default' }, transports: ['websocket'], forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 200 });
    sockets.push(screen);
    await nextEvent<TableSnapshot>(screen, 'state');
    const reasons: string[] = [];
    screen.on('disconnect', (reason) => reasons.push(reason));
    await first.app.close();
    apps.splice(apps.indexOf(first), 1);
    await expect.poll(() => reasons.length).toBe(1);
    expect(reasons[0]).not.toBe('io server disconnect');
    // back on the same port: the screen connects again by itself and is sent the table
    const again = nextEvent<TableSnapshot>(screen, 'state', () => true, 20_000);
    await start(port);
    expect((await again).tableId).toBe('default');
    expect(screen.connected).toBe(true);
  });
});
