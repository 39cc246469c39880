/**
 * A table's camera configuration, as written in the config file:
 *   "camera": "synthetic" | "none" | {
 *     "source": "synthetic" | "fswebcam" | "ffmpeg" | "replay" | "none",   ("kind" is accepted for "source")
 *     "device": "/dev/video0" | "file:PATH",     (fswebcam, ffmpeg; default /dev/video0)
 *     "folder": "PATH",                          (replay; "device" is accepted too)
 *     "width": 640, "height": 480, "fps": N,
 *     "tray": {x,y,w,h} | {quad: [[x,y],…]},   "keptZone": same,   (normalised 0..1)
 *     "settle": {pixelThreshold, motionFraction, stillFrames, shiftTolerance, matchExposure, alignShift},
 *     "stabilizer": {window, minVotes, switchVotes, memory, switchLead, maxMisses, matchDistance},
 *     "quality", "skip" (fswebcam), "seed", "movingFrames" (synthetic), "loop" (replay)
 *   }
 * Every problem is reported with the path of the field.
 */
import { CalibrationError, parseArea, type TrayCalibration } from './calibration.ts';
import { DeviceError, FPS, parseVideoDevice } from './device.ts';
import { DEFAULT_SETTLE, validateSettleOptions, type SettleOptions } from './settle.ts';
import { DEFAULT_STABILIZER, validateStabilizerOptions, type StabilizerOptions } from './stabilizer.ts';
import { SYNTHETIC_CALIBRATION } from './synthetic-calibration.ts';

export type CameraSourceKind = 'synthetic' | 'fswebcam' | 'ffmpeg' | 'replay' | 'none';
export const CAMERA_SOURCES: readonly CameraSourceKind[] = ['synthetic', 'fswebcam', 'ffmpeg', 'replay', 'none'];

export interface CameraConfig {
  source: CameraSourceKind;
  /** fswebcam, ffmpeg: /dev/videoN or file:PATH */
  device?: string;
  /** replay: folder of images */
  folder?: string;
  width: number;
  height: number;
  fps: number;
  calibration: TrayCalibration;
  settle: SettleOptions;
  stabilizer: StabilizerOptions;
  /** fswebcam JPEG quality */
  quality?: number;
  /** fswebcam frames skipped before each capture */
  skip?: number;
  /** synthetic: seed of faces and layouts */
  seed?: number;
  /** synthetic: tumbling frames per throw */
  movingFrames?: number;
  /** replay: start over after the last image (default true) */
  loop?: boolean;
}

export class CameraConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid camera configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CameraConfigError';
  }
}


const COMMON = ['$comment', 'source', 'kind', 'width', 'height', 'fps', 'tray', 'keptZone', 'settle', 'stabilizer'];
const EXTRA: Record<CameraSourceKind, string[]> = {
  synthetic: ['seed', 'movingFrames'],
  fswebcam: ['device', 'quality', 'skip'],
  ffmpeg: ['device'],
  replay: ['folder', 'device', 'loop'],
  none: [],
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A settle or stabilizer settings object checked field by field: unknown fields and out-of-range values
 * are problems named with `where`; the options are the defaults with the valid fields given.
 */
export function checkPathOptions<T extends object>(
  given: Record<string, unknown>,
  where: string,
  defaults: T,
  validate: (o: Partial<T>, where: string) => T,
): { options: T | null; problems: string[] } {
  const problems: string[] = [];
  const bad = Object.keys(given).filter((k) => !Object.hasOwn(defaults, k));
  if (bad.length) problems.push(`${where}: unknown field(s) ${bad.join(', ')} (allowed: ${Object.keys(defaults).join(', ')})`);
  try {
    return { options: validate(given as Partial<T>, where), problems };
  } catch (err) {
    return { options: null, problems: [...problems, (err as Error).message] };
  }
}

function intIn(v: unknown, path: string, lo: number, hi: number, problems: string[], fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    problems.push(`${path}: expected an integer from ${lo} to ${hi} (got ${JSON.stringify(v)})`);
    return fallback;
  }
  return v;
}

/** Checks a camera setting; returns the resolved configuration (null if it has problems) and every problem found. */
export function checkCameraConfig(raw: unknown, path = 'camera'): { config: CameraConfig | null; problems: string[] } {
  const problems: string[] = [];
  let o: Record<string, unknown>;
  if (raw === undefined || raw === null || raw === 'synthetic') o = { source: 'synthetic' };
  else if (raw === 'none' || raw === false) o = { source: 'none' };
  else if (isObject(raw)) o = raw;
  else {
    return { config: null, problems: [`${path}: expected "synthetic", "none" or an object with "source" (${CAMERA_SOURCES.join(', ')})`] };
  }
  if (o.source !== undefined && o.kind !== undefined && o.source !== o.kind) {
    problems.push(`${path}: "source" and "kind" disagree (${JSON.stringify(o.source)} vs ${JSON.stringify(o.kind)})`);
  }
  const sourceRaw = o.source ?? o.kind ?? 'synthetic';
  if (typeof sourceRaw !== 'string' || !CAMERA_SOURCES.includes(sourceRaw as CameraSourceKind)) {
    return { config: null, problems: [...problems, `${path}.source: expected one of ${CAMERA_SOURCES.join(', ')} (got ${JSON.stringify(sourceRaw)})`] };
  }
  const source = sourceRaw as CameraSourceKind;
  const allowed = [...COMMON, ...EXTRA[source]];
  for (const k of Object.keys(o)) if (!allowed.includes(k)) problems.push(`${path}.${k}: unknown field for source "${source}" (allowed: ${allowed.join(', ')})`);

  const width = intIn(o.width, `${path}.width`, 64, 4096, problems, 640);
  const height = intIn(o.height, `${path}.height`, 48, 4096, problems, 480);
  const range = source === 'none' ? { default: 0, min: 0, max: 0 } : FPS[source];
  let fps: number = range.default;
  if (o.fps !== undefined) {
    if (typeof o.fps !== 'number' || !Number.isFinite(o.fps) || o.fps < range.min || o.fps > range.max) {
      problems.push(`${path}.fps: expected a number from ${range.min} to ${range.max} (got ${JSON.stringify(o.fps)})`);
    } else fps = o.fps;
  }

  let calibration: TrayCalibration = source === 'synthetic' ? SYNTHETIC_CALIBRATION : { tray: null, keptZone: null };
  for (const key of ['tray', 'keptZone'] as const) {
    if (o[key] === undefined) continue;
    try {
      calibration = { ...calibration, [key]: o[key] === null ? null : parseArea(o[key], `${path}.${key}`) };
    } catch (err) {
      if (err instanceof CalibrationError) problems.push(err.message);
      else throw err;
    }
  }

  const pathOptions = <T extends object>(key: 'settle' | 'stabilizer', defaults: T, validate: (o: Partial<T>, where: string) => T): T => {
    const given = o[key];
    if (given === undefined) return defaults;
    if (!isObject(given)) {
      problems.push(`${path}.${key}: expected an object`);
      return defaults;
    }
    const checked = checkPathOptions(given, `${path}.${key}`, defaults, validate);
    problems.push(...checked.problems);
    return checked.options ?? defaults;
  };
  const settle = pathOptions<SettleOptions>('settle', DEFAULT_SETTLE, validateSettleOptions);
  const stabilizer = pathOptions<StabilizerOptions>('stabilizer', DEFAULT_STABILIZER, validateStabilizerOptions);

  const config: CameraConfig = { source, width, height, fps, calibration, settle, stabilizer };
  if (source === 'fswebcam' || source === 'ffmpeg') {
    const device = o.device ?? '/dev/video0';
    try {
      parseVideoDevice(device, `${path}.device`, source === 'ffmpeg');
      config.device = device as string;
    } catch (err) {
      if (err instanceof DeviceError) problems.push(err.message);
      else throw err;
    }
  }
  if (source === 'fswebcam') {
    config.quality = intIn(o.quality, `${path}.quality`, 1, 100, problems, 90);
    config.skip = intIn(o.skip, `${path}.skip`, 0, 30, problems, 0);
  }
  if (source === 'synthetic') {
    if (o.seed !== undefined) config.seed = intIn(o.seed, `${path}.seed`, 0, 2 ** 31, problems, 1);
    config.movingFrames = intIn(o.movingFrames, `${path}.movingFrames`, 1, 30, problems, 3);
  }
  if (source === 'replay') {
    if (o.folder !== undefined && o.device !== undefined) problems.push(`${path}: give "folder" or "device", not both`);
    const folder = o.folder ?? o.device;
    if (typeof folder !== 'string' || folder.length === 0) problems.push(`${path}.folder: the replay source needs a folder of images`);
    else config.folder = folder;
    if (o.loop !== undefined && typeof o.loop !== 'boolean') problems.push(`${path}.loop: expected true or false`);
    else config.loop = (o.loop as boolean | undefined) ?? true;
  }
  return problems.length ? { config: null, problems } : { config, problems };
}

/** Like checkCameraConfig, but throws CameraConfigError listing every problem. */
export function parseCameraConfig(raw: unknown, path = 'camera'): CameraConfig {
  const { config, problems } = checkCameraConfig(raw, path);
  if (!config) throw new CameraConfigError(problems);
  return config;
}
