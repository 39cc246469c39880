/**
 * DiceFeed over real frame sources (replayed folders of JPEGs) and a reader of test images
 * (SquareDiceReader: bright squares whose grey level is the face).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { DeviceStatus } from '../../../server/http/protocol.ts';
import { DiceFeed, type FeedReading, type FeedVision } from '../../../server/hardware/camera/dice-feed.ts';
import { ReplaySource } from '../../../server/hardware/camera/replay-source.ts';
import { parseCalibration } from '../../../server/hardware/camera/calibration.ts';
import { SquareDiceReader, squaresJpeg, tempDir, waitForEvent } from './helpers.ts';

let tmp: ReturnType<typeof tempDir>;
const feeds: DiceFeed[] = [];
beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  for (const f of feeds.splice(0)) await f.stop();
  tmp.cleanup();
});

async function writeFrames(folder: string, frames: Buffer[]): Promise<void> {
  mkdirSync(folder, { recursive: true });
  frames.forEach((b, i) => writeFileSync(join(folder, `frame${String(i).padStart(4, '0')}.jpg`), b));
}

function record(feed: DiceFeed) {
  const readings: FeedReading[] = [];
  const visions: FeedVision[] = [];
  const statuses: DeviceStatus[] = [];
  feed.on('reading', (r: FeedReading) => readings.push(r));
  feed.on('vision', (v: FeedVision) => visions.push(v));
  feed.on('status', (s: DeviceStatus) => statuses.push(s));
  return { readings, visions, statuses };
}

const cal = parseCalibration({ x: 0.05, y: 0.05, w: 0.6, h: 0.9 }, { x: 0.7, y: 0.05, w: 0.25, h: 0.9 });

describe('DiceFeed', () => {
  it('reads only once the dice have stopped, splits rolling / kept, ignores dice outside the tray, emits once', async () => {
    const frames: Buffer[] = [];
    for (let i = 0; i < 5; i++) frames.push(await squaresJpeg([{ x: 40 + i * 18, y: 50 + i * 12, face: 1 + (i % 6) }, { x: 150 - i * 15, y: 180, face: 3 }]));
    const still = await squaresJpeg([
      { x: 60, y: 80, face: 2 },
      { x: 140, y: 170, face: 5 },
      { x: 270, y: 120, face: 6 }, // kept zone
      { x: 216, y: 40, face: 1 }, // between tray and kept zone: outside
    ]);
    for (let i = 0; i < 9; i++) frames.push(still);
    await writeFrames(join(tmp.dir, 'throw'), frames);
    const reader = new SquareDiceReader();
    const feed = new DiceFeed({ tableId: 't1', source: new ReplaySource({ folder: join(tmp.dir, 'throw'), fps: 40, loop: false }), reader, calibration: cal, stallMs: 60_000 });
    feeds.push(feed);
    const rec = record(feed);
    let statusAtReading: DeviceStatus | null = null;
    feed.once('reading', () => (statusAtReading = feed.status()));
    await feed.start();
    await waitForEvent(feed, 'reading');
    // the replay's end (status 'off', finished) comes after its last frame
    await waitForEvent(feed, 'status', (s: DeviceStatus) => s.state === 'off');
    await feed.whenIdle();
    expect(statusAtReading).toEqual({ kind: 'simulated', state: 'ok' });
    expect(rec.readings.map(({ faces, kept, unreadable }) => ({ faces, kept, unreadable }))).toEqual([{ faces: [2, 5], kept: [6], unreadable: 0 }]);
    expect(rec.readings[0].tableId).toBe('t1');
    // when the dice last moved: a moving frame's capture (the first one reported moving, or later), before the frame that completed the reading
    expect(rec.readings[0].movedAt!).toBeGreaterThanOrEqual(rec.visions[0]!.at);
    expect(rec.readings[0].movedAt!).toBeLessThan(rec.readings[0].at);
    // moving frames were never read: only the 9 still frames, less the ones that prove stillness
    expect(reader.reads).toBeLessThanOrEqual(9 - 2);
    // each read was asked to look only where the tray and the kept zone are
    expect(reader.regions.length).toBe(reader.reads);
    for (const r of reader.regions) {
      expect(r!.x).toBeCloseTo(0.05, 9);
      expect(r!.y).toBeCloseTo(0.05, 9);
      expect(r!.w).toBeCloseTo(0.9, 9);
      expect(r!.h).toBeCloseTo(0.9, 9);
    }
    expect(rec.visions[0]).toMatchObject({ settled: false, width: 320, height: 240, dice: [] });
    const last = rec.visions[rec.visions.length - 1];
    expect(last.settled).toBe(true);
    expect(last.dice.map((d) => [d.face, d.zone]).sort()).toEqual([[2, 'rolling'], [5, 'rolling'], [6, 'kept']]);
    // the die between the tray and the kept zone is never counted, but shown, for the players to move it in
    expect(last.outside?.map((d) => [d.face, Math.round(d.x), Math.round(d.y)])).toEqual([[1, 216, 40]]);
    // the dashboard is told which dice the stabiliser has not decided yet: all of them at the first read, none once read
    const firstRead = rec.visions.find((v) => v.settled)!;
    expect(firstRead.dice.length).toBe(3);
    expect(firstRead.dice.every((d) => d.pending === true)).toBe(true);
    expect(last.dice.some((d) => d.pending)).toBe(false);
    expect(last.frameUrl).toBe('/api/tables/t1/frame.jpg');
    // and where the camera reads, to draw over the image
    expect(last.areas).toEqual({ tray: { x: 0.05, y: 0.05, w: 0.6, h: 0.9 }, keptZone: { x: 0.7, y: 0.05, w: 0.25, h: 0.9 } });
    expect(feed.latestFrame()!.data.equals(still)).toBe(true);
    // the frame of the last settled read is kept with the dice shown for it (a player may label it)
    const settledRead = feed.lastSettledRead()!;
    expect(settledRead.frame.data.equals(still)).toBe(true);
    expect(settledRead.frame.at).toBe(last.at);
    expect(settledRead.dice).toEqual(last.dice);
    expect([settledRead.width, settledRead.height]).toEqual([320, 240]);
    expect(settledRead.within).toEqual(reader.regions.at(-1));
    // with when the dice last moved: every read of these resting dice has the reading's time
    expect(settledRead.movedAt).toBe(rec.readings[0].movedAt);
    expect(feed.manualDice()).toBe(true);
  });

  it('does not flicker when a die reads 4, 5, 4, 5 ... on still frames', async () => {
    const frames: Buffer[] = [];
    for (let i = 0; i < 16; i++) frames.push(await squaresJpeg([{ x: 80, y: 100, face: i % 2 ? 5 : 4 }, { x: 160, y: 120, face: null }]));
    await writeFrames(join(tmp.dir, 'noisy'), frames);
    const reader = new SquareDiceReader();
    const feed = new DiceFeed({ tableId: 't', source: new ReplaySource({ folder: join(tmp.dir, 'noisy'), fps: 40, loop: false }), reader, stallMs: 60_000 });
    feeds.push(feed);
    const rec = record(feed);
    await feed.start();
    await waitForEvent(feed, 'vision', () => reader.reads >= 8);
    expect(rec.readings.length).toBe(1);
    expect([[4], [5]]).toContainEqual(rec.readings[0].faces);
    // no tray calibrated: the whole frame is the tray, and the reader looks at all of it
    expect(reader.regions.every((r) => r === undefined)).toBe(true);
    // the unreadable die stays unreadable, not guessed
    expect(rec.readings[0].unreadable).toBe(1);
  });

  it('reads still dice under a camera that shakes by 4 pixels each frame (settle alignment), and not without it', async () => {
    const dice = [{ x: 80, y: 100, face: 3 }, { x: 200, y: 150, face: 6 }];
    const shaken = (k: number) => dice.map((d) => ({ ...d, x: d.x + (k % 2) * 4, y: d.y - (k % 2) * 4 }));
    await writeFrames(join(tmp.dir, 'shaky'), await Promise.all(Array.from({ length: 20 }, (_, k) => squaresJpeg(shaken(k)))));
    const readingsWith = async (settle: { alignShift?: number }) => {
      const reader = new SquareDiceReader();
      const feed = new DiceFeed({ tableId: 't', source: new ReplaySource({ folder: join(tmp.dir, 'shaky'), fps: 20, loop: false }), reader, settle, stallMs: 60_000 });
      feeds.push(feed);
      const rec = record(feed);
      await feed.start();
      await waitForEvent(feed, 'status', (s: DeviceStatus) => s.state === 'off');
      await feed.whenIdle();
      return rec.readings.map((r) => r.faces);
    };
    expect(await readingsWith({})).toEqual([[3, 6]]);
    // every frame moved by 2 grey pixels, beyond the 1 that shiftTolerance forgives: all taken for motion
    expect(await readingsWith({ alignShift: 0 })).toEqual([]);
  });

  it('reports corrupt frames (table falls back to manual dice) and recovers when good frames return', async () => {
    const good = await squaresJpeg([{ x: 80, y: 100, face: 3 }]);
    const bad = good.subarray(0, Math.floor(good.length / 2));
    const frames = [good, good, good, good, bad, bad, bad, bad, Buffer.from('garbage'), good, good, good, good, good];
    await writeFrames(join(tmp.dir, 'corrupt'), frames);
    const reader = new SquareDiceReader();
    const feed = new DiceFeed({ tableId: 't', source: new ReplaySource({ folder: join(tmp.dir, 'corrupt'), fps: 30, loop: false }), reader, corruptLimit: 3, stallMs: 60_000 });
    feeds.push(feed);
    const rec = record(feed);
    await feed.start();
    const broken = await waitForEvent<DeviceStatus>(feed, 'status', (s) => s.state === 'retrying');
    expect(broken.message).toMatch(/corrupt/);
    expect(feed.manualDice()).toBe(true);
    await waitForEvent<DeviceStatus>(feed, 'status', (s) => s.state === 'ok');
    expect(feed.manualDice()).toBe(false);
    expect(feed.counters.framesCorrupt).toBeGreaterThanOrEqual(3);
    // the frame kept for the dashboard is always a whole image
    await sharp(feed.latestFrame()!.data).stats();
    expect(rec.statuses.some((s) => s.state === 'error')).toBe(false);
  });

  it('drops frames while the reader is busy instead of queueing them', async () => {
    const still = await squaresJpeg([{ x: 80, y: 100, face: 6 }]);
    await writeFrames(join(tmp.dir, 'burst'), Array.from({ length: 30 }, () => still));
    const reader = new SquareDiceReader(150);
    const feed = new DiceFeed({ tableId: 't', source: new ReplaySource({ folder: join(tmp.dir, 'burst'), fps: 60, loop: false }), reader, stallMs: 60_000 });
    feeds.push(feed);
    await feed.start();
    await waitForEvent(feed, 'reading');
    await waitForEvent(feed, 'vision', () => feed.counters.framesIn >= 30);
    expect(reader.maxActive).toBe(1);
    expect(feed.counters.framesDropped).toBeGreaterThan(0);
    expect(reader.reads).toBeLessThan(30);
  });

  it('mirrors a failing source, recovers when frames come, and notices when they stop', async () => {
    const folder = join(tmp.dir, 'late');
    const source = new ReplaySource({ folder, fps: 30, loop: false, backoff: { initialMs: 50, maxMs: 100 } });
    const feed = new DiceFeed({ tableId: 't', source, reader: new SquareDiceReader(), stallMs: 500 });
    feeds.push(feed);
    await feed.start();
    const lost = await waitForEvent<DeviceStatus>(feed, 'status', (s) => /no such folder/.test(s.message ?? ''));
    expect(lost).toMatchObject({ kind: 'simulated', state: 'retrying' });
    expect(feed.manualDice()).toBe(true);
    await writeFrames(folder, [await squaresJpeg([{ x: 50, y: 50, face: 1 }]), await squaresJpeg([{ x: 50, y: 50, face: 1 }])]);
    await waitForEvent<DeviceStatus>(feed, 'status', (s) => s.state === 'ok');
    // the replay ends: no more frames
    const stalled = await waitForEvent<DeviceStatus>(feed, 'status', (s) => s.state !== 'ok');
    expect(stalled.message).toMatch(/no frame from the camera|finished/);
    expect(feed.manualDice()).toBe(true);
  });
});
