/**
 * `npm run fuzz [-- --minutes N] [--seed S] [--only NAME]`: the properties of the in-suite fuzz tests
 * (test/fuzz/properties.ts), run round-robin in rounds with a fresh seed per round until the time is
 * up (default 2 minutes, at most 240). Stops at the first counterexample (exit code 1) and prints
 * fast-check's report, which names the seed and path to replay it. Last line: one JSON summary.
 */
import { ALL_TARGETS } from './properties.ts';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function usage(message: string): never {
  console.error(`${message}\nusage: npm run fuzz -- [--minutes N (0.1..240, default 2)] [--seed S (integer)] [--only NAME]`);
  process.exit(2);
}

const minutes = Number(flag('minutes') ?? 2);
if (!Number.isFinite(minutes) || minutes < 0.1 || minutes > 240) usage(`--minutes: expected 0.1 to 240, got ${flag('minutes')}`);
const baseSeed = Number(flag('seed') ?? Date.now() % 2_147_483_647);
if (!Number.isInteger(baseSeed)) usage(`--seed: expected an integer, got ${flag('seed')}`);
const only = flag('only');
const targets = only ? ALL_TARGETS.filter((t) => t.name.includes(only)) : ALL_TARGETS;
if (targets.length === 0) usage(`--only: no property named like "${only}" (have: ${ALL_TARGETS.map((t) => t.name).join(', ')})`);

/** runs per round, sized so that a round of each target takes a few seconds */
const RUNS: Record<string, number> = { 'serial parser': 20_000, 'serial line splitter': 2000, 'camera settings': 10_000, 'HTTP commands': 500, 'HTTP routes': 500, 'socket events': 200 };

const started = Date.now();
const endAt = started + minutes * 60_000;
const perTarget: Record<string, { rounds: number; cases: number; ms: number }> = {};
let failure: { target: string; seed: number; message: string } | null = null;
let round = 0;
let current = '';
let currentSeed = 0;

function summarise(): void {
  console.log(
    JSON.stringify({
      ok: failure === null,
      minutes: Number(((Date.now() - started) / 60_000).toFixed(2)),
      seed: baseSeed,
      totalCases: Object.values(perTarget).reduce((n, s) => n + s.cases, 0),
      targets: Object.fromEntries(Object.entries(perTarget).map(([k, s]) => [k, { ...s, casesPerSecond: Math.round((s.cases / Math.max(1, s.ms)) * 1000) }])),
      failure: failure ? { target: failure.target, seed: failure.seed, message: failure.message.split('\n').slice(0, 6).join(' | ') } : null,
    }),
  );
}

// the service runs in this process: an exception thrown out of one of its handlers is a finding, reported like a counterexample
process.on('uncaughtException', (err) => {
  failure = { target: current, seed: currentSeed, message: `uncaught exception in the service (it would end the server process): ${err.stack ?? err}` };
  console.error(`\n${current}: ${failure.message}`);
  summarise();
  process.exit(1);
});

outer: while (Date.now() < endAt) {
  for (const target of targets) {
    if (Date.now() >= endAt) break outer;
    const seed = (baseSeed + round * 7919) % 2_147_483_647;
    const runs = RUNS[target.name] ?? 200;
    const t0 = Date.now();
    current = target.name;
    currentSeed = seed;
    try {
      await target.run(runs, seed);
    } catch (err) {
      const cause = (err as { cause?: { message?: string } })?.cause?.message;
      failure = { target: target.name, seed, message: `${cause ? `${cause}\n` : ''}${String((err as Error)?.message ?? err)}` };
      console.error(`\n${target.name}: COUNTEREXAMPLE (seed ${seed})\n${failure.message}`);
      break outer;
    }
    const s = (perTarget[target.name] ??= { rounds: 0, cases: 0, ms: 0 });
    s.rounds++;
    s.cases += runs;
    s.ms += Date.now() - t0;
    console.error(`${target.name}: round ${s.rounds} ok (${runs} cases, seed ${seed}, ${Date.now() - t0} ms)`);
  }
  round++;
}

summarise();
process.exit(failure ? 1 : 0);
