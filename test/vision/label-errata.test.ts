import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readYoloFolder, sharedDir, type LabelledImage } from '../../server/vision/yolo-dataset.ts';
import { TRAIN_LABEL_ERRATA, withoutErrata, type LabelErratum } from '../../server/vision/training/label-errata.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const trainDir = join(sharedDir(repoRoot), 'datasets', 'webcam-white-dice', 'train');
const haveTrain = existsSync(trainDir);
if (!haveTrain) console.warn(`real training photos not found at ${trainDir}: the errata check against them is skipped (set FLIGHTDECK_SHARED)`);

const image = (relPath: string, labels: LabelledImage['labels']): LabelledImage => ({ path: `/data/${relPath}`, relPath, labels });

describe('label errata', () => {
  const erratum: LabelErratum = { image: 'a.jpg', face: 1, cx: 0.7, cy: 0.4, seen: 'bare table' };

  it('leave out only the label of that image, face and centre, and count it', () => {
    const phantom = { cx: 0.70001, cy: 0.4, w: 0.1, h: 0.1, face: 1 };
    const real = { cx: 0.5, cy: 0.4, w: 0.1, h: 0.1, face: 5 };
    const images = [image('a.jpg', [real, phantom]), image('b.jpg', [phantom]), image('c.jpg', [{ ...phantom, face: 2 }])];
    const { images: kept, leftOut } = withoutErrata(images, [erratum]);
    expect(leftOut).toBe(1);
    expect(kept.map((i) => i.labels)).toEqual([[real], [phantom], [{ ...phantom, face: 2 }]]);
    expect(images[0].labels).toHaveLength(2);
  });

  it('leave an image with none of their labels as it is', () => {
    const images = [image('a.jpg', [{ cx: 0.2, cy: 0.4, w: 0.1, h: 0.1, face: 1 }])];
    expect(withoutErrata(images, [erratum])).toEqual({ images, leftOut: 0 });
  });
});

describe.skipIf(!haveTrain)('label errata of webcam-white-dice/train', () => {
  it('each name exactly one label of the shared training photos', async () => {
    const images = await readYoloFolder(trainDir);
    for (const e of TRAIN_LABEL_ERRATA) {
      expect(withoutErrata(images, [e]).leftOut, `${e.image} face ${e.face} at ${e.cx}, ${e.cy}`).toBe(1);
    }
    expect(withoutErrata(images).leftOut).toBe(TRAIN_LABEL_ERRATA.length);
  });
});
