/**
 * Which dice model the service reads with: the reader swapped while the cameras run, the folders of a
 * taught model (in use, set aside), what the service starts with, and refusals. The readers here are
 * stand-ins for createDiceReader (each says which folder it was opened on); the real teaching and
 * reading run in test/service/dice-model-routes.test.ts.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiceModels, DiceModelsError, MIN_TEACH_PHOTOS } from '../../server/vision/dice-models.ts';
import { DEFAULT_MODEL_DIR } from '../../server/vision/model-store.ts';
import { SwappableReader } from '../../server/vision/swappable-reader.ts';

interface StandIn {
  backend: string;
  modelVersion: string;
  disposed: boolean;
  read(): Promise<{ width: number; height: number; dice: [] }>;
  dispose(): void;
}

/** A reader whose reads wait until `release()`; it says which folder it reads. */
function standIn(name: string) {
  const waiting: (() => void)[] = [];
  const reader: StandIn & { release(): void; waiting: number } = {
    backend: 'test',
    modelVersion: name,
    disposed: false,
    read: () => new Promise((done) => waiting.push(() => done({ width: 1, height: 1, dice: [] }))),
    dispose() {
      this.disposed = true;
    },
    release: () => waiting.splice(0).forEach((f) => f()),
    get waiting() {
      return waiting.length;
    },
  };
  return reader;
}

describe('SwappableReader', () => {
  it('reads with the new reader from the swap on, and disposes the old one once its reads are answered', async () => {
    const a = standIn('a');
    const b = standIn('b');
    const reader = new SwappableReader(a);
    expect(reader.modelVersion).toBe('a');
    const first = reader.read(Buffer.alloc(1));
    reader.swap(b);
    expect(reader.modelVersion).toBe('b');
    const second = reader.read(Buffer.alloc(1));
    expect([a.waiting, b.waiting]).toEqual([1, 1]);
    expect(a.disposed).toBe(false);
    a.release();
    await first;
    expect(a.disposed).toBe(true);
    b.release();
    await second;
    expect(b.disposed).toBe(false);
    reader.dispose();
    expect(b.disposed).toBe(true);
  });

  it('a reader swapped out with nothing to answer is disposed at once; swapping in the same one does nothing', () => {
    const a = standIn('a');
    const b = standIn('b');
    const reader = new SwappableReader(a);
    reader.swap(a);
    expect(a.disposed).toBe(false);
    reader.swap(b);
    expect(a.disposed).toBe(true);
  });

  it('a failed read still counts as answered', async () => {
    const a = { backend: 'test', disposed: false, read: async () => Promise.reject(new Error('broken frame')), dispose() { this.disposed = true; } };
    const reader = new SwappableReader(a);
    const failing = reader.read(Buffer.alloc(1));
    reader.swap(standIn('b'));
    await expect(failing).rejects.toThrow('broken frame');
    expect(a.disposed).toBe(true);
  });
});

describe('DiceModels', () => {
  let dataDir: string;
  const opened: string[] = [];
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dice-models-'));
    opened.length = 0;
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A model folder as model:adapt writes one: the shipped spec, with what it was taught. */
  async function taughtModel(dir: string, photos = 12, check?: unknown): Promise<void> {
    await mkdir(dir, { recursive: true });
    const spec = JSON.parse(await readFile(join(DEFAULT_MODEL_DIR, 'spec.json'), 'utf8'));
    spec.training.tableDice = { date: '2026-12-02T10:00:00.000Z', photos: join(dataDir, 'dice-samples'), teachPhotos: photos, taught: [], ...(check ? { check } : {}) };
    await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
  }

  function models(configuredDir: string | null = null, broken: string[] = []): DiceModels {
    return new DiceModels({
      dataDir,
      configuredDir,
      photosDir: join(dataDir, 'dice-samples'),
      log,
      openReader: async (dir) => {
        if (broken.includes(dir)) throw new Error('model.json: unexpected end of JSON input');
        opened.push(dir);
        return standIn(dir);
      },
    });
  }

  it('starts with the shipped model, a taught one in dice-model/ when there is one, FLIGHTDECK_MODEL over both', async () => {
    const m = models();
    expect(m.startDir()).toBe(DEFAULT_MODEL_DIR);
    expect(m.baseDir).toBe(DEFAULT_MODEL_DIR);
    await taughtModel(m.taughtDir);
    expect(models().startDir()).toBe(m.taughtDir);
    const pinned = models(join(dataDir, 'elsewhere'));
    expect(pinned.pinned).toBe(true);
    expect(pinned.startDir()).toBe(resolve(dataDir, 'elsewhere'));
    // FLIGHTDECK_MODEL naming dice-model/ itself is the taught model: taught from the shipped one, not pinned
    const named = models(m.taughtDir);
    expect(named.pinned).toBe(false);
    expect(named.baseDir).toBe(DEFAULT_MODEL_DIR);
    expect(named.startDir()).toBe(m.taughtDir);
  });

  it('a taught model that cannot be read gives way to the base model, and says so', async () => {
    // the base model failing is the service's vision failing, as before
    await expect(models(null, [DEFAULT_MODEL_DIR]).open()).rejects.toThrow('unexpected end of JSON input');
    const m = models(null, [join(dataDir, 'dice-model')]);
    await taughtModel(m.taughtDir);
    const reader = await m.open();
    expect(reader.modelVersion).toBe(DEFAULT_MODEL_DIR);
    const status = await m.status();
    expect(status.reading).toMatchObject({ kind: 'shipped', folder: DEFAULT_MODEL_DIR });
    expect(status.problem).toContain('could not be read (model.json: unexpected end of JSON input); reading with the base model');
  });

  it('sets a taught model aside and takes it up again, the cameras reading each at once, kept across restarts', async () => {
    const m = models();
    const figures = (faceAccuracy: number) => ({ photos: 4, dice: 20, faceAccuracy, recall: 1, precision: 1, extra: 0 });
    await taughtModel(m.taughtDir, 12, { before: { ...figures(0.9), cockedDice: 1, cockedNamedAFace: 0 }, after: figures(1) });
    const reader = await m.open();
    expect(reader.modelVersion).toBe(m.taughtDir);
    let status = await m.status();
    expect(status.reading).toMatchObject({ kind: 'taught', folder: m.taughtDir });
    // the check it passed when taught comes with it, after any restart
    expect(status.taught).toEqual({ kind: 'taught', folder: m.taughtDir, inUse: true, model: "1.22.0, taught 12 photos of a table's dice on 2026-12-02", check: { before: figures(0.9), after: figures(1) } });
    expect(status.base).toMatchObject({ kind: 'shipped', model: '1.22.0' });
    expect(status.teaching).toEqual({ state: 'idle' });

    await m.use('base');
    expect(reader.modelVersion).toBe(DEFAULT_MODEL_DIR);
    expect(existsSync(m.taughtDir)).toBe(false);
    expect(existsSync(join(m.setAsideDir, 'spec.json'))).toBe(true);
    status = await m.status();
    expect(status.taught).toMatchObject({ folder: m.setAsideDir, inUse: false, check: { after: figures(1) } });
    expect(models().startDir()).toBe(DEFAULT_MODEL_DIR);

    await m.use('taught');
    expect(reader.modelVersion).toBe(m.taughtDir);
    expect(existsSync(m.setAsideDir)).toBe(false);
    expect(models().startDir()).toBe(m.taughtDir);
    expect(opened).toEqual([m.taughtDir, DEFAULT_MODEL_DIR, m.taughtDir]);
  });

  it('refuses to take up a taught model there is none of, or one that cannot be read (which stays set aside)', async () => {
    const m = models();
    await m.open();
    await expect(m.use('taught')).rejects.toMatchObject({ code: 'noTaughtModel' });
    const broken = models(null, [join(dataDir, 'dice-model')]);
    await taughtModel(broken.setAsideDir);
    const reader = await broken.open();
    const refused = await broken.use('taught').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DiceModelsError);
    expect(refused).toMatchObject({ code: 'modelUnreadable' });
    expect((refused as Error).message).toContain('still reading with the model before');
    expect(reader.modelVersion).toBe(DEFAULT_MODEL_DIR);
    expect(existsSync(join(broken.setAsideDir, 'spec.json'))).toBe(true);
    expect(existsSync(broken.taughtDir)).toBe(false);
  });

  it('without a camera (no reader opened) the folders still change', async () => {
    const m = models();
    await taughtModel(m.taughtDir);
    await m.use('base');
    expect((await m.status()).reading).toBeNull();
    expect(existsSync(join(m.setAsideDir, 'spec.json'))).toBe(true);
    expect(opened).toEqual([]);
  });

  it(`refuses to teach fewer than ${MIN_TEACH_PHOTOS} photos, before starting anything`, async () => {
    const m = models();
    expect(() => m.teach(MIN_TEACH_PHOTOS - 1)).toThrow(/at least 6 saved photos.*5 saved/);
    await expect(m.status()).resolves.toMatchObject({ teaching: { state: 'idle' } });
  });
});
