/** Builds a table's frame source and dice feed from its checked camera configuration. */
import type { DiceReader, FrameSource } from '../ports.ts';
import type { CameraConfig } from './config.ts';
import { DiceFeed } from './dice-feed.ts';
import { FfmpegSource } from './ffmpeg-source.ts';
import { NodeWebcamSource } from './node-webcam-source.ts';
import { ReplaySource } from './replay-source.ts';
import { SyntheticTraySource } from './synthetic-tray-source.ts';

/** null for source "none" (dice are typed in). */
export function createFrameSource(c: CameraConfig): FrameSource | null {
  switch (c.source) {
    case 'none':
      return null;
    case 'synthetic':
      return new SyntheticTraySource({ width: c.width, height: c.height, fps: c.fps, seed: c.seed, movingFrames: c.movingFrames });
    case 'fswebcam':
      return new NodeWebcamSource({ device: c.device ?? '/dev/video0', width: c.width, height: c.height, fps: c.fps, quality: c.quality, skip: c.skip });
    case 'ffmpeg':
      return new FfmpegSource({ device: c.device ?? '/dev/video0', width: c.width, height: c.height, fps: c.fps });
    case 'replay':
      return new ReplaySource({ folder: c.folder!, fps: c.fps, loop: c.loop });
  }
}

/**
 * The camera pipeline of one table, not started. `synthetic` is the SyntheticTraySource when the
 * camera is simulated (the dashboard's "throw" button and the attract mode drive it).
 */
export function createDiceFeed(
  tableId: string,
  c: CameraConfig,
  reader: DiceReader,
): { feed: DiceFeed; source: FrameSource; synthetic: SyntheticTraySource | null } | null {
  const source = createFrameSource(c);
  if (!source) return null;
  const feed = new DiceFeed({ tableId, source, reader, calibration: c.calibration, settle: c.settle, stabilizer: c.stabilizer });
  return { feed, source, synthetic: source instanceof SyntheticTraySource ? source : null };
}
