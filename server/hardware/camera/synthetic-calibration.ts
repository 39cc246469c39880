import type { TrayCalibration } from './calibration.ts';

/**
 * Where server/synth's renderTray (demo scene) puts the tray and the kept zone: a 4% margin, and the
 * kept zone the right 26% of the tray behind a divider.
 */
export const SYNTHETIC_CALIBRATION: TrayCalibration = {
  tray: { kind: 'rect', x: 0.04, y: 0.04, w: 0.68, h: 0.92 },
  keptZone: { kind: 'rect', x: 0.72, y: 0.04, w: 0.24, h: 0.92 },
};
