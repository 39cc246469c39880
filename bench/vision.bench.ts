/**
 * Vision benchmark: ms per 640×480 JPEG frame with 7 dice (decode included) on the active backend,
 * and the memory of the running pipeline; then the same for a full tray of 25 dice (no target: what a
 * crowded roll costs), for 8 small dice of hard looks (no target: what the second and closer looks at
 * doubtful dice cost), and for a 1920×1080 frame of 7 dice 40 px across (no target: what the fine look
 * at a large frame costs, server/vision/fine-look.ts); last, such a frame whose tray fills the middle
 * 960×720 of the view, read whole and read within the calibrated tray (server/vision/region.ts).
 */
import sharp from 'sharp';
import * as tf from '@tensorflow/tfjs';
import { createDiceReader } from '../server/vision/reader.ts';
import type { ReadOptions } from '../server/hardware/ports.ts';
import { renderTray } from '../server/synth/index.ts';
import { renderScene } from '../server/synth/scene.ts';
import { median, percentile } from '../server/vision/scoring.ts';

/** Dice found per frame and the median and p95 ms a frame of a timed run, to two decimals. */
function timedFigures(t: { times: number[]; diceSeen: number }) {
  return {
    meanDiceFound: Math.round((t.diceSeen / t.times.length) * 100) / 100,
    msPerFrameMedian: Math.round(median(t.times) * 100) / 100,
    msPerFrameP95: Math.round(percentile(t.times, 95) * 100) / 100,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const rssBefore = process.memoryUsage().rss;
  const reader = await createDiceReader();
  const timeFrames = async (frames: { image: Buffer }[], count: number, options?: ReadOptions): Promise<{ times: number[]; diceSeen: number }> => {
    for (const f of frames) await reader.read(f.image, options); // warm-up
    const times: number[] = [];
    let diceSeen = 0;
    for (let i = 0; i < count; i++) {
      const f = frames[i % frames.length];
      const t0 = performance.now();
      const r = await reader.read(f.image, options);
      times.push(performance.now() - t0);
      diceSeen += r.dice.length;
    }
    return { times, diceSeen };
  };
  const frames = await Promise.all([1, 2, 3, 4].map((seed) => renderTray({ faces: [1, 2, 3, 4, 5, 6, (seed % 6) + 1], seed })));
  const { times, diceSeen } = await timeFrames(frames, 60);
  const mem = tf.memory();
  const fullTrays = await Promise.all(
    [1, 2, 3, 4].map((seed) => renderTray({ faces: Array.from({ length: 25 }, (_, i) => ((i + seed) % 6) + 1), seed, style: { dieSize: 32 } })),
  );
  const full = await timeFrames(fullTrays, 30);
  // small dice of hard looks: the first look is unsure of some, which get the second and closer looks
  const hardLooks = ['marbled', 'translucent', 'black', 'any'] as const;
  const hardFrames = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const scene = renderScene({ width: 640, height: 480, faces: [1, 2, 3, 4, 5, 6, 2, 5], seed: 7000 + i, mode: 'test', colour: hardLooks[i % 4], dieSize: 22 });
      return { image: await scene.image.toJpeg(75) };
    }),
  );
  const hard = await timeFrames(hardFrames, 40);
  const rssMB = Math.round(process.memoryUsage().rss / 1048576);
  const rssGrowthMB = Math.round((process.memoryUsage().rss - rssBefore) / 1048576);
  // renderTray's die sizes are per 640 px of frame width
  const hdTrays = await Promise.all(
    [1, 2, 3, 4].map((seed) => renderTray({ faces: [1, 2, 3, 4, 5, 6, (seed % 6) + 1], seed, width: 1920, height: 1080, style: { dieSize: (40 * 640) / 1920 } })),
  );
  const hd = await timeFrames(hdTrays, 30);
  // the larger frames and detector input grow the backend's heap
  const hdRssMB = Math.round(process.memoryUsage().rss / 1048576);
  // the tray of a 960×720 frame (dice 40 px) in the middle of an empty 1920×1080 table
  const table = (await renderTray({ faces: [], seed: 9, width: 1920, height: 1080 })).image;
  const trayInView = await Promise.all(
    [1, 2, 3, 4].map(async (seed) => {
      const tray = await renderTray({ faces: [1, 2, 3, 4, 5, 6, (seed % 6) + 1], seed, width: 960, height: 720, style: { dieSize: (40 * 640) / 960 } });
      return { image: await sharp(table).composite([{ input: tray.image, left: 480, top: 180 }]).jpeg({ quality: 88 }).toBuffer() };
    }),
  );
  const within = { x: 480 / 1920, y: 180 / 1080, w: 960 / 1920, h: 720 / 1080 };
  // read in turns, so that both see the machine alike
  const [viewWhole, viewTray] = [{ times: [] as number[], diceSeen: 0 }, { times: [] as number[], diceSeen: 0 }];
  for (let i = 0; i < 10; i++) {
    for (const [t, options] of [[viewWhole, undefined], [viewTray, { within }]] as const) {
      const r = await timeFrames(trayInView, 4, options);
      t.times.push(...r.times);
      t.diceSeen += r.diceSeen;
    }
  }
  const figures = {
    backend: reader.backend,
    frames: times.length,
    dicePerFrame: 7,
    ...timedFigures({ times, diceSeen }),
    rssMB,
    rssGrowthMB,
    tfTensors: mem.numTensors,
    tfBytesMB: Math.round((mem.numBytes / 1048576) * 100) / 100,
    fullTray: {
      dicePerFrame: 25,
      ...timedFigures(full),
    },
    hardLooks: {
      dicePerFrame: 8,
      dieSizePx: 22,
      looks: hardLooks.join(', '),
      ...timedFigures(hard),
    },
    hdFrame: {
      frame: '1920x1080',
      dicePerFrame: 7,
      ...timedFigures(hd),
      rssMB: hdRssMB,
    },
    hdTrayInView: {
      frame: '1920x1080',
      tray: '960x720 in the middle',
      dicePerFrame: 7,
      wholeFrame: timedFigures(viewWhole),
      withinTray: timedFigures(viewTray),
      rssMB: Math.round(process.memoryUsage().rss / 1048576),
    },
  };
  reader.dispose();
  return figures;
}
