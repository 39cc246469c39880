/**
 * Camera sources and the camera pipeline: ms and CPU per frame.
 *  - fswebcam via node-webcam (one process per capture), reading `file:` so no camera is needed
 *  - ffmpeg, one long-running process streaming a looped MJPEG file at 15 fps (-c:v copy, as with a camera)
 *  - per-frame work in Node: JPEG splitting, grey decode + settle, stabilizer, synthetic rendering
 * CPU counts Node and its child processes (from /proc), so it includes fswebcam's and ffmpeg's own work.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Frame } from '../server/hardware/ports.ts';
import { NodeWebcamSource } from '../server/hardware/camera/node-webcam-source.ts';
import { FfmpegSource } from '../server/hardware/camera/ffmpeg-source.ts';
import { JpegStreamSplitter } from '../server/hardware/camera/jpeg-stream.ts';
import { decodeGrey } from '../server/hardware/camera/grey.ts';
import { SettleDetector } from '../server/hardware/camera/settle.ts';
import { DiceStabilizer } from '../server/hardware/camera/stabilizer.ts';
import { renderTray } from '../server/synth/index.ts';

const SHARED = resolve(process.env.FLIGHTDECK_SHARED ?? join(import.meta.dirname, '../../shared'));

function clockTicks(): number {
  try {
    return Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
  } catch {
    return 100;
  }
}
const TCK = clockTicks();

/** CPU ms of a process from /proc: its own, and that of its waited-for children. */
function procCpu(pid: number | 'self'): { own: number; children: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const f = (n: number) => Number(rest[n - 3]);
    return { own: ((f(14) + f(15)) * 1000) / TCK, children: ((f(16) + f(17)) * 1000) / TCK };
  } catch {
    return { own: 0, children: 0 };
  }
}

function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function round(v: number, d = 2): number {
  return Math.round(v * 10 ** d) / 10 ** d;
}

async function collect(src: NodeWebcamSource | FfmpegSource, frames: number, limitMs: number): Promise<{ got: number; wallMs: number }> {
  let got = 0;
  let first = 0;
  let last = 0;
  await new Promise<void>((done) => {
    const timer = setTimeout(done, limitMs);
    src.on('frame', (f: Frame) => {
      if (got === 0) first = Date.now();
      got++;
      last = Date.now();
      if (got >= frames) {
        clearTimeout(timer);
        done();
      }
      void f;
    });
    void src.start();
  });
  return { got, wallMs: last - first };
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'fd-cam-bench-'));
  const out: Record<string, unknown> = {};
  try {
    const photo = join(SHARED, 'datasets/webcam-white-dice/valid/valid_1.jpg');
    const tray = await renderTray({ faces: [1, 3, 5, 6], seed: 11, style: { keptFaces: [2] } });
    const frame = existsSync(photo) ? readFileSync(photo) : tray.image;
    out.input = existsSync(photo) ? 'webcam photo 640x480 (shared dataset)' : 'synthetic tray 640x480';
    const img = join(dir, 'frame.jpg');
    writeFileSync(img, frame);

    // fswebcam through node-webcam: as fast as it goes (fps cap 30)
    {
      const N = 20;
      const src = new NodeWebcamSource({ device: `file:${img}`, fps: 30 });
      const cpu0 = selfCpuMs();
      const ch0 = procCpu('self').children;
      const { got, wallMs } = await collect(src, N + 1, 60_000);
      await src.stop();
      const cpu = selfCpuMs() - cpu0 + (procCpu('self').children - ch0);
      out.fswebcam_frames = got;
      out.fswebcam_ms_per_frame = round(wallMs / Math.max(1, got - 1), 1);
      out.fswebcam_max_fps = round((1000 * (got - 1)) / Math.max(1, wallMs), 1);
      out.fswebcam_cpu_ms_per_frame = round(cpu / Math.max(1, got), 1);
    }

    // ffmpeg: one process, a looped MJPEG file at 15 fps, -c:v copy
    {
      const mjpeg = join(dir, 'clip.mjpeg');
      writeFileSync(mjpeg, Buffer.concat([frame, tray.image, frame]));
      const fps = 15;
      const N = 45;
      const src = new FfmpegSource({ device: `file:${mjpeg}`, fps });
      const cpu0 = selfCpuMs();
      let ffCpu = 0;
      const sample = setInterval(() => {
        if (src.pid) ffCpu = Math.max(ffCpu, procCpu(src.pid).own);
      }, 100);
      const { got, wallMs } = await collect(src, N + 1, 30_000);
      if (src.pid) ffCpu = Math.max(ffCpu, procCpu(src.pid).own);
      clearInterval(sample);
      const nodeCpu = selfCpuMs() - cpu0;
      await src.stop();
      out.ffmpeg_fps_asked = fps;
      out.ffmpeg_frames = got;
      out.ffmpeg_ms_per_frame = round(wallMs / Math.max(1, got - 1), 1);
      out.ffmpeg_cpu_ms_per_frame = round((ffCpu + nodeCpu) / Math.max(1, got), 2);
      out.ffmpeg_process_cpu_ms_per_frame = round(ffCpu / Math.max(1, got), 2);
    }

    // JPEG splitting of a byte stream, Node side
    {
      const stream = Buffer.concat(Array.from({ length: 50 }, () => frame));
      const s = new JpegStreamSplitter();
      const t0 = performance.now();
      let n = 0;
      for (let i = 0; i < stream.length; i += 65536) n += s.push(stream.subarray(i, i + 65536)).length;
      out.split_ms_per_frame = round((performance.now() - t0) / n, 3);
    }

    // decode to 160x120 grey + settle detection
    {
      const det = new SettleDetector();
      const N = 30;
      for (let i = 0; i < 10; i++) det.push(await decodeGrey(i % 2 ? frame : tray.image)); // warm-up
      const t0 = performance.now();
      for (let i = 0; i < N; i++) det.push(await decodeGrey(i % 2 ? frame : tray.image));
      out.grey_settle_ms_per_frame = round((performance.now() - t0) / N, 2);
    }

    // stabilizer with 10 dice
    {
      const st = new DiceStabilizer();
      const N = 2000;
      const t0 = performance.now();
      for (let i = 0; i < N; i++) st.push(Array.from({ length: 10 }, (_, k) => ({ x: 50 + k * 55 + (i % 3), y: 200, w: 40, h: 40, face: 1 + ((k + (i % 2)) % 6), zone: 'rolling' as const })));
      out.stabilizer_us_per_frame_10_dice = round(((performance.now() - t0) * 1000) / N, 1);
    }

    // synthetic tray render (the simulated camera's cost per new frame)
    {
      const N = 5;
      const t0 = performance.now();
      for (let i = 0; i < N; i++) await renderTray({ faces: [1, 2, 3], seed: 100 + i, style: { keptFaces: [4] } });
      out.synthetic_render_ms_per_frame = round((performance.now() - t0) / N, 1);
    }
    out.prefer = 'ffmpeg for a real camera (one process, camera JPEGs copied); fswebcam as the fallback';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
