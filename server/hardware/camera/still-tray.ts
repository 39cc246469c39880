/**
 * Films a still tray through the camera's own path (settle detector → reader → stabiliser, a DiceFeed)
 * and records, frame after frame, what each labelled die was read as and what the game was told
 * (`npm run dice:flicker`). Frames are handed in one at a time, so nothing depends on the machine's speed.
 */
import sharp from 'sharp';
import type { DiceReader, ReadOptions } from '../ports.ts';
import type { LabelBox } from '../../vision/scoring.ts';
import { answersOf, asideAnswersOf, type EmittedReading, type StillTrayRecord } from '../../vision/flicker.ts';
import type { SetAsideDie, SetAsideKind } from '../../vision/set-aside-dice.ts';
import { stillFrame, type CameraJitter, type StillPicture } from '../../synth/camera-frames.ts';
import type { Rng } from '../../synth/random.ts';
import { DiceFeed, type FeedReading, type FeedVision } from './dice-feed.ts';
import { PushedFrameSource } from './pushed-source.ts';
import type { SettleOptions } from './settle.ts';
import type { StabilizerOptions } from './stabilizer.ts';

export interface StillTrayOptions {
  frames: number;
  jitter: CameraJitter;
  /** JPEG quality the camera sends its frames at */
  quality: number;
  rng: Rng;
  /** settle detector and stabiliser settings (the feed's defaults when absent) */
  settle?: Partial<SettleOptions>;
  stabilizer?: Partial<StabilizerOptions>;
}

/** Passes reads through and keeps the last result, so a frame's own read can be told from the stabilised one. */
class RecordingReader implements DiceReader {
  private last: Awaited<ReturnType<DiceReader['read']>> | null = null;
  constructor(private readonly inner: DiceReader) {}
  get backend(): string {
    return this.inner.backend;
  }
  async read(image: Buffer, options?: ReadOptions): ReturnType<DiceReader['read']> {
    this.last = await this.inner.read(image, options);
    return this.last;
  }
  /** The result of the last read since the last call (null: nothing was read). */
  take(): Awaited<ReturnType<DiceReader['read']>> | null {
    const last = this.last;
    this.last = null;
    return last;
  }
}

/** A die of the tray with no right face (leaning, a pip covered): its answers are recorded apart. */
export interface AsideDie extends SetAsideDie {
  kind: SetAsideKind;
}

export async function watchStillTray(reader: DiceReader, picture: StillPicture, labels: readonly LabelBox[], o: StillTrayOptions, aside: readonly AsideDie[] = []): Promise<StillTrayRecord> {
  const recording = new RecordingReader(reader);
  const source = new PushedFrameSource();
  const feed = new DiceFeed({ tableId: 'still-tray', source, reader: recording, stallMs: 3_600_000, settle: o.settle, stabilizer: o.stabilizer });
  const visions: FeedVision[] = [];
  const emitted: FeedReading[] = [];
  feed.on('vision', (v: FeedVision) => visions.push(v));
  feed.on('reading', (r: FeedReading) => emitted.push(r));
  const record: StillTrayRecord = { faces: labels.map((l) => l.face), frames: o.frames, raw: [], shown: [], readings: [], unsettledFrames: 0 };
  const asideRecord = aside.length > 0 ? { kinds: aside.map((d) => d.kind), raw: [] as StillTrayRecord['raw'], shown: [] as StillTrayRecord['shown'] } : null;
  if (asideRecord) record.aside = asideRecord;
  await feed.start();
  try {
    for (let f = 0; f < o.frames; f++) {
      const frame = stillFrame(picture, o.rng, o.jitter);
      const jpeg = await sharp(frame.data, { raw: { width: picture.width, height: picture.height, channels: 3 } }).jpeg({ quality: o.quality }).toBuffer();
      visions.length = 0;
      emitted.length = 0;
      source.push(jpeg);
      await feed.whenIdle();
      const moved = labels.map((l) => ({ ...l, x: l.x + frame.dx, y: l.y + frame.dy }));
      const movedAside = aside.map((d) => ({ x: d.x + frame.dx, y: d.y + frame.dy, w: d.w, h: d.h }));
      if (!feed.settled()) record.unsettledFrames++;
      const read = recording.take();
      record.raw.push(read ? answersOf(moved, read.dice) : null);
      const seen = visions.find((v) => v.settled);
      record.shown.push(seen ? answersOf(moved, seen.dice) : null);
      asideRecord?.raw.push(read ? asideAnswersOf(moved, movedAside, read.dice) : null);
      asideRecord?.shown.push(seen ? asideAnswersOf(moved, movedAside, seen.dice) : null);
      for (const r of emitted) record.readings.push({ frame: f, faces: r.faces, kept: r.kept, unreadable: r.unreadable } satisfies EmittedReading);
    }
  } finally {
    await feed.stop();
  }
  return record;
}
