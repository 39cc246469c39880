/**
 * Load on the real service over loopback (test/reliability/load-driver.ts): 4 tables played as fast as
 * their acks allow (whole games with undo-and-redo cycles), first with no watcher (20 s), then with 150
 * watching socket.io clients (30 s). Figures: commands per second held in both runs (how much watching
 * costs the tables), command round trip and state-push latency percentiles, pushes lost, and the
 * server's RSS/heap (heap after a full GC) with their slope.
 */
import { runLoad } from '../test/reliability/load-driver.ts';

export async function run(): Promise<Record<string, unknown>> {
  const progress = (l: string) => process.stderr.write(`${l}\n`);
  const alone = await runLoad({ tables: 4, watchers: 0, durationMs: 20_000, sampleMs: 1000, progress });
  const watched = await runLoad({ tables: 4, watchers: 150, durationMs: 30_000, sampleMs: 1000, progress });
  return {
    commandsPerSecondNoWatchers: alone.commandsPerSecond,
    commandRoundTripMsNoWatchers: alone.commandRoundTripMs,
    serverCpuPercentNoWatchers: alone.serverCpuPercent,
    ...watched,
    watchedThroughputRatio: Math.round((watched.commandsPerSecond / Math.max(0.1, alone.commandsPerSecond)) * 100) / 100,
  };
}
