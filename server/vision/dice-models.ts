/**
 * Which dice model the service reads with, and teaching it a table's dice from the dashboard.
 *
 * Folders (in the service's data folder):
 *   dice-model/             the model taught on the dashboard (or by `npm run model:adapt --out` there): read at start
 *   dice-model-set-aside/   a taught model the players set aside ("back to the base model"): kept to take up again
 * The base model is FLIGHTDECK_MODEL's folder, else the shipped `models/`. At start the service reads
 * FLIGHTDECK_MODEL when it is set, else a taught model in dice-model/, else the shipped one. Teaching
 * always starts from the base model and all the saved photos, so a second teaching replaces the first.
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DiceReader } from '../hardware/ports.ts';
import { DEFAULT_MODEL_DIR, modelName, readSpec, taughtCheckOf, type CheckFigures } from './model-store.ts';
import { ModelTeacher, TeachingError, type ModelTeacherOptions, type Teaching } from './model-teacher.ts';
import { SwappableReader } from './swappable-reader.ts';

/** Fewer saved photos than this teach too little, and leave too few kept back to check on. */
export const MIN_TEACH_PHOTOS = 6;

type Reader = DiceReader & { dispose?(): void };
type Log = { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

export type ModelKind = 'shipped' | 'configured' | 'taught';

export interface ModelFolder {
  kind: ModelKind;
  folder: string;
  /** its name for people (version, and what it was taught) */
  model: string;
}

export interface DiceModelsStatus {
  /** the model the cameras read with now; null while vision is not running */
  reading: ModelFolder | null;
  /** the model taught from, and read when the taught one is set aside */
  base: ModelFolder;
  /** a taught model in the data folder, in use or set aside, with the check it passed when it was taught (null: none recorded) */
  taught: (ModelFolder & { inUse: boolean; check: { before: CheckFigures; after: CheckFigures } | null }) | null;
  /** FLIGHTDECK_MODEL is set: the service reads it again at its next start */
  pinned: boolean;
  /** a taught model that could not be read at start (the base model was read instead) */
  problem: string | null;
  minPhotos: number;
  teaching: Teaching;
}

export interface DiceModelsOptions {
  dataDir: string;
  /** FLIGHTDECK_MODEL (null: none) */
  configuredDir: string | null;
  /** the labelled photos taught (the dashboard's dice-samples folder) */
  photosDir: string;
  /** opens a reader on a model folder (createDiceReader) */
  openReader: (modelDir: string) => Promise<Reader>;
  log: Log;
  teacher?: ModelTeacherOptions;
}

export class DiceModelsError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** A model folder's mark: model:adapt writes spec.json with the weights, and renames the whole folder into place. */
function hasModel(dir: string): boolean {
  return existsSync(join(dir, 'spec.json'));
}

/** A model folder's name for people, and the check it passed when it was taught. */
async function describeModel(folder: string): Promise<{ model: string; check: { before: CheckFigures; after: CheckFigures } | null }> {
  try {
    const spec = await readSpec(folder);
    return { model: modelName(spec), check: taughtCheckOf(spec) };
  } catch (err) {
    return { model: `unreadable (${(err as Error).message})`, check: null };
  }
}

async function nameOf(folder: string): Promise<string> {
  return (await describeModel(folder)).model;
}

export class DiceModels {
  readonly taughtDir: string;
  readonly setAsideDir: string;
  /** the model taught from: FLIGHTDECK_MODEL, else the shipped one (never dice-model/ itself) */
  readonly baseDir: string;
  readonly pinned: boolean;
  private reader: SwappableReader | null = null;
  private readingDir: string | null = null;
  private problem: string | null = null;
  private busy = false;
  private readonly teacher: ModelTeacher;
  /** the base model's name, read once: its folder does not change while the service runs */
  private baseName: Promise<string> | null = null;

  constructor(private readonly options: DiceModelsOptions) {
    this.taughtDir = join(resolve(options.dataDir), 'dice-model');
    this.setAsideDir = join(resolve(options.dataDir), 'dice-model-set-aside');
    const configured = options.configuredDir === null ? null : resolve(options.configuredDir);
    // FLIGHTDECK_MODEL naming dice-model/ itself (as the Dice photos page once suggested) is the taught model, not a base
    this.pinned = configured !== null && configured !== this.taughtDir;
    this.baseDir = this.pinned ? configured! : DEFAULT_MODEL_DIR;
    this.teacher = new ModelTeacher({ ...options.teacher, onEnd: (t) => this.taughtEnded(t) });
  }

  /** The folder the service starts reading: FLIGHTDECK_MODEL, else a taught model, else the shipped one. */
  startDir(): string {
    if (this.pinned) return this.baseDir;
    return hasModel(this.taughtDir) ? this.taughtDir : this.baseDir;
  }

  /** Opens the cameras' reader; a taught model that cannot be read gives way to the base model, with the reason kept. */
  async open(): Promise<DiceReader> {
    let dir = this.startDir();
    let inner: Reader;
    try {
      inner = await this.options.openReader(dir);
    } catch (err) {
      if (dir !== this.taughtDir) throw err;
      this.problem = `The taught model in ${dir} could not be read (${(err as Error).message}); reading with the base model.`;
      this.options.log.error({ err, folder: dir }, this.problem);
      dir = this.baseDir;
      inner = await this.options.openReader(dir);
    }
    this.readingDir = dir;
    this.reader = new SwappableReader(inner);
    return this.reader;
  }

  private kindOf(dir: string): ModelKind {
    if (dir === this.taughtDir || dir === this.setAsideDir) return 'taught';
    return this.pinned ? 'configured' : 'shipped';
  }

  async status(): Promise<DiceModelsStatus> {
    const taughtFolder = hasModel(this.taughtDir) ? this.taughtDir : hasModel(this.setAsideDir) ? this.setAsideDir : null;
    return {
      reading: this.reader && this.readingDir ? { kind: this.kindOf(this.readingDir), folder: this.readingDir, model: this.reader.modelVersion ?? (await nameOf(this.readingDir)) } : null,
      base: { kind: this.kindOf(this.baseDir), folder: this.baseDir, model: await (this.baseName ??= nameOf(this.baseDir)) },
      taught: taughtFolder ? { kind: 'taught', folder: taughtFolder, ...(await describeModel(taughtFolder)), inUse: this.readingDir === taughtFolder } : null,
      pinned: this.pinned,
      problem: this.problem,
      minPhotos: MIN_TEACH_PHOTOS,
      teaching: this.teacher.status(),
    };
  }

  /** Starts teaching the base model the saved photos (`photos` of them). */
  teach(photos: number): Teaching {
    if (photos < MIN_TEACH_PHOTOS) {
      throw new DiceModelsError('tooFewPhotos', `Teaching needs at least ${MIN_TEACH_PHOTOS} saved photos (one in three is kept back to check on); ${photos} saved. Thirty or more teach best.`);
    }
    if (this.busy) throw new DiceModelsError('modelChanging', 'The dice model is being changed: try again in a moment.');
    try {
      return this.teacher.start({ photosDir: this.options.photosDir, photos, modelDir: this.baseDir, outDir: this.taughtDir });
    } catch (err) {
      if (err instanceof TeachingError) throw new DiceModelsError(err.code, err.message);
      throw err;
    }
  }

  cancelTeaching(): Promise<boolean> {
    return this.teacher.cancel();
  }

  /** Resolves when the teaching running (if any) has ended and its model, if written, is read. */
  whenTaught(): Promise<void> {
    return this.teacher.whenEnded();
  }

  /** A model written: the cameras read it from now on, and an older taught model set aside goes. */
  private async taughtEnded(t: Teaching): Promise<void> {
    if (t.state !== 'taught' || !t.written) {
      this.options.log.info({ teaching: t }, `teaching the dice model ended: ${t.state === 'taught' ? 'not written (it read the photos kept back worse)' : t.state}`);
      return;
    }
    await rm(this.setAsideDir, { recursive: true, force: true }).catch(() => undefined);
    this.problem = null;
    try {
      await this.readWith(this.taughtDir);
      this.options.log.info({ folder: this.taughtDir }, `dice model taught: reading with ${this.reader?.modelVersion ?? this.taughtDir}`);
    } catch (err) {
      this.problem = `The taught model in ${this.taughtDir} could not be read (${(err as Error).message}); still reading with the model before.`;
      this.options.log.error({ err }, this.problem);
    }
  }

  private async readWith(dir: string): Promise<void> {
    if (!this.reader) return;
    const next = await this.options.openReader(dir);
    this.reader.swap(next);
    this.readingDir = dir;
  }

  /** Reads with the taught model again, or sets it aside and reads with the base model; kept across restarts. */
  async use(which: 'taught' | 'base'): Promise<void> {
    if (this.teacher.running) throw new DiceModelsError('teachingRunning', 'The dice model is being taught: wait for it, or stop it, first.');
    if (this.busy) throw new DiceModelsError('modelChanging', 'The dice model is being changed: try again in a moment.');
    this.busy = true;
    try {
      const [from, to, read] = which === 'base' ? [this.taughtDir, this.setAsideDir, this.baseDir] : [this.setAsideDir, this.taughtDir, this.taughtDir];
      if (which === 'taught' && !hasModel(this.taughtDir) && !hasModel(this.setAsideDir)) {
        throw new DiceModelsError('noTaughtModel', 'No taught dice model here: teach one first.');
      }
      const moved = existsSync(from) && !(which === 'taught' && hasModel(this.taughtDir));
      if (moved) {
        await rm(to, { recursive: true, force: true });
        await rename(from, to);
      }
      try {
        if (this.readingDir !== read) await this.readWith(read);
      } catch (err) {
        if (moved) await rename(to, from).catch(() => undefined);
        throw new DiceModelsError('modelUnreadable', `The model in ${read} could not be read (${(err as Error).message}): still reading with the model before.`);
      }
      this.problem = null;
    } finally {
      this.busy = false;
    }
  }

  /** Stops a teaching running; the reader itself is closed with the hardware. */
  async close(): Promise<void> {
    await this.teacher.cancel();
  }
}
