/**
 * `npm run soak [-- --minutes N] [--tables T] [--watchers W]`: the load of bench/load.bench.ts held for
 * longer (default 3 minutes, at most 120) to see whether memory grows and latency drifts. Prints progress
 * on stderr and, as its last line, one JSON object of figures. Exit code 1 when the heap grows by more than
 * 1 MiB a minute over the second half, a state push is lost, or the server logged an error.
 */
import { runLoad } from '../test/reliability/load-driver.ts';

function flag(name: string, fallback: number, min: number, max: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v < min || v > max) {
    console.error(`--${name}: expected a number from ${min} to ${max}, got ${process.argv[i + 1]}`);
    process.exit(2);
  }
  return v;
}

const minutes = flag('minutes', 3, 0.2, 120);
const tables = flag('tables', 4, 1, 32);
const watchers = flag('watchers', 150, 0, 1000);
const report = await runLoad({
  tables,
  watchers,
  durationMs: minutes * 60_000,
  sampleMs: 2000,
  progress: (l) => process.stderr.write(`${l}\n`),
});
const verdict = {
  heapStable: report.memory.heapSlopeMiBPerMin <= 1,
  noPushLost: report.pushesLost === 0,
  noServerError: report.serverErrors === 0,
};
console.log(JSON.stringify({ soak: { minutes, ...report }, verdict }));
process.exitCode = Object.values(verdict).every(Boolean) ? 0 : 1;
