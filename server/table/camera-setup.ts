/**
 * Where a table's camera reads the dice, set from the dashboard: the tray and the kept zone drawn on the
 * camera image (or found in a frame of the empty tray), kept in the database, and applied to the running
 * camera at once and at every start. A calibration set here wins over the tables file's, which stays the
 * one to go back to.
 */
import { calibrationToConfig, parseCalibration, type AreaConfig, type CalibrationConfig, type TrayCalibration } from '../hardware/camera/calibration.ts';
import { estimateTrayFromImage } from '../hardware/camera/tray-estimate.ts';
import type { Frame } from '../hardware/ports.ts';

export type { AreaConfig, CalibrationConfig };

export interface SavedCalibration extends CalibrationConfig {
  savedAt: number;
}

export interface CalibrationView extends CalibrationConfig {
  /** where the calibration in use comes from */
  source: 'saved' | 'config' | 'whole';
  /** the tables file's (what "back to the tables file's" restores) */
  configured: CalibrationConfig;
  /** when the calibration in use was set on the dashboard (null: it was not) */
  savedAt: number | null;
}

/** The tray found in a frame of the empty tray (not kept). */
export interface TrayEstimateReply {
  tray: { x: number; y: number; w: number; h: number };
  /** the even surface's share of the image, and of its rectangle */
  coverage: number;
  fill: number;
}

/** What the camera set-up needs of the camera feed. */
export interface CalibratedFeed {
  setCalibration(cal: TrayCalibration): void;
  latestFrame(): Frame | null;
}

/** Where a table keeps the calibration set on the dashboard (`null`: none). */
export interface CalibrationKeeper {
  savedCalibration(): SavedCalibration | null | undefined;
  /** Throws when the database refuses the write. */
  saveCalibration(value: SavedCalibration | null): void;
}

/** A request the camera set-up cannot carry out: `code` and words for the dashboard. */
export class CameraSetupError extends Error {
  constructor(
    readonly code: 'badCalibration' | 'noFrame' | 'noTray',
    message: string,
  ) {
    super(message);
  }
}

function parse(tray: unknown, keptZone: unknown, where: string): TrayCalibration {
  try {
    return parseCalibration(tray, keptZone, where);
  } catch (err) {
    throw new CameraSetupError('badCalibration', (err as Error).message);
  }
}

export class CameraSetup {
  private saved: SavedCalibration | null = null;

  constructor(
    private readonly feed: CalibratedFeed,
    private readonly configured: TrayCalibration,
    private readonly keeper: CalibrationKeeper,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Applies the calibration kept from the dashboard, if any. A kept one that no longer parses is left
   * unused (the tables file's is used) and its problem returned, for the log.
   */
  start(): string | null {
    const kept = this.keeper.savedCalibration();
    if (!kept) return null;
    try {
      this.feed.setCalibration(parse(kept.tray, kept.keptZone, 'saved calibration'));
      this.saved = { tray: kept.tray, keptZone: kept.keptZone, savedAt: kept.savedAt };
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  view(): CalibrationView {
    const configured = calibrationToConfig(this.configured);
    if (this.saved) return { ...this.saved, source: 'saved', configured, savedAt: this.saved.savedAt };
    return { ...configured, source: configured.tray || configured.keptZone ? 'config' : 'whole', configured, savedAt: null };
  }

  /** Checks, keeps and applies a calibration (`tray`, `keptZone` as in the tables file; null or absent: none). */
  save(tray: unknown, keptZone: unknown): CalibrationView {
    const cal = parse(tray, keptZone, 'camera');
    const saved: SavedCalibration = { ...calibrationToConfig(cal), savedAt: this.now() };
    this.keeper.saveCalibration(saved);
    this.saved = saved;
    this.feed.setCalibration(cal);
    return this.view();
  }

  /** Forgets the calibration set on the dashboard: the tables file's is used again. */
  reset(): CalibrationView {
    this.keeper.saveCalibration(null);
    this.saved = null;
    this.feed.setCalibration(this.configured);
    return this.view();
  }

  /** Finds the tray in the latest frame, which must show the empty tray; nothing is kept or applied. */
  async estimate(): Promise<TrayEstimateReply> {
    const frame = this.feed.latestFrame();
    if (!frame) throw new CameraSetupError('noFrame', 'No camera frame yet: the tray can be found once the camera sends images.');
    try {
      const found = await estimateTrayFromImage(frame.data);
      const round = (v: number) => Math.round(v * 1000) / 1000;
      const r = found.tray;
      // rounded inwards, so that the rectangle stays within the image
      const x = Math.ceil(r.x * 1000) / 1000;
      const y = Math.ceil(r.y * 1000) / 1000;
      const tray = { x, y, w: Math.floor((r.x + r.w - x) * 1000) / 1000, h: Math.floor((r.y + r.h - y) * 1000) / 1000 };
      return { tray, coverage: round(found.coverage), fill: round(found.fill) };
    } catch (err) {
      throw new CameraSetupError(
        'noTray',
        // the estimate's own advice speaks of the tables file; the dashboard's is to draw it
        `No tray found in the camera image (${(err as Error).message.replace(/^estimate: /, '').split(';')[0]}). Empty the tray, light it evenly and try again, or draw the tray on the image.`,
      );
    }
  }
}
