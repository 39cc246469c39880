/**
 * Writes a labelled folder's photos as another camera would have seen them (`dice:eval --camera NAME`,
 * server/vision/camera-variation.ts), labels unchanged: `npx tsx scripts/camera-set.ts --data DIR
 * --camera NAME --out DIR`. A folder of dice recoloured one way (`blue`, `red`, `negative`) is one
 * table's dice set in real photos, for `npm run model:adapt` to be taught and checked on.
 */
import { parseArgs } from 'node:util';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { formatYoloLabels, readYoloFolder } from '../server/vision/yolo-dataset.ts';
import { CAMERA_VARIATIONS, isCameraVariation, varyPhoto } from '../server/vision/camera-variation.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, camera: { type: 'string' }, out: { type: 'string' } } });
if (!values.data || !values.out || !values.camera) throw new Error('usage: npx tsx scripts/camera-set.ts --data DIR --camera NAME --out DIR');
const camera = values.camera;
if (!isCameraVariation(camera)) throw new Error(`--camera must be one of ${Object.keys(CAMERA_VARIATIONS).join(', ')}, got "${camera}"`);
const photos = await readYoloFolder(resolve(values.data));
if (photos.length === 0) throw new Error(`no labelled photos in ${values.data}`);
const out = resolve(values.out);
await mkdir(out, { recursive: true });
await writeFile(join(out, 'classes.txt'), 'One\nTwo\nThree\nFour\nFive\nSix\n');
for (const [i, photo] of photos.entries()) {
  const name = `${camera}_${String(i).padStart(4, '0')}`;
  // the photo's own relative path seeds its noise and swirls, as dice:eval --camera seeds them
  await writeFile(join(out, `${name}.jpg`), await varyPhoto(await readFile(photo.path), CAMERA_VARIATIONS[camera], photo.relPath, photo.labels));
  await writeFile(join(out, `${name}.txt`), formatYoloLabels(photo.labels));
}
process.stdout.write(`${photos.length} photos seen by the ${camera} camera written to ${out}\n`);
