/**
 * The ZIP writer, checked by another implementation: Info-ZIP's `unzip` (a Debian package the setup
 * installs) lists, tests and extracts what it writes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zipStream, type ZipEntry } from '../../server/store/zip-writer.ts';

const run = promisify(execFile);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fd-zip-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of zipStream(entries)) parts.push(part);
  return Buffer.concat(parts);
}

describe('zipStream', () => {
  it('writes an archive unzip lists, tests and extracts byte for byte', async () => {
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    const modified = new Date(2026, 11, 2, 14, 30, 12);
    const entries: ZipEntry[] = [
      { name: 'photos/README.txt', data: Buffer.from('dice\n'), modified },
      { name: 'photos/one-20261202.jpg', data: binary, modified },
      { name: 'photos/empty.txt', data: Buffer.alloc(0), modified },
      { name: 'photos/tête-à-tête.json', data: Buffer.from('{"é":1}'), modified },
    ];
    const zip = join(dir, 'a.zip');
    await writeFile(zip, await collect(entries));
    expect((await run('unzip', ['-tq', zip])).stdout).toMatch(/No errors detected/);
    expect((await run('unzip', ['-Z1', zip])).stdout.trim().split('\n')).toEqual(entries.map((e) => e.name));
    // the time kept (2-second steps, local time)
    expect((await run('unzip', ['-l', zip])).stdout).toMatch(/(2026-12-02|12-02-2026) 14:30 +photos\/README\.txt/);
    await run('unzip', ['-q', zip, '-d', join(dir, 'out')]);
    for (const e of entries) expect((await readFile(join(dir, 'out', e.name))).equals(e.data), e.name).toBe(true);
  });

  it('writes an empty archive, and takes its entries as they come', async () => {
    const zip = join(dir, 'empty.zip');
    await writeFile(zip, await collect([]));
    expect((await readFile(zip)).length).toBe(22);
    async function* slowly(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 1));
        yield { name: `f${i}.txt`, data: Buffer.from(`file ${i}`), modified: new Date(2026, 0, 1) };
      }
    }
    const three = join(dir, 'three.zip');
    await writeFile(three, await collect(slowly()));
    expect((await run('unzip', ['-p', three, 'f2.txt'])).stdout).toBe('file 2');
  });

  it('refuses names that would land outside the folder unpacked, and a name given twice', async () => {
    const at = new Date(2026, 0, 1);
    for (const name of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', 'a\\b']) {
      await expect(collect([{ name, data: Buffer.alloc(1), modified: at }]), name).rejects.toThrow(/zip entry name not allowed/);
    }
    await expect(collect([{ name: 'a', data: Buffer.alloc(1), modified: at }, { name: 'a', data: Buffer.alloc(1), modified: at }])).rejects.toThrow(/named twice/);
  });
});
