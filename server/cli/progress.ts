/** A one-line progress bar on stderr (redrawn at most 4 times a second). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (stage: string, done: number, total: number, info?: string) => void {
  let last = 0;
  let stageStart = Date.now();
  let lastStage = '';
  return (stage, done, total, info = '') => {
    const now = Date.now();
    if (stage !== lastStage) {
      if (lastStage !== '') stream.write('\n');
      lastStage = stage;
      stageStart = now;
    }
    if (now - last < 250 && done < total) return;
    last = now;
    const frac = total > 0 ? done / total : 1;
    const width = 30;
    const filled = Math.round(frac * width);
    const elapsed = (now - stageStart) / 1000;
    const eta = frac > 0 ? (elapsed / frac) * (1 - frac) : 0;
    const line = `${stage.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${total} ${fmt(elapsed)} eta ${fmt(eta)} ${info}`;
    stream.write(`\r${line.slice(0, 150).padEnd(150)}`);
    if (done >= total) {
      stream.write('\n');
      lastStage = '';
    }
  };
}

function fmt(s: number): string {
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${Math.round(s % 60).toString().padStart(2, '0')}s` : `${s.toFixed(0)}s`;
}

/** One progress step as a JSON line, for a program watching the command (`--progress json`). */
export interface ProgressLine {
  progress: { stage: string; done: number; total: number };
}

/** Progress as JSON lines on stderr (at most 4 a second, and every stage's last step), for the service watching a child. */
export function jsonProgress(stream: NodeJS.WritableStream = process.stderr): (stage: string, done: number, total: number) => void {
  let last = 0;
  return (stage, done, total) => {
    const now = Date.now();
    if (now - last < 250 && done < total) return;
    last = now;
    const line: ProgressLine = { progress: { stage, done, total } };
    stream.write(`${JSON.stringify(line)}\n`);
  };
}
