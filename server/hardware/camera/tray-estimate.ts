/** The empty-tray estimate from an encoded image (JPEG/PNG), e.g. the feed's latest frame. */
import { estimateTrayFromEmptyFrame, type EstimateOptions, type TrayEstimate } from './calibration.ts';
import { decodeRgb } from './grey.ts';

export async function estimateTrayFromImage(image: Buffer, opts: EstimateOptions = {}): Promise<TrayEstimate> {
  const rgb = await decodeRgb(image, 160);
  return estimateTrayFromEmptyFrame(rgb, opts);
}
