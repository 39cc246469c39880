/**
 * What teaching the dice model from the dashboard costs the running service: a real `model:adapt`
 * (the dashboard's, at its defaults) runs as the service runs it (server/vision/model-teacher.ts: a
 * child process at a lower CPU priority) on 12 synthetic photos of one table's dice, while this process
 * reads 640×480 frames of 7 dice as the cameras do and watches its event loop's delay (what the
 * stopwatch, sockets and buttons wait). The same reads without a teaching first; the teaching is
 * stopped once measured (its own time is in models/README.md, "Teaching it a table's dice").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renderTray } from '../server/synth/index.ts';
import { writeSyntheticSet } from '../server/synth/test-set.ts';
import { DEFAULT_MODEL_DIR } from '../server/vision/model-store.ts';
import { ModelTeacher, TEACHING_PRIORITY } from '../server/vision/model-teacher.ts';
import { createDiceReader } from '../server/vision/reader.ts';
import { median, percentile } from '../server/vision/scoring.ts';

const READS = 60;

const round = (x: number) => Math.round(x * 100) / 100;

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-teaching-'));
  const teachers: ModelTeacher[] = [];
  try {
    const photos = join(dir, 'dice-samples');
    await writeSyntheticSet(photos, 12, 3, undefined, 'table', 'marbled');
    const reader = await createDiceReader();
    const frames = await Promise.all([1, 2, 3, 4].map((seed) => renderTray({ faces: [1, 2, 3, 4, 5, 6, (seed % 6) + 1], seed })));
    for (const f of frames) await reader.read(f.image);
    const measure = async () => {
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const times: number[] = [];
      for (let i = 0; i < READS; i++) {
        const t0 = performance.now();
        await reader.read(frames[i % frames.length].image);
        times.push(performance.now() - t0);
        // the cameras read a frame, then wait for the next: the event loop runs between
        await new Promise((r) => setTimeout(r, 20));
      }
      loop.disable();
      return { msPerFrameMedian: round(median(times)), msPerFrameP95: round(percentile(times, 95)), eventLoopDelayP99Ms: round(loop.percentile(99) / 1e6) };
    };
    const alone = await measure();

    /** the reads again while a teaching at `priority` trains its detector (its heaviest stage), then the teaching stopped */
    const whileTeaching = async (priority: number) => {
      const teacher = new ModelTeacher({ priority });
      teachers.push(teacher);
      const started = Date.now();
      teacher.start({ photosDir: photos, photos: 12, modelDir: DEFAULT_MODEL_DIR, outDir: join(dir, `dice-model-${priority}`) });
      while (true) {
        const t = teacher.status();
        if (t.state !== 'teaching') throw new Error(`the teaching ended before it trained: ${JSON.stringify(t)}`);
        if (t.stage === 'detector') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const figures = await measure();
      const t = teacher.status();
      await teacher.cancel();
      return { ...figures, secondsToDetectorStage: round((Date.now() - started) / 1000), stageAtEnd: t.state === 'teaching' ? t.stage : t.state };
    };
    const niced = await whileTeaching(TEACHING_PRIORITY);
    const samePriority = await whileTeaching(0);
    reader.dispose();
    return {
      alone,
      whileTeaching: niced,
      whileTeachingAtServicePriority: samePriority,
      note: `model:adapt at its defaults in a child process at CPU priority ${TEACHING_PRIORITY} as the service runs it (and at 0, the service's own, to compare), measured while it teaches the detector, on 12 synthetic photos; ${READS} reads of 640×480 frames with 7 dice, 20 ms apart`,
    };
  } finally {
    for (const t of teachers) await t.cancel();
    rmSync(dir, { recursive: true, force: true });
  }
}
