import { describe, expect, it } from 'vitest';
import { hidesPip, placeOccluder } from '../../server/synth/occluder.ts';
import { Rng } from '../../server/synth/random.ts';
import { renderScene, type SceneOptions } from '../../server/synth/scene.ts';
import { classOf } from '../../server/vision/training/samples.ts';

describe('things lying over dice (synthetic occluders)', () => {
  it('falls on the die it is placed over', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { occluder } = placeOccluder(new Rng(seed), 200, 150, 50);
      // its edge, tip or corner lies within 0.6 × size of the centre along each axis
      let nearest = Infinity;
      for (let y = 120; y <= 180; y += 2) for (let x = 170; x <= 230; x += 2) nearest = Math.min(nearest, occluder.distance(x, y));
      expect(nearest).toBeLessThan(0);
    }
  });

  it('hides a pip it covers, or comes within a third of its radius of, and no other', () => {
    const { occluder } = placeOccluder(new Rng(3), 200, 150, 50);
    let inside: [number, number] | null = null;
    let outside: [number, number] | null = null;
    for (let y = 0; y < 300 && (!inside || !outside); y++)
      for (let x = 0; x < 400; x++) {
        const d = occluder.distance(x, y);
        if (d < -5 && !inside) inside = [x, y];
        if (d > 10 && !outside) outside = [x, y];
      }
    expect(hidesPip(occluder, inside!, 4)).toBe(true);
    expect(hidesPip(occluder, outside!, 4)).toBe(false);
  });

  const options = (seed: number, occluders: boolean): SceneOptions => ({ width: 640, height: 480, faces: [1, 2, 3, 4, 5, 6, 2, 5], seed, mode: 'test', colour: 'any', dieSize: 50, occluders });

  it('keeps the rest of the scene as drawn without them, and labels the dice they hide a pip of as hidden', () => {
    let hidden = 0;
    for (let seed = 500; seed < 512; seed++) {
      const plain = renderScene(options(seed, false));
      const covered = renderScene(options(seed, true));
      expect(covered.image.data).not.toEqual(plain.image.data);
      const key = (d: { x: number; y: number; face: number }): string => `${d.x},${d.y},${d.face}`;
      const plainDice = new Map(plain.dice.map((d) => [key(d), d]));
      for (const d of covered.dice) {
        expect(plainDice.has(key(d))).toBe(true);
        const changed = d.pips.map(([x, y]) => {
          const i = (Math.floor(y) * 640 + Math.floor(x)) * 3;
          return Math.abs(covered.image.data[i] - plain.image.data[i]) + Math.abs(covered.image.data[i + 1] - plain.image.data[i + 1]) + Math.abs(covered.image.data[i + 2] - plain.image.data[i + 2]);
        });
        if (d.unreadable === 'hidden') hidden++;
        // a die labelled readable shows every pip as it was drawn (the frame's blur may spread an occluder's
        // edge by a trace)
        else for (const c of changed) expect(c).toBeLessThan(0.02);
      }
    }
    expect(hidden).toBeGreaterThan(0);
  });

  it('teaches a die with a pip hidden as the unreadable class, as a die cut by the frame', () => {
    const die = { x: 0, y: 0, w: 10, h: 10, size: 10, face: 4, pips: [] };
    expect(classOf({ ...die, unreadable: 'hidden' })).toBe(classOf({ ...die, unreadable: 'edge' }));
    expect(classOf({ ...die, unreadable: 'hidden' })).not.toBe(classOf(die));
  });

  it('draws no occluder unless asked, so test sets without them are unchanged', () => {
    const scene = renderScene({ ...options(7, false), occluders: undefined });
    expect(scene.dice.every((d) => d.unreadable === undefined)).toBe(true);
  });
});
