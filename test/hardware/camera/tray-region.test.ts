/**
 * A 1080p camera that sees more of the table than the tray, replayed from files through the camera
 * configuration, the feed and the dice reader: the reader looks only in the calibrated tray
 * (server/vision/region.ts), and the game is told what a read of the whole frame, split by zone, says.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createDiceFeed } from '../../../server/hardware/camera/create.ts';
import { parseCameraConfig } from '../../../server/hardware/camera/config.ts';
import { zoneOf } from '../../../server/hardware/camera/calibration.ts';
import type { FeedReading } from '../../../server/hardware/camera/dice-feed.ts';
import type { ReadOptions } from '../../../server/hardware/ports.ts';
import { renderTray } from '../../../server/synth/index.ts';
import { createDiceReader, type VisionDiceReader } from '../../../server/vision/index.ts';
import { tempDir, waitForEvent } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('a 1080p camera with a calibrated tray → DiceFeed → vision', () => {
  it('reads only the tray, and reports what the whole frame read by zone reports', async () => {
    // a table with dice of its own (40 px), and a 960×720 tray of 6 dice with a kept die laid over its right part
    const table = await renderTray({ faces: [2, 2, 2, 2, 2], seed: 4, width: 1920, height: 1080, style: { dieSize: (40 * 640) / 1920 } });
    const tray = await renderTray({ faces: [1, 3, 4, 5, 6, 6], seed: 2, width: 960, height: 720, style: { dieSize: (40 * 640) / 960, keptFaces: [3] } });
    const [left, top] = [940, 320];
    const frame = await sharp(table.image).composite([{ input: tray.image, left, top }]).jpeg({ quality: 90 }).toBuffer();
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const folder = join(tmp.dir, 'frames');
    mkdirSync(folder);
    for (let i = 0; i < 8; i++) writeFileSync(join(folder, `frame${i}.jpg`), frame);

    // the tray's calibration inside the frame: renderTray's (synthetic-calibration.ts) moved and scaled
    const norm = (x: number, y: number, w: number, h: number) => ({ x: (left + x * 960) / 1920, y: (top + y * 720) / 1080, w: (w * 960) / 1920, h: (h * 720) / 1080 });
    const config = parseCameraConfig({ source: 'replay', folder, fps: 10, loop: false, tray: norm(0.04, 0.04, 0.68, 0.92), keptZone: norm(0.72, 0.04, 0.24, 0.92) });
    const reader = await createDiceReader();
    cleanups.push(() => reader.dispose());
    const asked: (ReadOptions | undefined)[] = [];
    const watched: VisionDiceReader = { ...reader, read: (image, options) => (asked.push(options), reader.read(image, options)) };
    const { feed } = createDiceFeed('hd', config, watched)!;
    cleanups.push(() => feed.stop());
    await feed.start();
    const reading = await waitForEvent<FeedReading>(feed, 'reading', () => true, 60_000);

    // the reader was asked for the tray and the kept zone only: under a third of the frame
    const within = asked[0]!.within!;
    expect(within.x).toBeCloseTo(norm(0.04, 0, 0, 0).x, 9);
    expect(within.x + within.w).toBeCloseTo(norm(0.96, 0, 0, 0).x, 9);
    expect(within.w * within.h).toBeLessThan(1 / 3);

    // the same frame read whole, and split by the zones of the calibration
    const whole = await reader.read(frame);
    const expected = { faces: [] as number[], kept: [] as number[], unreadable: 0 };
    let outside = 0;
    for (const d of whole.dice) {
      const zone = zoneOf(config.calibration, d.x, d.y, whole.width, whole.height);
      if (zone === 'outside') outside++;
      else if (d.face === null) expected.unreadable++;
      else (zone === 'kept' ? expected.kept : expected.faces).push(d.face);
    }
    expected.faces.sort((a, b) => a - b);
    expected.kept.sort((a, b) => a - b);
    // the table's own dice are in the frame, and none of them counts
    expect(outside).toBeGreaterThanOrEqual(3);
    expect({ faces: reading.faces, kept: reading.kept, unreadable: reading.unreadable }).toEqual(expected);
    expect(expected.faces.length + expected.kept.length + expected.unreadable).toBe(7);
  });
});
