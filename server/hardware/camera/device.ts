/**
 * Strict whitelist for camera device strings. node-webcam builds a shell command from its options
 * without escaping, so nothing reaches it (or ffmpeg) unless it matches these patterns.
 */

export type VideoDevice = { kind: 'v4l2'; path: string } | { kind: 'file'; path: string };

export class DeviceError extends Error {
  override name = 'DeviceError';
}

/** Only characters with no meaning to a shell; no leading '-' (it would read as an option). */
const SAFE_PATH = /^[A-Za-z0-9_./+][A-Za-z0-9_./+-]*$/;
/** ffmpeg's image2 input also takes a %d pattern (frames/%04d.jpg). */
const SAFE_PATTERN = /^[A-Za-z0-9_./+][A-Za-z0-9_./+%-]*$/;
const V4L2 = /^\/dev\/(video\d{1,3}|v4l\/by-(id|path)\/[A-Za-z0-9_.:+-]+)$/;

export function isSafePath(p: string, allowPattern = false): boolean {
  return p.length > 0 && p.length <= 1024 && (allowPattern ? SAFE_PATTERN : SAFE_PATH).test(p);
}

/**
 * Parses a device: `/dev/videoN`, `/dev/v4l/by-id/NAME` or `/dev/v4l/by-path/NAME` (a camera), or
 * `file:PATH` (an image or stream read through the same capture path). Throws DeviceError with the rule broken.
 */
export function parseVideoDevice(raw: unknown, where = 'device', allowPattern = false): VideoDevice {
  if (typeof raw !== 'string') throw new DeviceError(`${where}: must be a string like /dev/video0 or file:PATH (got ${JSON.stringify(raw)})`);
  if (raw.startsWith('file:')) {
    const path = raw.slice(5);
    if (!isSafePath(path, allowPattern)) {
      throw new DeviceError(
        `${where}: file path "${raw}" may only use letters, digits and _ . / + -${allowPattern ? ' %' : ''}, and may not start with -`,
      );
    }
    return { kind: 'file', path };
  }
  if (!V4L2.test(raw)) {
    throw new DeviceError(`${where}: "${raw}" is not a camera device: use /dev/videoN, /dev/v4l/by-id/NAME, /dev/v4l/by-path/NAME or file:PATH`);
  }
  return { kind: 'v4l2', path: raw };
}

/** Frames a second each source takes: its default and the range (checked by the tables file and by the source itself). */
export const FPS = {
  synthetic: { default: 4, min: 0.1, max: 30 },
  fswebcam: { default: 2, min: 0.05, max: 30 },
  ffmpeg: { default: 10, min: 0.5, max: 60 },
  replay: { default: 2, min: 0.05, max: 60 },
} as const;

export function deviceToString(d: VideoDevice): string {
  return d.kind === 'file' ? `file:${d.path}` : d.path;
}

/** Checks an integer option; the error names the option and the allowed range. */
export function checkInt(v: unknown, where: string, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new DeviceError(`${where}: must be an integer from ${lo} to ${hi} (got ${JSON.stringify(v)})`);
  }
  return v;
}

export function checkNumber(v: unknown, where: string, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) {
    throw new DeviceError(`${where}: must be a number from ${lo} to ${hi} (got ${JSON.stringify(v)})`);
  }
  return v;
}
