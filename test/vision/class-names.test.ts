import { describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faceOfName, facesFromNames, parseClassesTxt, parseDataYamlNames } from '../../server/vision/class-names.ts';
import { readYoloFolder } from '../../server/vision/yolo-dataset.ts';

describe('class names as faces', () => {
  it('reads a face from digits, English and Spanish words, and names like dice-3 or d6_five', () => {
    expect(['1', 'Two', ' THREE ', 'dice-4', 'd6_five', 'seis', 'face6', 'd6-1'].map(faceOfName)).toEqual([1, 2, 3, 4, 5, 6, 6, 1]);
    expect(['d6', 'die', '7', 'one-two', ''].map(faceOfName)).toEqual([null, null, null, null, null]);
  });

  it('uses only six names that are six different faces', () => {
    expect(facesFromNames(['five', 'four', 'one', 'six', 'three', 'two'])).toEqual([5, 4, 1, 6, 3, 2]);
    expect(facesFromNames(['one', 'two', 'three', 'four', 'five'])).toBeNull();
    expect(facesFromNames(['one', 'one', 'three', 'four', 'five', 'six'])).toBeNull();
    expect(facesFromNames(['one', 'two', 'three', 'four', 'five', 'dice'])).toBeNull();
  });

  it('parses classes.txt and the names of a data.yaml in its three forms', () => {
    expect(parseClassesTxt('One\r\nTwo\n\nThree\n')).toEqual(['One', 'Two', 'Three']);
    expect(parseDataYamlNames("train: ../train/images\nnc: 6\nnames: ['five', 'four', \"one\", six, three, two]\n")).toEqual(['five', 'four', 'one', 'six', 'three', 'two']);
    expect(parseDataYamlNames('names:\n  - one\n  - two\nnc: 2\n')).toEqual(['one', 'two']);
    expect(parseDataYamlNames('path: x\nnames:\n  1: two\n  0: one\n')).toEqual(['one', 'two']);
    expect(parseDataYamlNames('nc: 6\n')).toEqual([]);
  });
});

describe('a data set whose class names order the faces otherwise', () => {
  it('is read by its names, from a data.yaml above the folder evaluated, and said once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'class-names-'));
    try {
      await writeFile(join(dir, 'data.yaml'), "nc: 6\nnames: ['five', 'four', 'one', 'six', 'three', 'two']\n");
      await mkdir(join(dir, 'valid', 'images'), { recursive: true });
      await mkdir(join(dir, 'valid', 'labels'), { recursive: true });
      for (const [name, cls] of [['a', 2], ['b', 0]] as const) {
        await writeFile(join(dir, 'valid', 'images', `${name}.jpg`), 'not read here');
        await writeFile(join(dir, 'valid', 'labels', `${name}.txt`), `${cls} 0.5 0.5 0.1 0.1\n`);
      }
      const told: string[] = [];
      const set = await readYoloFolder(join(dir, 'valid'), ({ file }) => told.push(file));
      expect(set.map((i) => i.labels[0].face)).toEqual([1, 5]);
      expect(told).toEqual([join(dir, 'data.yaml')]);
      // names in the contract's order, or names that are not faces, leave class k = face k+1
      await writeFile(join(dir, 'valid', 'labels', 'classes.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\n');
      expect((await readYoloFolder(join(dir, 'valid'))).map((i) => i.labels[0].face)).toEqual([3, 1]);
      await writeFile(join(dir, 'valid', 'labels', 'classes.txt'), 'dice\n');
      expect((await readYoloFolder(join(dir, 'valid'))).map((i) => i.labels[0].face)).toEqual([3, 1]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
