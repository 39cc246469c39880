/**
 * The service reads with the dice model FLIGHTDECK_MODEL names (one `npm run model:adapt` wrote) and says
 * which; a folder without a model stops it at start with that said. Without FLIGHTDECK_MODEL it reads
 * a model taught on the dashboard (its data folder's dice-model/), until the players set it aside.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, call, runUntilExit, startServer, tempSetup } from '../reliability/server-process.ts';

describe('FLIGHTDECK_MODEL', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'taught-model-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The shipped weights with the record a taught model carries, in `model`. */
  function taughtModel(model: string) {
    for (const part of ['detector', 'classifier']) cpSync(join(REPO_ROOT, 'models', part), join(model, part), { recursive: true });
    const spec = JSON.parse(readFileSync(join(REPO_ROOT, 'models', 'spec.json'), 'utf8'));
    spec.training.tableDice = { date: '2026-12-02T08:00:00.000Z', teachPhotos: 20, teachDice: 130 };
    writeFileSync(join(model, 'spec.json'), JSON.stringify(spec));
    return spec;
  }

  it('makes the service read with that model, named in /api/health and the log', async () => {
    const model = join(dir, 'dice-model');
    const spec = taughtModel(model);
    const setup = tempSetup([{ id: 'default', camera: 'synthetic' }]);
    const server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile, env: { FLIGHTDECK_MODEL: model } });
    try {
      const health = await (await fetch(`${server.url}/api/health`)).json();
      expect(health.vision).toMatchObject({ ready: true, model: `${spec.spec.version}, taught 20 photos of a table's dice on 2026-12-02` });
      expect(server.lines.join('\n')).toContain(`dice model ${spec.spec.version}, taught 20 photos of a table's dice on 2026-12-02`);
      const models = await call(server.url, 'GET', '/api/tables/default/dice-model');
      expect(models.json).toMatchObject({ reading: { kind: 'configured', folder: model }, base: { folder: model }, pinned: true, taught: null });
    } finally {
      await server.kill('SIGTERM');
      setup.cleanup();
    }
  }, 120_000);

  it('without it, reads a model taught on the dashboard from its data folder; set aside, it stays aside after a restart', async () => {
    const setup = tempSetup([{ id: 'default', camera: 'synthetic' }]);
    const spec = taughtModel(join(setup.dataDir, 'dice-model'));
    const taughtName = `${spec.spec.version}, taught 20 photos of a table's dice on 2026-12-02`;
    let server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
    try {
      expect((await (await fetch(`${server.url}/api/health`)).json()).vision.model).toBe(taughtName);
      const set = await call(server.url, 'PUT', '/api/tables/default/dice-model', { use: 'base' });
      expect(set.status).toBe(200);
      expect(set.json).toMatchObject({ reading: { kind: 'shipped', model: spec.spec.version }, taught: { inUse: false, model: taughtName }, pinned: false });
      expect((await (await fetch(`${server.url}/api/health`)).json()).vision.model).toBe(spec.spec.version);
      await server.kill('SIGTERM');
      server = await startServer({ dataDir: setup.dataDir, configFile: setup.configFile });
      expect((await (await fetch(`${server.url}/api/health`)).json()).vision.model).toBe(spec.spec.version);
      const back = await call(server.url, 'PUT', '/api/tables/default/dice-model', { use: 'taught' });
      expect(back.json.reading).toMatchObject({ kind: 'taught', model: taughtName });
    } finally {
      await server.kill('SIGTERM');
      setup.cleanup();
    }
  }, 120_000);

  it('stops the service at start, named, when the folder holds no model', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const { code, output } = await runUntilExit({ PORT: '0', HOST: '127.0.0.1', FLIGHTDECK_DATA: join(dir, 'data'), FLIGHTDECK_MODEL: empty });
    expect(code).toBe(2);
    expect(output).toContain(`FLIGHTDECK_MODEL: ${empty} holds no dice model`);
  }, 60_000);
});
