/**
 * Picks the TF.js backend once per process: tfjs-node when it can be imported (optional dependency),
 * else wasm (wasm files from node_modules), else the plain-JS cpu backend.
 */
import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type BackendName = 'tensorflow' | 'wasm' | 'cpu';

let chosen: Promise<BackendName> | null = null;

async function tryTfjsNode(): Promise<boolean> {
  try {
    const name = '@tensorflow/tfjs-node';
    await import(/* @vite-ignore */ name);
    return await tf.setBackend('tensorflow');
  } catch {
    return false;
  }
}

async function tryWasm(): Promise<boolean> {
  try {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    wasm.setWasmPaths(join(dist, '/'));
    return await tf.setBackend('wasm');
  } catch {
    return false;
  }
}

/** `prefer` forces a backend (tests, training); otherwise tfjs-node → wasm → cpu. */
export function initBackend(prefer?: BackendName): Promise<BackendName> {
  if (!chosen) {
    chosen = (async (): Promise<BackendName> => {
      if ((prefer === undefined || prefer === 'tensorflow') && (await tryTfjsNode())) return 'tensorflow';
      if ((prefer === undefined || prefer === 'wasm') && (await tryWasm())) return 'wasm';
      await tf.setBackend('cpu');
      await tf.ready();
      return 'cpu';
    })();
  }
  return chosen.then(async (name) => {
    await tf.ready();
    return name;
  });
}
