#!/usr/bin/env node
// Builds the dashboard: web/src/main.ts -> web/dist/app.js (one ES bundle, socket.io-client
// included, no external resources) and copies web/public/* into web/dist/.
import { build } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'web', 'dist');
const started = Date.now();

// files are overwritten in place (never a moment without a dashboard while a server serves it)
mkdirSync(out, { recursive: true });
cpSync(join(root, 'web', 'public'), out, { recursive: true });

try {
  await build({
    entryPoints: [join(root, 'web', 'src', 'main.ts')],
    outfile: join(out, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: process.env.NODE_ENV === 'production',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
} catch (err) {
  console.error('web build failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}
console.log(`web: built web/dist in ${Date.now() - started} ms`);
