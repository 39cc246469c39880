/** A dice model's name: written by the service, read back into its parts by the dashboard. */
import { describe, expect, it } from 'vitest';
import { readModelName, writeModelName, type ModelNameParts } from '../../server/vision/model-name.ts';

describe('dice model names', () => {
  it('reads back the parts it wrote, and takes any other name as a version', () => {
    const names: ModelNameParts[] = [
      { version: '1.22.0', taughtPhotos: null, taughtOn: null },
      { version: '1.22.0', taughtPhotos: 30, taughtOn: '2026-12-03' },
      { version: '1.22.0', taughtPhotos: 4, taughtOn: null },
    ];
    for (const parts of names) expect(readModelName(writeModelName(parts))).toEqual(parts);
    expect(writeModelName(names[1]!)).toBe("1.22.0, taught 30 photos of a table's dice on 2026-12-03");
    expect(readModelName('custom model, v2')).toEqual({ version: 'custom model, v2', taughtPhotos: null, taughtOn: null });
  });
});
