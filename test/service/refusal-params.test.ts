/** A refusal's params (its specifics as stable values) reach the HTTP reply and the socket ack as the engine gave them. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import type { BuiltApp } from '../../server/http/app.ts';
import type { CommandAck } from '../../server/http/protocol.ts';
import { tableGames } from '../../server/table/games.ts';
import { PIN, auth, emitAck, listen, nextEvent, socketClient, tempDir, testApp } from './helpers.ts';

let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;
let client: Socket | null = null;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  client?.close();
  client = null;
  await built?.app.close();
  built = null;
  dir.cleanup();
});

describe('refusal params over the API', () => {
  it('answers a refused command with its code, English words and params', async () => {
    let clock = Date.UTC(2026, 5, 1, 10, 0, 0);
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: tableGames, now: () => clock });
    const b = built;
    const send = async (command: Record<string, unknown>) => {
      clock += 2000;
      return b.app.inject({ method: 'POST', url: '/api/tables/default/commands', payload: command, headers: auth() });
    };
    expect((await send({ type: 'newGame', seed: 5, players: 4, deck: 'digital' })).statusCode).toBe(200);
    // a refusal with no specifics has no params
    const early = await send({ type: 'skipAction', plane: 1 });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'wrongPhase' });
    expect(early.json().error).not.toHaveProperty('params');
    expect((await send({ type: 'drawCard' })).statusCode).toBe(200);
    for (const plane of [1, 2, 3, 4]) expect((await send({ type: 'chooseAction', plane, action: 'move' })).statusCode).toBe(200);
    // plane 1 starts in the approach area, joined to no island 5: where it is comes as `at`, the island as `to`
    const r = await send({ type: 'move', plane: 1, to: 5 });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toEqual({
      code: 'notJoined',
      message: 'No white line joins the approach area to island 5: a one-island move follows a white line.',
      params: { at: 'approach', to: 5 },
    });

    // the same over socket.io
    const url = await listen(b);
    client = socketClient(url, { pin: PIN });
    await nextEvent(client, 'state');
    const ack = await emitAck<CommandAck>(client, 'command', { type: 'move', plane: 1, to: 5 });
    expect(ack).toEqual({ ok: false, error: r.json().error });
  });
});
