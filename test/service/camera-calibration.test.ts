/** Where a table's camera reads the dice, set from the dashboard: checked, kept across restarts, applied at once. */
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cameraConfig } from '../../server/config/service-config.ts';
import type { BuiltApp } from '../../server/http/app.ts';
import { SYNTHETIC_CALIBRATION } from '../../server/hardware/camera/synthetic-calibration.ts';
import type { TrayCalibration } from '../../server/hardware/camera/calibration.ts';
import { CameraSetup, type SavedCalibration } from '../../server/table/camera-setup.ts';
import { tableGames } from '../../server/table/games.ts';
import { startHardware, type TableHardware } from '../../server/table/table-hardware.ts';
import { auth, tempDir, testApp } from './helpers.ts';

const quiet = { info() {}, warn() {}, error() {} };
const URL = '/api/tables/default/camera/calibration';

/** A temporary folder, removed when the test ends. */
function folderForTest(): string {
  const dir = tempDir();
  onTestFinished(() => dir.cleanup());
  return dir.dir;
}

/** The service on `folder`'s database, with one table and its camera; closed by `close` or when the test ends. */
async function start(folder: string, camera: 'synthetic' | 'none' = 'synthetic'): Promise<{ b: BuiltApp; hw: TableHardware; close(): Promise<void> }> {
  let tables: Map<string, TableHardware> | null = null;
  const b = await testApp({
    dbFile: join(folder, 'db.sqlite'),
    games: tableGames,
    // a fixed synthetic tray: its look (felt, light) is drawn from the seed
    tables: [{ camera: cameraConfig(camera === 'synthetic' ? { source: 'synthetic', seed: 5 } : 'none') }],
    hardware: async (service) => {
      const h = await startHardware(service, { reader: () => Promise.reject(new Error('no model in this test')), log: quiet });
      tables = h.tables;
      return h;
    },
  });
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= b.app.close());
  onTestFinished(close);
  return { b, hw: tables!.get('default')!, close };
}

const send = (b: BuiltApp, method: 'PUT' | 'DELETE' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = auth()) =>
  b.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers });

const synthetic = {
  tray: { x: 0.04, y: 0.04, w: 0.68, h: 0.92 },
  keptZone: { x: 0.72, y: 0.04, w: 0.24, h: 0.92 },
};

describe('the camera calibration set on the dashboard', () => {
  it('says what is in use, checks a new one in words, keeps it across restarts and goes back to the tables file\'s', async () => {
    const folder = folderForTest();
    let { b, hw, close } = await start(folder);
    expect((await b.app.inject({ url: URL })).json()).toEqual({ ...synthetic, source: 'config', configured: synthetic, savedAt: null });

    // refused: without the PIN, a rectangle past the image, an unknown field, a quad whose edges cross
    const tray = { x: 0.1, y: 0.1, w: 0.6, h: 0.8 };
    expect((await send(b, 'PUT', URL, { tray }, {})).statusCode).toBe(401);
    const past = await send(b, 'PUT', URL, { tray: { x: 0.5, y: 0, w: 0.8, h: 0.5 } });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toEqual({ code: 'badCalibration', message: 'camera.tray: the rectangle goes past the image edge (x+w=1.3, y+h=0.5)' });
    expect((await send(b, 'PUT', URL, { tray, colour: 'red' })).statusCode).toBe(400);
    const crossed = await send(b, 'PUT', URL, { tray: { quad: [[0, 0], [1, 1], [1, 0], [0, 1]] } });
    expect(crossed.json().error.message).toBe('camera.tray.quad: corners must go around the tray in order (the edges cross)');
    expect(hw.feed!.currentCalibration()).toEqual(SYNTHETIC_CALIBRATION); // nothing changed

    const saved = await send(b, 'PUT', URL, { tray, keptZone: null });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ tray, keptZone: null, source: 'saved', configured: synthetic });
    expect(saved.json().savedAt).toBeTypeOf('number');
    expect(hw.feed!.currentCalibration()).toEqual({ tray: { kind: 'rect', ...tray }, keptZone: null });

    await close();
    ({ b, hw, close } = await start(folder));
    expect((await b.app.inject({ url: URL })).json()).toMatchObject({ tray, keptZone: null, source: 'saved' });
    expect(hw.feed!.currentCalibration()).toEqual({ tray: { kind: 'rect', ...tray }, keptZone: null });

    const quad = { quad: [[0.1, 0.1], [0.7, 0.12], [0.68, 0.9], [0.12, 0.88]] };
    expect((await send(b, 'PUT', URL, { tray: quad })).json()).toMatchObject({ tray: quad, keptZone: null, source: 'saved' });
    expect(hw.feed!.currentCalibration().tray).toEqual({ kind: 'quad', points: quad.quad });

    expect((await send(b, 'DELETE', URL, undefined, {})).statusCode).toBe(401);
    expect((await send(b, 'DELETE', URL)).json()).toEqual({ ...synthetic, source: 'config', configured: synthetic, savedAt: null });
    expect(hw.feed!.currentCalibration()).toEqual(SYNTHETIC_CALIBRATION);
    await close();
    ({ b, hw, close } = await start(folder));
    expect((await b.app.inject({ url: URL })).json().source).toBe('config');
    expect(hw.feed!.currentCalibration()).toEqual(SYNTHETIC_CALIBRATION);
  });

  it('finds the tray in a frame of the empty tray, without keeping it', async () => {
    const { b, hw } = await start(folderForTest());
    for (let i = 0; i < 200 && !hw.feed!.latestFrame(); i++) await new Promise((r) => setTimeout(r, 25));
    const found = await send(b, 'POST', `${URL}/estimate`);
    expect(found.statusCode).toBe(200);
    const { tray } = found.json();
    expect(Math.abs(tray.x - synthetic.tray.x)).toBeLessThan(0.04);
    expect(Math.abs(tray.y - synthetic.tray.y)).toBeLessThan(0.04);
    expect(Math.abs(tray.x + tray.w - (synthetic.tray.x + synthetic.tray.w))).toBeLessThan(0.04);
    expect(Math.abs(tray.y + tray.h - (synthetic.tray.y + synthetic.tray.h))).toBeLessThan(0.04);
    expect(found.json().coverage).toBeGreaterThan(0.3);
    expect((await b.app.inject({ url: URL })).json().source).toBe('config');
    expect((await send(b, 'POST', `${URL}/estimate`, undefined, {})).statusCode).toBe(401);
  });

  it('is refused in words for a table without a camera', async () => {
    const { b } = await start(folderForTest(), 'none');
    const r = await b.app.inject({ url: URL });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toEqual({ code: 'noCamera', message: 'This table has no camera: dice are typed in.' });
    expect((await send(b, 'PUT', URL, { tray: null })).statusCode).toBe(409);
  });
});

describe('CameraSetup', () => {
  const feedOf = (frame: Buffer | null) => {
    const applied: TrayCalibration[] = [];
    return { applied, setCalibration: (c: TrayCalibration) => applied.push(c), latestFrame: () => (frame ? { data: frame, mime: 'image/png' as const, at: 0 } : null) };
  };
  const keeperOf = (kept: SavedCalibration | null = null, failing = false) => ({
    kept,
    savedCalibration() {
      return this.kept;
    },
    saveCalibration(v: SavedCalibration | null) {
      if (failing) throw new Error('SQLITE_READONLY: attempt to write a readonly database');
      this.kept = v;
    },
  });

  it('applies nothing it could not keep', () => {
    const feed = feedOf(null);
    const setup = new CameraSetup(feed, SYNTHETIC_CALIBRATION, keeperOf(null, true));
    expect(() => setup.save({ x: 0.1, y: 0.1, w: 0.5, h: 0.5 }, null)).toThrow(/readonly/);
    expect(feed.applied).toEqual([]);
    expect(setup.view().source).toBe('config');
  });

  it('leaves a kept calibration that no longer parses unused, and says why', () => {
    const feed = feedOf(null);
    const setup = new CameraSetup(feed, SYNTHETIC_CALIBRATION, keeperOf({ tray: { x: 2, y: 0, w: 0.5, h: 0.5 }, keptZone: null, savedAt: 1 }));
    expect(setup.start()).toBe('saved calibration.tray.x: must be between 0 and 1, in normalised image coordinates (got 2)');
    expect(feed.applied).toEqual([]);
    expect(setup.view().source).toBe('config');
  });

  it('says so when there is no frame, or no tray in it', async () => {
    await expect(new CameraSetup(feedOf(null), SYNTHETIC_CALIBRATION, keeperOf()).estimate()).rejects.toMatchObject({ code: 'noFrame' });
    // coloured noise: no even surface anywhere
    const noise = Buffer.from(Array.from({ length: 160 * 120 * 3 }, (_, i) => (i * 7919) % 251));
    const png = await sharp(noise, { raw: { width: 160, height: 120, channels: 3 } }).png().toBuffer();
    const refused = new CameraSetup(feedOf(png), SYNTHETIC_CALIBRATION, keeperOf()).estimate();
    await expect(refused).rejects.toMatchObject({ code: 'noTray' });
    await expect(refused).rejects.toThrow(/^No tray found in the camera image \(no large uniform region found \(largest covers [\d.]+% of the image, needs 10%\)\)\. Empty the tray, light it evenly and try again, or draw the tray on the image\.$/);
  });
});
