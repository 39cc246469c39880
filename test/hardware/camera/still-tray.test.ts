/**
 * A still tray filmed through the camera's own path (PushedFrameSource → DiceFeed → stabiliser), with a
 * reader of test images (SquareDiceReader) so that what the reader says each frame is known.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Frame } from '../../../server/hardware/ports.ts';
import { PushedFrameSource } from '../../../server/hardware/camera/pushed-source.ts';
import { watchStillTray } from '../../../server/hardware/camera/still-tray.ts';
import { Rng } from '../../../server/synth/random.ts';
import { SquareDiceReader, squaresJpeg } from './helpers.ts';

describe('PushedFrameSource', () => {
  it('passes on each frame pushed while started, and refuses one before start or after stop', async () => {
    const s = new PushedFrameSource();
    expect(() => s.push(Buffer.from([1]))).toThrow(/before start\(\) or after stop\(\)/);
    const got: Frame[] = [];
    s.on('frame', (f: Frame) => got.push(f));
    await s.start();
    expect(s.status()).toMatchObject({ state: 'retrying', message: 'waiting for the first frame' });
    s.push(Buffer.from([1, 2]));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ data: Buffer.from([1, 2]), mime: 'image/jpeg' });
    expect(s.status().state).toBe('ok');
    await s.stop();
    expect(s.status().state).toBe('off');
    expect(() => s.push(Buffer.from([1]))).toThrow(/after stop/);
  });
});

describe('watchStillTray', () => {
  it('records each frame read, what the stabiliser showed and the one reading the game was told', async () => {
    const jpeg = await squaresJpeg([
      { x: 60, y: 80, face: 2 },
      { x: 200, y: 150, face: 5 },
    ]);
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const picture = { data: new Uint8Array(data), width: info.width, height: info.height };
    const reader = new SquareDiceReader();
    const probe = await reader.read(jpeg);
    const labels = probe.dice.map((d) => ({ x: d.x, y: d.y, w: d.w, h: d.h, face: d.face! }));
    expect(labels.map((l) => l.face).sort()).toEqual([2, 5]);
    const record = await watchStillTray(reader, picture, labels, { frames: 8, jitter: { noise: 1, gain: 0, shift: 0 }, quality: 95, rng: new Rng(4) });
    expect(record.frames).toBe(8);
    expect(record.raw).toHaveLength(8);
    // the first frame has nothing to compare with, then three still frames settle the tray
    expect(record.raw.slice(0, 3)).toEqual([null, null, null]);
    expect(record.unsettledFrames).toBe(3);
    for (const frame of record.raw.slice(3)) expect(frame).toEqual(labels.map((l) => l.face));
    expect(record.shown.slice(3).every((f) => f !== null)).toBe(true);
    // three agreeing reads decide a die: the reading comes with the sixth frame, once
    expect(record.readings).toEqual([{ frame: 5, faces: [2, 5], kept: [], unreadable: 0 }]);
  });
});
