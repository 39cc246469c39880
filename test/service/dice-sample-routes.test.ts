/**
 * The routes that save photos of the players' dice with their labels: hold the camera's last settled
 * read, fetch its photo, save it labelled; PIN, bad labels, photos no longer held, no folder.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../server/http/app.ts';
import type { DiceReader, SettledRead } from '../../server/hardware/ports.ts';
import { DiceSampleStore } from '../../server/store/dice-sample-store.ts';
import { readYoloFolder } from '../../server/vision/yolo-dataset.ts';
import { tallyAdapter } from './fixtures/tally-game.ts';
import { auth, tempDir, testApp } from './helpers.ts';

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

const AT = Date.UTC(2026, 11, 2, 7, 0, 0, 5);

async function settledRead(at = AT, movedAt: number | null = AT - 1500): Promise<SettledRead> {
  const data = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 90, b: 160 } } }).jpeg().toBuffer();
  return {
    frame: { at, mime: 'image/jpeg', data },
    width: 320,
    height: 240,
    dice: [
      { x: 80, y: 60, w: 24, h: 24, face: 5, score: 0.98 },
      { x: 200, y: 150, w: 22, h: 26, face: null, score: 0.7, unreadable: 'cocked' },
    ],
    within: { x: 0.1, y: 0.05, w: 0.8, h: 0.9 },
    movedAt,
  };
}

/** A reader that sees one die, a 6 at (80, 60), on every photo; after `hold()` its next read waits for `release()`. */
function oneSixReader() {
  let gate: { started: () => void; open: Promise<void>; release: () => void } | null = null;
  const reader = {
    backend: 'test',
    read: async () => {
      if (gate) {
        gate.started();
        await gate.open;
      }
      return { width: 320, height: 240, dice: [{ x: 80, y: 60, w: 24, h: 24, face: 6, score: 0.97 }] };
    },
    /** resolves once a read is waiting */
    hold(): Promise<void> {
      let release = () => {};
      const open = new Promise<void>((r) => (release = r));
      return new Promise<void>((started) => (gate = { started, open, release }));
    },
    release(): void {
      const g = gate;
      gate = null;
      g?.release();
    },
  } satisfies DiceReader & Record<string, unknown>;
  return reader;
}

async function start(withStore = true, reader: DiceReader | null = null): Promise<{ b: BuiltApp; folder: string; setRead: (r: SettledRead | null) => void }> {
  const folder = join(dir.dir, 'dice-samples');
  built = await testApp({
    dbFile: join(dir.dir, 'db.sqlite'),
    games: { tally: tallyAdapter },
    tables: [{ id: 'one', name: 'One', game: 'tally' }],
    samples: withStore ? new DiceSampleStore(folder) : undefined,
    hardware: async () => ({ close: async () => {}, health: () => ({}), diceReader: () => reader }),
  });
  let current: SettledRead | null = null;
  built.service.tables.get('one')!.setSettledReadProvider(() => current);
  return { b: built, folder, setRead: (r) => (current = r) };
}

/** The players' labels of settledRead()'s photo: the 5 read as 6, the unreadable die cocked, a missed 2 added. */
const LABELLED = [
  { x: 80, y: 60, w: 24, h: 24, face: 6 },
  { x: 200, y: 150, w: 22, h: 26, face: 'cocked' },
  { x: 40, y: 200, w: 24, h: 24, face: 2 },
];

/** The camera's settled read, held and saved with the LABELLED dice. */
async function saveLabelledPhoto(b: BuiltApp, setRead: (r: SettledRead | null) => void): Promise<void> {
  setRead(await settledRead());
  const { hold } = (await post(b, '/api/tables/one/dice-samples/hold')).json();
  expect((await post(b, '/api/tables/one/dice-samples', { hold, dice: LABELLED })).statusCode).toBe(201);
}

const post = (b: BuiltApp, url: string, payload?: unknown, headers: Record<string, string> = auth()) =>
  b.app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }), headers });

describe('dice photo routes', () => {
  it('hold the last settled read, serve its photo, save it with the players\' labels', async () => {
    const { b, folder, setRead } = await start();
    expect((await b.app.inject({ url: '/api/tables/one/dice-samples', headers: auth() })).json()).toEqual({ folder, saved: 0 });
    const none = await post(b, '/api/tables/one/dice-samples/hold');
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('noSettledRead');

    const read = await settledRead();
    setRead(read);
    const hold = await post(b, '/api/tables/one/dice-samples/hold');
    expect(hold.statusCode).toBe(200);
    const held = hold.json();
    expect(held).toMatchObject({ hold: String(AT), at: AT, width: 320, height: 240, dice: read.dice, within: read.within, movedAt: AT - 1500, folder, saved: 0 });
    // the camera moves on; the held photo stays
    setRead(await settledRead(AT + 500));
    const photo = await b.app.inject({ url: held.imageUrl });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.rawPayload.equals(read.frame.data)).toBe(true);

    const saved = await post(b, '/api/tables/one/dice-samples', { hold: held.hold, dice: LABELLED });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toEqual({ ok: true, image: 'one-20261202-070000-005.jpg', dice: 2, cocked: 1, replaced: false, saved: 1, folder });
    const [image] = await readYoloFolder(folder);
    expect(image.labels.map((l) => l.face)).toEqual([6, 2]);
    expect(JSON.parse(await readFile(join(folder, 'cocked.json'), 'utf8'))).toEqual({ 'one-20261202-070000-005.jpg': [{ x: 0.625, y: 0.625, w: 22 / 320, h: 26 / 240 }] });
    expect(JSON.parse(await readFile(join(folder, 'read-regions.json'), 'utf8'))).toEqual({ 'one-20261202-070000-005.jpg': read.within });
    expect((await b.app.inject({ url: '/api/tables/one/dice-samples', headers: auth() })).json().saved).toBe(1);

    // taken out again: only with the PIN, only a photo still held
    const remove = (hold: string, headers: Record<string, string> = auth()) => b.app.inject({ method: 'DELETE', url: `/api/tables/one/dice-samples/${hold}`, headers });
    expect((await remove(held.hold, {})).statusCode).toBe(401);
    expect((await remove('99')).json().error.code).toBe('holdGone');
    expect((await remove(held.hold)).json()).toEqual({ ok: true, removed: true, saved: 0, folder });
    expect((await readdir(folder)).sort()).toEqual(['classes.txt', 'cocked.json', 'read-regions.json']);
    for (const file of ['cocked.json', 'read-regions.json']) expect(JSON.parse(await readFile(join(folder, file), 'utf8'))).toEqual({});
    expect((await remove(held.hold)).json()).toMatchObject({ removed: false, saved: 0 });
  });

  it('refuse without the PIN, bad labels, photos no longer held, and say so when no folder is set', async () => {
    const { b, folder, setRead } = await start();
    setRead(await settledRead());
    expect((await post(b, '/api/tables/one/dice-samples/hold', undefined, {})).statusCode).toBe(401);
    expect((await b.app.inject({ url: '/api/tables/one/dice-samples' })).statusCode).toBe(401);
    expect((await post(b, '/api/tables/nope/dice-samples/hold')).json().error.code).toBe('unknownTable');
    const { hold } = (await post(b, '/api/tables/one/dice-samples/hold')).json();
    const url = '/api/tables/one/dice-samples';
    const refusals: [unknown, number, string, RegExp?][] = [
      [{ hold, dice: [{ x: 10, y: 10, w: 20, h: 20, face: 7 }] }, 400, 'badRequest'],
      [{ hold, dice: [{ x: 10, y: 10, w: 20, h: 20 }] }, 400, 'badRequest'],
      [{ hold, dice: [{ x: 10, y: 10, w: 20, h: 20, face: 1, extra: 1 }] }, 400, 'badRequest'],
      [{ hold: 'abc', dice: [] }, 400, 'badRequest'],
      [{ dice: [] }, 400, 'badRequest'],
      [{ hold, dice: [{ x: 400, y: 10, w: 20, h: 20, face: 1 }] }, 400, 'badSample', /die 1: its centre \(400, 10\) is outside the 320×240 frame/],
      [{ hold, dice: [{ x: 40, y: 40, w: 20, h: 1, face: 1 }] }, 400, 'badSample', /size/],
      [{ hold, dice: [{ x: 10, y: 120, w: 20, h: 20, face: 1 }] }, 400, 'badSample', /die 1: its centre \(10, 120\) lies outside the part of the photo the camera reads/],
      [{ hold: '12345', dice: [] }, 404, 'holdGone', /no longer held/],
    ];
    for (const [body, status, code, message] of refusals) {
      const res = await post(b, url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error.code).toBe(code);
      if (message) expect(res.json().error.message).toMatch(message);
    }
    expect((await b.app.inject({ url: '/api/tables/one/dice-samples/held/12345' })).json().error.code).toBe('holdGone');
    expect((await b.app.inject({ url: '/api/tables/one/dice-samples/held/../../x' })).statusCode).toBeGreaterThanOrEqual(400);
    // nothing was written by the refusals
    await expect(readdir(folder)).rejects.toMatchObject({ code: 'ENOENT' });
    // an empty tray is a photo too: no dice, nothing read as one
    expect((await post(b, url, { hold, dice: [] })).statusCode).toBe(201);

    await b.app.close();
    const off = await start(false);
    off.setRead(await settledRead());
    const res = await post(off.b, '/api/tables/one/dice-samples/hold');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('samplesOff');
  });

  it('report a save that fails on the disk, and keep the photo held to try again', async () => {
    const { b, folder, setRead } = await start();
    setRead(await settledRead());
    const { hold } = (await post(b, '/api/tables/one/dice-samples/hold')).json();
    // a file where the folder should be: the save cannot make it
    await writeFile(folder, 'not a folder');
    const failed = await post(b, '/api/tables/one/dice-samples', { hold, dice: [] });
    expect(failed.statusCode).toBe(500);
    expect(failed.json().error).toMatchObject({ code: 'sampleNotSaved', message: expect.stringMatching(/^The photo was not saved: .*(EEXIST|ENOTDIR)/) });
    await rm(folder);
    expect((await post(b, '/api/tables/one/dice-samples', { hold, dice: [] })).statusCode).toBe(201);
  });

  it('measure the running reader on the saved photos, one measure at a time', async () => {
    const reader = oneSixReader();
    const { b, setRead } = await start(true, reader);
    const evaluate = () => post(b, '/api/tables/one/dice-samples/evaluate');
    expect((await evaluate()).json().error.code).toBe('noPhotos');
    await saveLabelledPhoto(b, setRead);
    const res = await evaluate();
    expect(res.statusCode).toBe(200);
    const e = res.json();
    expect(e).toMatchObject({ labelledImages: 1, images: 1, dice: 2, faceAccuracy: 0.5, recall: 0.5, precision: 1, wholeRollAccuracy: 0, extra: 0, backend: 'test', model: null, limit: 300, unreadable: [] });
    expect(e.confusion[5]).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
    expect(e.confusion[1]).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(e.setAside).toEqual([{ kind: 'cocked', about: 'dice a player marked cocked (no face up)', reads: { dice: 1, notSure: 0, guessed: 0, notFound: 1 } }]);

    // while one measure runs, another is refused
    const waiting = reader.hold();
    const first = evaluate();
    await waiting;
    const second = await evaluate();
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('evaluationRunning');
    reader.release();
    expect((await first).statusCode).toBe(200);
    expect((await evaluate()).statusCode).toBe(200);
  });

  it('leave out the photos the running model was taught: no fair measure of it', async () => {
    const reader: DiceReader & { taught?: { folder: string; photos: string[] } } = { ...oneSixReader() };
    const { b, folder, setRead } = await start(true, reader);
    setRead(await settledRead());
    const { hold } = (await post(b, '/api/tables/one/dice-samples/hold')).json();
    const saved = (await post(b, '/api/tables/one/dice-samples', { hold, dice: [{ x: 80, y: 60, w: 24, h: 24, face: 6 }] })).json();
    setRead({ ...(await settledRead()), frame: { ...(await settledRead()).frame, at: AT + 1000 } });
    const second = (await post(b, '/api/tables/one/dice-samples/hold')).json();
    expect((await post(b, '/api/tables/one/dice-samples', { hold: second.hold, dice: [{ x: 80, y: 60, w: 24, h: 24, face: 5 }] })).statusCode).toBe(201);
    // taught the first photo of this folder: only the second is measured
    reader.taught = { folder, photos: [saved.image] };
    const e = (await post(b, '/api/tables/one/dice-samples/evaluate')).json();
    expect(e).toMatchObject({ labelledImages: 1, images: 1, dice: 1, faceAccuracy: 0, taughtLeftOut: 1 });
    // a model taught another folder's photos leaves none out here
    reader.taught = { folder: join(folder, '..', 'elsewhere'), photos: [saved.image] };
    expect((await post(b, '/api/tables/one/dice-samples/evaluate')).json()).toMatchObject({ labelledImages: 2, images: 2, taughtLeftOut: 0 });
  });

  it('say the reader is not running rather than measure without it', async () => {
    const { b } = await start(true, null);
    const res = await post(b, '/api/tables/one/dice-samples/evaluate');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'visionUnavailable', message: expect.stringContaining('npm run dice:eval') });
  });

  it('give the whole folder as one ZIP file that unpacks into a folder measured as the original is', async () => {
    const reader = { ...oneSixReader(), modelVersion: '1.22.0' };
    const { b, folder, setRead } = await start(true, reader);
    const archive = (headers: Record<string, string> = auth()) => b.app.inject({ url: '/api/tables/one/dice-samples/archive', headers });
    expect((await archive({})).statusCode).toBe(401);
    expect((await archive()).json().error.code).toBe('noPhotos');
    await saveLabelledPhoto(b, setRead);

    const res = await archive();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const name = /^attachment; filename="(dice-photos-\d{8}-\d{6})\.zip"$/.exec(String(res.headers['content-disposition']))?.[1];
    expect(name).toBeDefined();
    const zip = join(dir.dir, 'photos.zip');
    await writeFile(zip, res.rawPayload);
    const unpacked = join(dir.dir, 'unpacked');
    await promisify(execFile)('unzip', ['-q', zip, '-d', unpacked]);
    expect((await readdir(join(unpacked, name!))).sort()).toEqual(['README.txt', 'classes.txt', 'cocked.json', 'one-20261202-070000-005.jpg', 'one-20261202-070000-005.txt', 'read-regions.json']);
    for (const file of ['classes.txt', 'cocked.json', 'one-20261202-070000-005.jpg', 'one-20261202-070000-005.txt', 'read-regions.json']) {
      expect((await readFile(join(unpacked, name!, file))).equals(await readFile(join(folder, file))), file).toBe(true);
    }
    const readme = await readFile(join(unpacked, name!, 'README.txt'), 'utf8');
    expect(readme).toContain('1 photos, 2 dice labelled with their faces and 1 marked cocked, saved ');
    expect(readme).toContain('the dice model 1.22.0');
    expect(readme).toContain(`npm run dice:eval -- --data ${name}`);
    // unpacked (its files one folder down), it is measured as the folder it came from
    const { evaluateFolder } = await import('../../server/vision/evaluate-folder.ts');
    const asSaved = await evaluateFolder(reader, folder);
    expect(await evaluateFolder(reader, unpacked)).toEqual(asSaved);
    expect(asSaved.setAside[0].reads).toEqual({ dice: 1, notSure: 0, guessed: 0, notFound: 1 });

    // a damaged file beside the photos: said, and nothing sent
    await writeFile(join(folder, 'cocked.json'), '{');
    const damaged = await archive();
    expect(damaged.statusCode).toBe(500);
    expect(damaged.json().error).toMatchObject({ code: 'archiveFailed', message: expect.stringContaining('cocked.json') });

    await b.app.close();
    const off = await start(false);
    expect((await off.b.app.inject({ url: '/api/tables/one/dice-samples/archive', headers: auth() })).json().error.code).toBe('samplesOff');
  });
});

