import { describe, expect, it } from 'vitest';
import { inPixels, parseSetAsideDice, setAside } from '../../server/vision/set-aside-dice.ts';

describe('dice set aside: a pip hidden, leaning (scoring)', () => {
  const labels = [{ x: 100, y: 100, w: 40, h: 40, face: 3 }];
  const hidden = [
    { x: 200, y: 100, w: 40, h: 40 },
    { x: 300, y: 100, w: 40, h: 40 },
    { x: 400, y: 100, w: 40, h: 40 },
  ];

  it('sets aside the readings on hidden dice and counts "not sure", guesses and dice not found', () => {
    const preds = [
      { x: 101, y: 99, face: 3 },
      { x: 203, y: 100, face: null },
      { x: 298, y: 104, face: 5 },
      { x: 600, y: 300, face: 2 },
    ];
    const { preds: kept, reads } = setAside(labels, hidden, preds);
    expect(kept).toEqual([preds[0], preds[3]]);
    expect(reads).toEqual({ dice: 3, notSure: 1, guessed: 1, notFound: 1 });
  });

  it('leaves a reading matched to a labelled die with it, even when a hidden die lies as near', () => {
    const preds = [{ x: 150, y: 100, face: 3 }];
    const near = [{ x: 200, y: 100, w: 120, h: 120 }];
    const { preds: kept, reads } = setAside([{ x: 100, y: 100, w: 120, h: 120, face: 3 }], near, preds);
    expect(kept).toEqual(preds);
    expect(reads).toEqual({ dice: 1, notSure: 0, guessed: 0, notFound: 1 });
  });

  it('parses hidden.json, scales its fractions of the frame to pixels and names what is wrong with a bad one', () => {
    const dice = parseSetAsideDice('{"a.jpg": [{"x": 0.5, "y": 0.25, "w": 0.1, "h": 0.2}]}', 'h.json').get('a.jpg')!;
    expect(inPixels(dice, 640, 480)).toEqual([{ x: 320, y: 120, w: 64, h: 96 }]);
    expect(() => parseSetAsideDice('{"a.jpg": [{"x": 1.5, "y": 0.2, "w": 0.1, "h": 0.1}]}', 'h.json')).toThrow(/die 0 needs x, y, w, h as fractions of the frame/);
    expect(() => parseSetAsideDice('{', 'h.json')).toThrow(/h\.json: not JSON/);
    expect(() => parseSetAsideDice('[]', 'h.json')).toThrow(/expected an object/);
    expect(() => parseSetAsideDice('{"a.jpg": 3}', 'h.json')).toThrow(/"a.jpg" should list dice/);
    expect(() => parseSetAsideDice('{"a.jpg": [{"x": 0.1, "y": 0.2, "w": "0.3", "h": 0.4}]}', 'h.json')).toThrow(/die 0 needs x, y, w, h/);
  });
});
