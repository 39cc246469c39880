/**
 * `npm run bench`: runs every bench/*.bench.ts (each exports `run(): Promise<Record<string, unknown>>`),
 * prints each one's figures, and as its last line one JSON object of all figures, keyed by benchmark.
 * `npm run bench -- vision` runs only the benchmarks whose file name contains "vision".
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((k) => f.includes(k)))
  .sort();

const figures: Record<string, unknown> = {};
let failed = false;
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  process.stderr.write(`bench ${name}...\n`);
  try {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { run: () => Promise<Record<string, unknown>> };
    figures[name] = await mod.run();
    console.log(`${name}: ${JSON.stringify(figures[name])}`);
  } catch (err) {
    failed = true;
    figures[name] = { error: String((err as Error)?.message ?? err) };
    console.log(`${name}: FAILED ${String((err as Error)?.stack ?? err)}`);
  }
}
console.log(JSON.stringify(figures));
process.exitCode = failed ? 1 : 0;
