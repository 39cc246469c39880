/**
 * Teaching the dice model the table's saved photos from the dashboard, for real: the routes start
 * `model:adapt` as a child process (made short by its flags), the cameras' reader reads the taught model
 * when it is written, the players set it aside and take it up again; refusals, stopping a teaching, and
 * a teaching that fails say why and change nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../server/http/app.ts';
import type { DiceReader } from '../../server/hardware/ports.ts';
import { DiceSampleStore } from '../../server/store/dice-sample-store.ts';
import { writeSyntheticSet } from '../../server/synth/test-set.ts';
import { DiceModels } from '../../server/vision/dice-models.ts';
import { DEFAULT_MODEL_DIR } from '../../server/vision/model-store.ts';
import { TEACHING_PRIORITY } from '../../server/vision/model-teacher.ts';
import { createDiceReader } from '../../server/vision/reader.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { auth, tempDir, testApp } from './helpers.ts';

/** model:adapt made short: the real steps, a few of each. */
const SHORT = ['--scenes', '2', '--real-photos', '0', '--epochs', '1', '--per-die', '2', '--detector-steps', '3'];

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

/**
 * The teaching at the service's own CPU priority unless a test asks for the service's default: niced,
 * the child gets little of a machine busy with other test files, and how long it takes would be theirs.
 */
function diceModels(extraArgs: string[] = [...SHORT, '--keep-worse'], { servicePriority = false } = {}): DiceModels {
  return new DiceModels({
    dataDir: dir.dir,
    configuredDir: null,
    photosDir: join(dir.dir, 'dice-samples'),
    openReader: (modelDir) => createDiceReader({ modelDir }),
    log: { info: () => {}, warn: () => {}, error: () => {} },
    teacher: { extraArgs, ...(servicePriority ? {} : { priority: 0 }) },
  });
}

/** The CPU priority (nice) of this process's child running model:adapt, read from /proc. */
function teachingChildNice(): number | null {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('adapt-model.ts')) continue;
      // stat: pid (comm) state ppid … ; fields after the ")" : state=0, ppid=1, nice=16
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      if (Number(fields[1]) === process.pid) return Number(fields[16]);
    } catch {
      // the process ended while it was read
    }
  }
  return null;
}

async function start(models: DiceModels, withCamera = true): Promise<BuiltApp> {
  built = await testApp({
    dbFile: join(dir.dir, 'db.sqlite'),
    games: { tally: tallyAdapter },
    tables: [{ id: 'one', name: 'One', game: 'tally' }],
    samples: new DiceSampleStore(join(dir.dir, 'dice-samples')),
    models,
    hardware: async () => {
      const reader: (DiceReader & { dispose?(): void }) | null = withCamera ? await models.open() : null;
      return { close: async () => reader?.dispose?.(), health: () => ({ vision: { model: reader?.modelVersion ?? null } }), diceReader: () => reader };
    },
  });
  return built;
}

const call = (b: BuiltApp, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = auth()) =>
  b.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('teaching the dice model from the dashboard', () => {
  it('teaches the saved photos in a child process, reads with the taught model, sets it aside and takes it up again', async () => {
    await writeSyntheticSet(join(dir.dir, 'dice-samples'), 7, 5, undefined, 'table', 'marbled');
    const models = diceModels();
    const b = await start(models);
    let status = (await call(b, 'GET', '/api/tables/one/dice-model')).json();
    expect(status).toMatchObject({ reading: { kind: 'shipped', folder: DEFAULT_MODEL_DIR, model: '1.22.0' }, taught: null, pinned: false, problem: null, minPhotos: 6, teaching: { state: 'idle' } });

    const started = await call(b, 'POST', '/api/tables/one/dice-model/teach');
    expect(started.statusCode).toBe(202);
    expect(started.json().teaching).toMatchObject({ state: 'teaching', photos: 7 });
    // one at a time, and the model stays while it is taught
    expect((await call(b, 'POST', '/api/tables/one/dice-model/teach')).json().error.code).toBe('teachingRunning');
    const busy = await call(b, 'PUT', '/api/tables/one/dice-model', { use: 'base' });
    expect([busy.statusCode, busy.json().error.code]).toEqual([409, 'teachingRunning']);

    await models.whenTaught();
    status = (await call(b, 'GET', '/api/tables/one/dice-model')).json();
    expect(status.teaching).toMatchObject({ state: 'taught', photos: 7, taught: 4, written: true, leftOut: [], out: models.taughtDir });
    expect(status.teaching.before).toMatchObject({ photos: 3 });
    expect(status.teaching.after.dice).toBe(status.teaching.before.dice);
    expect(status.reading).toMatchObject({ kind: 'taught', folder: models.taughtDir });
    expect(status.reading.model).toMatch(/^1\.22\.0, taught 4 photos of a table's dice on \d{4}-\d\d-\d\d$/);
    expect(status.taught).toMatchObject({ inUse: true, folder: models.taughtDir });
    expect((await b.app.inject({ url: '/api/health' })).json().vision.model).toBe(status.reading.model);
    // the cameras' reader is the taught one: the photos it learned from are left out of its measure
    const measure = (await call(b, 'POST', '/api/tables/one/dice-samples/evaluate')).json();
    expect(measure).toMatchObject({ images: 3, taughtLeftOut: 4, model: status.reading.model });
    const spec = JSON.parse(await readFile(join(models.taughtDir, 'spec.json'), 'utf8'));
    expect(spec.training.tableDice.photos).toBe(join(dir.dir, 'dice-samples'));

    const aside = (await call(b, 'PUT', '/api/tables/one/dice-model', { use: 'base' })).json();
    expect(aside.reading).toMatchObject({ kind: 'shipped', model: '1.22.0' });
    expect(aside.taught).toMatchObject({ inUse: false, folder: models.setAsideDir });
    expect((await call(b, 'POST', '/api/tables/one/dice-samples/evaluate')).json()).toMatchObject({ images: 7, taughtLeftOut: 0, model: '1.22.0' });
    const again = (await call(b, 'PUT', '/api/tables/one/dice-model', { use: 'taught' })).json();
    expect(again.reading).toMatchObject({ kind: 'taught', model: status.reading.model });
    // what the players chose is what the service starts with
    expect(diceModels().startDir()).toBe(models.taughtDir);
  }, 240_000);

  it('a teaching stopped writes nothing and leaves the model read; one that fails says why', async () => {
    await writeSyntheticSet(join(dir.dir, 'dice-samples'), 6, 6, undefined, 'table', 'red');
    const models = diceModels(undefined, { servicePriority: true });
    const b = await start(models);
    expect((await call(b, 'POST', '/api/tables/one/dice-model/teach')).statusCode).toBe(202);
    // the service's teaching trains below the service's priority, leaving it the stopwatch and cameras
    await expect.poll(teachingChildNice).toBe(TEACHING_PRIORITY);
    const stopped = await call(b, 'DELETE', '/api/tables/one/dice-model/teach');
    expect(stopped.json()).toMatchObject({ stopped: true, teaching: { state: 'cancelled', photos: 6 }, reading: { kind: 'shipped' }, taught: null });
    expect(existsSync(models.taughtDir)).toBe(false);
    expect(existsSync(`${models.taughtDir}.part`)).toBe(false);
    expect((await call(b, 'DELETE', '/api/tables/one/dice-model/teach')).json().stopped).toBe(false);

    // every photo damaged: model:adapt refuses, and its reason reaches the players
    for (let i = 0; i < 6; i++) await writeFile(join(dir.dir, 'dice-samples', `synthetic_${String(i).padStart(4, '0')}.jpg`), Buffer.from([0xff, 0xd8, 0xff, 0x00]));
    expect((await call(b, 'POST', '/api/tables/one/dice-model/teach')).statusCode).toBe(202);
    await models.whenTaught();
    const failed = (await call(b, 'GET', '/api/tables/one/dice-model')).json();
    expect(failed.teaching.state).toBe('failed');
    expect(failed.teaching.message).toMatch(/^none of the 4 photos to teach could be read: /);
    expect(failed.reading).toMatchObject({ kind: 'shipped' });
  }, 240_000);

  it('a taught model that reads the photos kept back worse is not written, and the cameras keep the model they had', async () => {
    await writeSyntheticSet(join(dir.dir, 'dice-samples'), 6, 7, undefined, 'table', 'black');
    // learning rates near 1 wreck both networks in a few steps: the check must refuse what they make
    const models = diceModels([...SHORT, '--detector-steps', '20', '--learning-rate', '0.99', '--detector-learning-rate', '0.99']);
    const b = await start(models);
    expect((await call(b, 'POST', '/api/tables/one/dice-model/teach')).statusCode).toBe(202);
    await models.whenTaught();
    const status = (await call(b, 'GET', '/api/tables/one/dice-model')).json();
    expect(status.teaching).toMatchObject({ state: 'taught', written: false, out: null });
    expect(status.teaching.after.faceAccuracy).toBeLessThan(status.teaching.before.faceAccuracy);
    expect(status.reading).toMatchObject({ kind: 'shipped', model: '1.22.0' });
    expect(status.taught).toBeNull();
    expect(existsSync(models.taughtDir)).toBe(false);
  }, 240_000);

  it('refuses without the PIN, with too few photos, a wrong request, and without a taught model to take up', async () => {
    await writeSyntheticSet(join(dir.dir, 'dice-samples'), 5, 9, undefined, 'table', 'blue');
    const b = await start(diceModels(), false);
    expect((await call(b, 'GET', '/api/tables/one/dice-model', undefined, {})).statusCode).toBe(401);
    expect((await call(b, 'POST', '/api/tables/one/dice-model/teach', undefined, {})).statusCode).toBe(401);
    const few = await call(b, 'POST', '/api/tables/one/dice-model/teach');
    expect([few.statusCode, few.json().error.code]).toEqual([409, 'tooFewPhotos']);
    expect(few.json().error.message).toContain('5 saved');
    const wrong = await call(b, 'PUT', '/api/tables/one/dice-model', { use: 'newest' });
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([400, 'badRequest']);
    const none = await call(b, 'PUT', '/api/tables/one/dice-model', { use: 'taught' });
    expect([none.statusCode, none.json().error.code]).toEqual([409, 'noTaughtModel']);
    expect((await call(b, 'GET', '/api/tables/nope/dice-model')).statusCode).toBe(404);
  });

  it('a service without a model to change answers modelsOff', async () => {
    built = await testApp({ dbFile: join(dir.dir, 'db.sqlite'), games: { tally: tallyAdapter }, tables: [{ id: 'one', name: 'One', game: 'tally' }] });
    const res = await call(built, 'POST', '/api/tables/one/dice-model/teach');
    expect([res.statusCode, res.json().error.code]).toEqual([404, 'modelsOff']);
  });
});
