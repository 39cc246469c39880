import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BuiltApp } from '../../server/http/app.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { auth, tempDir, testApp } from './helpers.ts';

const games = { tally: tallyAdapter };
let dir: ReturnType<typeof tempDir>;
let built: BuiltApp | null = null;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await built?.app.close();
  built = null;
  dir.cleanup();
});

const post = (b: BuiltApp, payload: unknown, headers: Record<string, string> = auth(), table = 'default') =>
  b.app.inject({ method: 'POST', url: `/api/tables/${table}/commands`, payload: payload as object, headers });

describe('table service on a generic game module', () => {
  it('journals commands and restores them after a restart', async () => {
    const dbFile = join(dir.dir, 'db.sqlite');
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    expect((await post(built, { type: 'newGame', minutes: 30 })).statusCode).toBe(200);
    expect((await post(built, { type: 'add', n: 3 })).statusCode).toBe(200);
    const r = await post(built, { type: 'add', n: 5 });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ seq: 3, state: { tally: 8 } });
    expect(r.json().state.secret).toBeUndefined();
    const before = (await built.app.inject({ url: '/api/tables/default/state' })).json();
    await built.app.close();
    built = await testApp({ dbFile, games, tables: [{ game: 'tally' }] });
    const after = (await built.app.inject({ url: '/api/tables/default/state' })).json();
    expect(after.seq).toBe(3);
    expect(after.state).toEqual(before.state);
  });

  it('refuses an illegal move with 409 and changes nothing', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games, tables: [{ game: 'tally' }] });
    await post(built, { type: 'newGame' });
    await post(built, { type: 'add', n: 5 });
    await post(built, { type: 'add', n: 5 });
    const r = await post(built, { type: 'add', n: 1 });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: { code: 'tooMuch', message: 'The tally cannot pass 10.' } });
    const s = (await built.app.inject({ url: '/api/tables/default/state' })).json();
    expect(s.seq).toBe(3);
    expect(s.state.tally).toBe(10);
  });

  it('works out the public view once for a change and the state pushed after it', async () => {
    let views = 0;
    const counted = { ...tallyAdapter, publicView: (s: Parameters<typeof tallyAdapter.publicView>[0]) => { views++; return tallyAdapter.publicView(s); } };
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: { tally: counted }, tables: [{ game: 'tally' }] });
    await post(built, { type: 'newGame' });
    views = 0;
    const r = await post(built, { type: 'add', n: 2 });
    expect(r.json().state.tally).toBe(2);
    const s = (await built.app.inject({ url: '/api/tables/default/state' })).json();
    expect(s.state).toEqual(r.json().state);
    expect(views).toBe(1);
    await post(built, { type: 'add', n: 1 });
    expect((await built.app.inject({ url: '/api/tables/default/state' })).json().state.tally).toBe(3);
    expect(views).toBe(2);
  });
});
