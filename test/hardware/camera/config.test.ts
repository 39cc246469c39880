import { describe, expect, it } from 'vitest';
import { checkCameraConfig, parseCameraConfig, CameraConfigError } from '../../../server/hardware/camera/config.ts';
import { checkNodeWebcamOptions } from '../../../server/hardware/camera/node-webcam-source.ts';
import { checkFfmpegOptions, ffmpegArgs } from '../../../server/hardware/camera/ffmpeg-source.ts';
import { parseVideoDevice } from '../../../server/hardware/camera/device.ts';
import { SYNTHETIC_CALIBRATION } from '../../../server/hardware/camera/synthetic-calibration.ts';

describe('camera configuration', () => {
  it('defaults to the synthetic tray with its own calibration', () => {
    for (const raw of [undefined, 'synthetic', { source: 'synthetic' }, { kind: 'synthetic' }]) {
      const c = parseCameraConfig(raw);
      expect(c.source).toBe('synthetic');
      expect(c.calibration).toEqual(SYNTHETIC_CALIBRATION);
      expect(c.fps).toBe(4);
    }
    expect(parseCameraConfig('none').source).toBe('none');
  });

  it('resolves a fswebcam camera with defaults and a calibrated tray', () => {
    const c = parseCameraConfig({ source: 'fswebcam', tray: { x: 0.1, y: 0.1, w: 0.8, h: 0.8 }, keptZone: { x: 0.85, y: 0.1, w: 0.1, h: 0.3 }, settle: { stillFrames: 4, alignShift: 3 } });
    expect(c).toMatchObject({ source: 'fswebcam', device: '/dev/video0', width: 640, height: 480, fps: 2, quality: 90, skip: 0 });
    expect(c.calibration.tray).toEqual({ kind: 'rect', x: 0.1, y: 0.1, w: 0.8, h: 0.8 });
    expect(c.settle).toMatchObject({ stillFrames: 4, alignShift: 3, shiftTolerance: 1 });
    expect(parseCameraConfig({ source: 'fswebcam' }).settle.alignShift).toBe(2);
  });

  it('lists every problem with its path', () => {
    const { config, problems } = checkCameraConfig(
      { source: 'fswebcam', device: '/dev/video0; rm -rf /', fps: 0, width: 10, tray: { x: 0.5, y: 0, w: 0.9, h: 1 }, folder: 'x', stabilizer: { window: 0 }, settle: { alignShift: 9 } },
      'tables[0].camera',
    );
    expect(config).toBeNull();
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.device: "\/dev\/video0; rm -rf \/" is not a camera device/);
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.fps: expected a number/);
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.width: expected an integer from 64/);
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.tray: the rectangle goes past/);
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.folder: unknown field for source "fswebcam"/);
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.stabilizer\.window/);
    expect(problems.join('\n')).toMatch(/tables\[0\]\.camera\.settle\.alignShift: must be an integer from 0 to 4 \(got 9\)/);
    expect(() => parseCameraConfig({ source: 'webcam' })).toThrow(CameraConfigError);
    expect(() => parseCameraConfig({ source: 'webcam' })).toThrow(/camera.source: expected one of synthetic, fswebcam, ffmpeg, replay, none/);
    expect(() => parseCameraConfig({ source: 'replay' })).toThrow(/needs a folder/);
    expect(() => parseCameraConfig({ source: 'ffmpeg', kind: 'fswebcam' })).toThrow(/disagree/);
    expect(() => parseCameraConfig(42)).toThrow(/expected "synthetic", "none" or an object/);
  });

  it('takes the frame rates each source takes, and no other (an ffmpeg camera at 0.2 frames a second was accepted, then failed to start)', () => {
    expect(() => parseCameraConfig({ source: 'ffmpeg', device: '/dev/video0', fps: 0.2 })).toThrow(/camera\.fps: expected a number from 0\.5 to 60 \(got 0\.2\)/);
    expect(parseCameraConfig({ source: 'ffmpeg', device: '/dev/video0', fps: 0.5 }).fps).toBe(0.5);
    expect(checkFfmpegOptions({ device: '/dev/video0', fps: 0.5 }).fps).toBe(0.5);
    expect(() => parseCameraConfig({ source: 'synthetic', fps: 0.05 })).toThrow(/from 0\.1 to 30/);
    expect(parseCameraConfig({ source: 'fswebcam', device: '/dev/video0', fps: 0.05 }).fps).toBe(0.05);
    expect(checkNodeWebcamOptions({ device: '/dev/video0', fps: 0.05 }).fps).toBe(0.05);
    expect(() => parseCameraConfig({ source: 'fswebcam', device: '/dev/video0', fps: 31 })).toThrow(/from 0\.05 to 30/);
  });

  it('accepts image2 patterns for ffmpeg only', () => {
    expect(parseCameraConfig({ source: 'ffmpeg', device: 'file:rec/%04d.jpg' }).device).toBe('file:rec/%04d.jpg');
    expect(() => parseCameraConfig({ source: 'fswebcam', device: 'file:rec/%04d.jpg' })).toThrow(/may only use letters/);
  });
});

describe('device whitelist (node-webcam puts options into a shell unescaped)', () => {
  const hostile = [
    '/dev/video0 && touch /tmp/pwned',
    '/dev/video0`id`',
    '$(id)',
    'file:a.jpg;id',
    'file:-o',
    'file:a b.jpg',
    'file:a|b',
    "file:a'b",
    '/dev/sda',
    '/dev/video0\n',
    '',
  ];
  it.each(hostile)('refuses %j', (device) => {
    expect(() => parseVideoDevice(device)).toThrow();
    expect(() => checkNodeWebcamOptions({ device })).toThrow();
  });

  it('accepts cameras and plain file paths', () => {
    expect(parseVideoDevice('/dev/video2')).toEqual({ kind: 'v4l2', path: '/dev/video2' });
    expect(parseVideoDevice('/dev/v4l/by-id/usb-Logitech_C270-video-index0')).toEqual({ kind: 'v4l2', path: '/dev/v4l/by-id/usb-Logitech_C270-video-index0' });
    expect(parseVideoDevice('file:/tmp/x/frame_1.jpg')).toEqual({ kind: 'file', path: '/tmp/x/frame_1.jpg' });
  });

  it('refuses numeric options outside their range (they reach the shell too)', () => {
    expect(() => checkNodeWebcamOptions({ device: '/dev/video0', width: 640.5 })).toThrow(/width/);
    expect(() => checkNodeWebcamOptions({ device: '/dev/video0', quality: 101 })).toThrow(/quality/);
    expect(() => checkNodeWebcamOptions({ device: '/dev/video0', skip: -1 })).toThrow(/skip/);
    expect(() => checkNodeWebcamOptions({ device: '/dev/video0', fps: Number.POSITIVE_INFINITY })).toThrow(/fps/);
  });

  it('builds the ffmpeg command for a camera as documented', () => {
    const args = ffmpegArgs(checkFfmpegOptions({ device: '/dev/video0', width: 640, height: 480, fps: 15 }));
    expect(args.join(' ')).toContain('-f v4l2 -input_format mjpeg -video_size 640x480 -framerate 15 -i /dev/video0 -c:v copy');
    expect(args.slice(-3)).toEqual(['-f', 'mjpeg', 'pipe:1']);
  });
});
