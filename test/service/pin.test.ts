/** Table PINs: 4–6 generated digits; compared whole, whatever the length or type given. */
import { describe, expect, it } from 'vitest';
import { generatePin, pinMatches } from '../../server/table/pin.ts';

describe('table PIN', () => {
  it('is 4 to 6 digits when generated', () => {
    for (let i = 0; i < 200; i++) expect(generatePin()).toMatch(/^[0-9]{4,6}$/);
  });

  it('matches only the same digits: not a prefix, a longer PIN, another type or nothing', () => {
    expect(pinMatches('0427', '0427')).toBe(true);
    for (const given of ['0428', '042', '04270', '', ' 0427', 427, null, undefined, ['0427'], { toString: () => '0427' }]) {
      expect(pinMatches('0427', given)).toBe(false);
    }
  });
});
