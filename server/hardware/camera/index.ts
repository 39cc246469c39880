/** The webcam tray: what the table service needs. See hardware.md, "The webcam tray". */
export { checkCameraConfig, parseCameraConfig, CameraConfigError, CAMERA_SOURCES, type CameraConfig, type CameraSourceKind } from './config.ts';
export { createDiceFeed, createFrameSource } from './create.ts';
export { DiceFeed, type DiceFeedOptions, type FeedReading, type FeedVision, type VisionDie, type FeedCounters } from './dice-feed.ts';
export { SyntheticTraySource, SYNTHETIC_CALIBRATION, type ThrowState, type SettledDie } from './synthetic-tray-source.ts';
export { NodeWebcamSource } from './node-webcam-source.ts';
export { FfmpegSource } from './ffmpeg-source.ts';
export { ReplaySource } from './replay-source.ts';
export { parseArea, parseCalibration, areaToConfig, zoneOf, CalibrationError, type Area, type TrayCalibration, type Zone } from './calibration.ts';
export { estimateTrayFromImage } from './tray-estimate.ts';
export type { DiceReading } from './stabilizer.ts';
