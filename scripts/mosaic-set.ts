/**
 * Writes a YOLO-layout set of large frames made of labelled photos set side by side (server/vision/
 * photo-mosaic.ts): `npx tsx scripts/mosaic-set.ts --data DIR --out DIR [--grid 2]`, then
 * `npm run dice:eval -- --data OUT`. The photos are taken in file order, `grid` × `grid` to a frame; a last
 * frame that would not be full is left out.
 */
import { parseArgs } from 'node:util';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { formatYoloLabels, readYoloFolder } from '../server/vision/yolo-dataset.ts';
import { photoMosaic } from '../server/vision/photo-mosaic.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' }, grid: { type: 'string', default: '2' } } });
if (!values.data || !values.out) throw new Error('usage: npx tsx scripts/mosaic-set.ts --data DIR --out DIR [--grid N]');
const grid = Number(values.grid);
if (!Number.isInteger(grid) || grid < 2 || grid > 6) throw new Error(`--grid must be a whole number from 2 to 6, got "${values.grid}"`);
const photos = await readYoloFolder(resolve(values.data));
if (photos.length < grid * grid) throw new Error(`${values.data} holds ${photos.length} labelled photos, fewer than one ${grid} × ${grid} frame`);
const out = resolve(values.out);
await mkdir(out, { recursive: true });
let frames = 0;
for (let k = 0; k + grid * grid <= photos.length; k += grid * grid) {
  const { jpeg, labels } = await photoMosaic(photos.slice(k, k + grid * grid), grid);
  const name = `mosaic_${String(frames).padStart(3, '0')}`;
  await writeFile(join(out, `${name}.jpg`), jpeg);
  await writeFile(join(out, `${name}.txt`), formatYoloLabels(labels));
  frames++;
}
process.stdout.write(`${frames} frames of ${grid} × ${grid} photos written to ${out}\n`);
