import { describe, expect, it } from 'vitest';
import { formatByGroup, MARBLED_APART, scoresByGroup, topFolderOf } from '../../server/vision/scores-by-group.ts';
import { syntheticSetLook } from '../../server/synth/test-set.ts';

const die = (x: number, face: number) => ({ x, y: 100, w: 30, h: 30, face });

describe('figures by group', () => {
  it('scores each look apart, then every look but marbled together', () => {
    const items = [
      { group: 'red', labels: [die(100, 1), die(200, 2)], preds: [{ x: 100, y: 100, face: 1 }, { x: 200, y: 100, face: 2 }] },
      { group: 'marbled', labels: [die(100, 3), die(200, 4)], preds: [{ x: 100, y: 100, face: 5 }, { x: 200, y: 100, face: 4 }, { x: 400, y: 300, face: 1 }] },
      { group: 'black', labels: [die(100, 6)], preds: [{ x: 100, y: 100, face: null }] },
    ];
    const rows = scoresByGroup(items, MARBLED_APART);
    expect(rows.map((r) => r.group)).toEqual(['black', 'marbled', 'red', 'every look but marbled']);
    expect(rows[1]).toEqual({ group: 'marbled', frames: 1, dice: 2, right: 1, faceAccuracy: 0.5, extra: 1 });
    expect(rows[3]).toEqual({ group: 'every look but marbled', frames: 2, dice: 3, right: 2, faceAccuracy: 2 / 3, extra: 0 });
    const text = formatByGroup(rows, 'look').split('\n');
    expect(text).toHaveLength(5);
    expect(text[0]).toMatch(/^look\s+frames\s+dice/);
    expect(text[2]).toMatch(/^marbled\s+1\s+2\s+1\s+50\.0%\s+1$/);
    // groups with none set apart (folders): no "every … but" row
    expect(scoresByGroup(items).map((r) => r.group)).toEqual(['black', 'marbled', 'red']);
  });

  it('leaves out the "every look but" row when there is no marbled frame to set apart', () => {
    expect(scoresByGroup([{ group: 'red', labels: [die(100, 1)], preds: [] }], MARBLED_APART).map((r) => r.group)).toEqual(['red']);
  });

  it('names the folder a photo lies in directly under the data folder', () => {
    expect(topFolderOf('table-a/one-20261202.jpg')).toBe('table-a');
    expect(topFolderOf('table-a/deeper/x.jpg')).toBe('table-a');
    expect(topFolderOf('x.jpg')).toBe('.');
  });

  it('draws a synthetic frame\'s look again from its scene seed, every look turning up', () => {
    const looks = Array.from({ length: 200 }, (_, i) => syntheticSetLook(i, 1));
    expect(Array.from({ length: 200 }, (_, i) => syntheticSetLook(i, 1))).toEqual(looks);
    expect(new Set(looks)).toEqual(new Set(['black', 'red', 'blue', 'green', 'yellow', 'purple', 'translucent', 'marbled', 'white', 'any']));
    // the seed-1 200-frame set: 21 frames of marbled dice (models/README.md)
    expect(looks.filter((l) => l === 'marbled')).toHaveLength(21);
  });
});
