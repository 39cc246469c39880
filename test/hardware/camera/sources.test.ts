/**
 * The frame sources against the real programs: fswebcam through node-webcam (its `-d file:IMG`
 * source reads an image through the real capture path) and ffmpeg reading a file as a stream.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { DeviceStatus } from '../../../server/http/protocol.ts';
import type { Frame, FrameSource } from '../../../server/hardware/ports.ts';
import { describeFailure, NodeWebcamSource } from '../../../server/hardware/camera/node-webcam-source.ts';
import { FfmpegSource } from '../../../server/hardware/camera/ffmpeg-source.ts';
import { ReplaySource } from '../../../server/hardware/camera/replay-source.ts';
import { isWholeJpeg } from '../../../server/hardware/camera/jpeg-stream.ts';
import { tempDir, trayJpeg, waitForEvent, WEBCAM_DATA } from './helpers.ts';

const fast = { initialMs: 50, maxMs: 200 };

let tmp: ReturnType<typeof tempDir>;
const started: FrameSource[] = [];
beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
  tmp.cleanup();
});

function track<T extends FrameSource>(s: T): T {
  started.push(s);
  return s;
}

async function dims(jpeg: Buffer): Promise<[number, number]> {
  const m = await sharp(jpeg).metadata();
  return [m.width!, m.height!];
}

describe('NodeWebcamSource (node-webcam → fswebcam)', () => {
  it('captures frames from fswebcam file source', async () => {
    const img = join(tmp.dir, 'tray.jpg');
    writeFileSync(img, await trayJpeg([{ x: 100, y: 100 }], { width: 320, height: 240 }));
    const src = track(new NodeWebcamSource({ device: `file:${img}`, width: 320, height: 240, fps: 20 }));
    const frames: Frame[] = [];
    src.on('frame', (f: Frame) => frames.push(f));
    await src.start();
    await waitForEvent(src, 'frame', () => frames.length >= 2);
    expect(src.status()).toEqual({ kind: 'real', state: 'ok' });
    expect(frames[0].mime).toBe('image/jpeg');
    expect(isWholeJpeg(frames[0].data)).toBe(true);
    expect(await dims(frames[0].data)).toEqual([320, 240]);
  });

  it('captures a real webcam photo through fswebcam', async (ctx) => {
    const photo = join(WEBCAM_DATA, 'valid', 'valid_1.jpg');
    if (!existsSync(photo)) return ctx.skip(`real webcam photos not found at ${WEBCAM_DATA}`);
    const src = track(new NodeWebcamSource({ device: `file:${photo}`, fps: 5 }));
    await src.start();
    const f = await waitForEvent<Frame>(src, 'frame');
    // re-encoded by fswebcam, same picture
    const [a, b] = await Promise.all([photo, f.data].map((x) => sharp(x).resize(32, 24).greyscale().raw().toBuffer()));
    const meanDiff = a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;
    expect(meanDiff).toBeLessThan(6);
  });

  it('reports a missing device as retrying, keeps retrying, and recovers when it appears', async () => {
    const img = join(tmp.dir, 'later.jpg');
    const src = track(new NodeWebcamSource({ device: `file:${img}`, fps: 20, backoff: fast }));
    const statuses: DeviceStatus[] = [];
    src.on('status', (s: DeviceStatus) => statuses.push(s));
    await src.start();
    await waitForEvent<DeviceStatus>(src, 'status', (s) => s.state === 'retrying' && /attempt 2/.test(s.message ?? ''));
    expect(src.status().message).toMatch(/no such camera device|wrote no image/);
    writeFileSync(img, await trayJpeg([]));
    await waitForEvent(src, 'frame');
    expect(src.status().state).toBe('ok');
    expect(statuses.some((s) => s.state === 'error')).toBe(false);
  });

  it('survives a corrupt image (fswebcam crashes on it) and recovers when it is replaced', async () => {
    const img = join(tmp.dir, 'cam.jpg');
    writeFileSync(img, 'this is not an image');
    const src = track(new NodeWebcamSource({ device: `file:${img}`, fps: 20, backoff: fast }));
    await src.start();
    const st = await waitForEvent<DeviceStatus>(src, 'status', (s) => s.state === 'retrying' && /attempt/.test(s.message ?? ''));
    expect(st.message).toMatch(/cam\.jpg/);
    // in fswebcam's words, without the C library's crash report
    expect(st.message).not.toMatch(/double free|Aborted|tcache/i);
    writeFileSync(img, await trayJpeg([{ x: 50, y: 50 }]));
    const f = await waitForEvent<Frame>(src, 'frame');
    expect(isWholeJpeg(f.data)).toBe(true);
    expect(src.status().state).toBe('ok');
  });

  it('reports a missing camera device as retrying (no /dev/video here)', async (ctx) => {
    if (existsSync('/dev/video9')) return ctx.skip('/dev/video9 exists on this machine');
    const src = track(new NodeWebcamSource({ device: '/dev/video9', backoff: fast }));
    await src.start();
    const st = await waitForEvent<DeviceStatus>(src, 'status', (s) => /attempt/.test(s.message ?? ''));
    expect(st).toMatchObject({ kind: 'real', state: 'retrying' });
    expect(st.message).toMatch(/\/dev\/video9/);
  });

  it('says what fswebcam said when it crashed, without the crash report', () => {
    const crash = new Error('Command failed: fswebcam -d file:/x/cam.jpg\n--- Opening file:/x/cam.jpg...\nUnknown file format.\nfree(): double free detected in tcache 2\nAborted (core dumped)');
    expect(describeFailure(crash)).toBe('fswebcam failed: --- Opening file:/x/cam.jpg...; Unknown file format.');
    expect(describeFailure(new Error('Command failed: fswebcam -d /dev/video0\n--- Opening /dev/video0...\nopen: Permission denied'))).toBe('fswebcam failed: --- Opening /dev/video0...; open: Permission denied (the service\'s user must be in the video group: hardware.md, "Troubleshooting")');
  });

  it('refuses shell metacharacters before anything runs', () => {
    expect(() => new NodeWebcamSource({ device: `file:${tmp.dir}/x.jpg; touch ${tmp.dir}/pwned` })).toThrow(/may only use/);
    expect(existsSync(join(tmp.dir, 'pwned'))).toBe(false);
  });
});

describe('FfmpegSource (one ffmpeg process, JPEGs split from its output)', () => {
  it('streams a looped MJPEG file', async () => {
    const parts = await Promise.all([0, 1, 2].map((i) => trayJpeg([{ x: 40 + i * 60, y: 100 }])));
    const mjpeg = join(tmp.dir, 'clip.mjpeg');
    writeFileSync(mjpeg, Buffer.concat(parts));
    const src = track(new FfmpegSource({ device: `file:${mjpeg}`, fps: 25 }));
    const frames: Frame[] = [];
    src.on('frame', (f: Frame) => frames.push(f));
    await src.start();
    // more frames than the file holds: the loop works
    const seen = () => new Set(frames.map((f) => parts.findIndex((p) => p.equals(f.data))));
    await waitForEvent(src, 'frame', () => frames.length >= 5 && seen().size === 3);
    expect(src.status()).toEqual({ kind: 'real', state: 'ok' });
    // -c:v copy: the very bytes of the file's JPEGs
    for (const f of frames) expect(parts.some((p) => p.equals(f.data))).toBe(true);
  });

  it('streams an image2 pattern and a single PNG', async () => {
    const dir = join(tmp.dir, 'rec');
    mkdirSync(dir);
    for (let i = 1; i <= 2; i++) writeFileSync(join(dir, `f${String(i).padStart(3, '0')}.jpg`), await trayJpeg([{ x: 50 * i, y: 60 }]));
    const a = track(new FfmpegSource({ device: `file:${dir}/f%03d.jpg`, fps: 20 }));
    await a.start();
    expect(isWholeJpeg((await waitForEvent<Frame>(a, 'frame')).data)).toBe(true);
    await a.stop();
    const png = join(tmp.dir, 'one.png');
    await sharp(await trayJpeg([])).png().toFile(png);
    const b = track(new FfmpegSource({ device: `file:${png}`, fps: 20 }));
    await b.start();
    const f = await waitForEvent<Frame>(b, 'frame');
    expect(await dims(f.data)).toEqual([320, 240]);
  });

  it('reports a missing input as retrying and restarts ffmpeg once it exists', async () => {
    const mjpeg = join(tmp.dir, 'late.mjpeg');
    const src = track(new FfmpegSource({ device: `file:${mjpeg}`, fps: 20, backoff: fast }));
    await src.start();
    const st = await waitForEvent<DeviceStatus>(src, 'status', (s) => /attempt/.test(s.message ?? ''));
    expect(st.state).toBe('retrying');
    expect(st.message).toMatch(/ffmpeg exited with code/);
    writeFileSync(mjpeg, await trayJpeg([{ x: 60, y: 60 }]));
    await waitForEvent(src, 'frame');
    expect(src.status().state).toBe('ok');
  });

  it('reports a missing ffmpeg program as retrying, without crashing', async () => {
    const src = track(new FfmpegSource({ device: '/dev/video0', ffmpegPath: '/nonexistent/ffmpeg', backoff: fast }));
    await src.start();
    const st = await waitForEvent<DeviceStatus>(src, 'status', (s) => /attempt 2/.test(s.message ?? ''));
    expect(st.state).toBe('retrying');
    expect(st.message).toMatch(/could not run/);
  });

  it('restarts a stream that goes silent (a hung camera) and recovers', async () => {
    // stands in for an ffmpeg whose camera hangs: one frame, then nothing while the process lives on
    const frame = join(tmp.dir, 'one.jpg');
    writeFileSync(frame, await trayJpeg([{ x: 30, y: 30 }]));
    const hung = join(tmp.dir, 'hung-ffmpeg');
    writeFileSync(hung, `#!/bin/sh\ncat ${frame}\nexec sleep 30\n`, { mode: 0o755 });
    const src = track(new FfmpegSource({ device: '/dev/video0', ffmpegPath: hung, stallMs: 300, backoff: fast }));
    const statuses: DeviceStatus[] = [];
    src.on('status', (s: DeviceStatus) => statuses.push(s));
    await src.start();
    await waitForEvent(src, 'frame');
    const st = await waitForEvent<DeviceStatus>(src, 'status', (s) => s.state === 'retrying' && /no frame from ffmpeg for 300 ms/.test(s.message ?? ''));
    expect(st.message).toMatch(/attempt 1/);
    // restarted: the next process delivers its frame again
    await waitForEvent(src, 'frame');
    expect(src.status().state).toBe('ok');
    expect(statuses.some((s) => s.state === 'error')).toBe(false);
  });
});

describe('ReplaySource', () => {
  it('replays a folder in natural order, looping', async () => {
    const dir = join(tmp.dir, 'replay');
    mkdirSync(dir);
    const imgs = await Promise.all([1, 2, 10].map((i) => trayJpeg([{ x: 20 * i, y: 40 }])));
    writeFileSync(join(dir, 'f10.jpg'), imgs[2]);
    writeFileSync(join(dir, 'f2.jpg'), imgs[1]);
    writeFileSync(join(dir, 'f1.jpg'), imgs[0]);
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const src = track(new ReplaySource({ folder: dir, fps: 50 }));
    const frames: Frame[] = [];
    src.on('frame', (f: Frame) => frames.push(f));
    await src.start();
    await waitForEvent(src, 'frame', () => frames.length >= 4);
    expect(frames.slice(0, 4).map((f) => imgs.findIndex((b) => b.equals(f.data)))).toEqual([0, 1, 2, 0]);
    expect(src.kind).toBe('simulated');
  });

  it('retries a missing folder and starts when it appears', async () => {
    const dir = join(tmp.dir, 'notyet');
    const src = track(new ReplaySource({ folder: dir, fps: 50, backoff: fast }));
    await src.start();
    const st = await waitForEvent<DeviceStatus>(src, 'status', (s) => /attempt/.test(s.message ?? ''));
    expect(st.message).toMatch(/no such folder/);
    mkdirSync(dir);
    const img = await trayJpeg([]);
    writeFileSync(join(dir, 'a.jpg'), img);
    const f = await waitForEvent<Frame>(src, 'frame');
    expect(f.data.equals(img)).toBe(true);
    expect(src.status().state).toBe('ok');
  });
});
