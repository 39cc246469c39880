import { describe, expect, it } from 'vitest';
import { DiceStabilizer, validateStabilizerOptions, type ObservedDie } from '../../../server/hardware/camera/stabilizer.ts';

const die = (x: number, y: number, face: number | null, zone: ObservedDie['zone'] = 'rolling'): ObservedDie => ({ x, y, w: 40, h: 40, face, zone });

describe('DiceStabilizer', () => {
  it('emits a stable reading once, not again while it stays the same', () => {
    const s = new DiceStabilizer();
    const frame = [die(100, 100, 3), die(200, 120, 5), die(500, 300, 6, 'kept')];
    const out = [];
    for (let i = 0; i < 6; i++) out.push(s.push(frame));
    // a new die is decided on its third agreeing read
    expect(out.slice(0, 2)).toEqual([null, null]);
    expect(out[2]).toEqual({ faces: [3, 5], kept: [6], unreadable: 0 });
    expect(out.slice(3).every((r) => r === null)).toBe(true);
  });

  it('never flickers on alternating noisy reads', () => {
    const s = new DiceStabilizer();
    const readings = [];
    for (let i = 0; i < 40; i++) {
      // one die reads 4 / 5 / 4 / 5 ..., positions jitter by a few pixels
      const r = s.push([die(100 + (i % 3), 100 - (i % 2), i % 2 === 0 ? 4 : 5), die(300, 200 + (i % 4), 2)]);
      if (r) readings.push(r);
    }
    expect(readings.length).toBe(1);
    expect(readings[0].faces).toEqual([2, 4]);
  });

  it('corrects a first answer once every read of the window and the still period outvote it', () => {
    const s = new DiceStabilizer();
    const got = [];
    for (let i = 0; i < 3; i++) got.push(s.push([die(100, 100, 2)]));
    for (let i = 0; i < 5; i++) got.push(s.push([die(100, 100, 6)]));
    expect(got.map((r) => r?.faces ?? null)).toEqual([null, null, [2], null, null, null, null, [6]]);
  });

  it('keeps the first answer of a still die read two ways in long turns', () => {
    // 4 six times, then 5 and 4 by turns in runs of five: each run of 5s wins the window
    const reads = [...Array(6).fill(4), ...[5, 4, 5, 4, 5].flatMap((f) => Array(5).fill(f))];
    const emitted = (options: ConstructorParameters<typeof DiceStabilizer>[0]) => {
      const s = new DiceStabilizer(options);
      return reads.flatMap((f) => s.push([die(100, 100, f), die(300, 100, 2)]) ?? []).map((r) => r.faces);
    };
    expect(emitted({})).toEqual([[2, 4]]);
    // counting the window alone, the roll would change with each run
    expect(emitted({ memory: 5, switchLead: 0 })).toEqual([[2, 4], [2, 5], [2, 4], [2, 5], [2, 4], [2, 5]]);
  });

  it('keeps an unreadable die unreadable, never guessing its face', () => {
    const s = new DiceStabilizer();
    const got = [];
    for (let i = 0; i < 6; i++) got.push(s.push([die(100, 100, null), die(300, 100, 1)]));
    const emitted = got.filter(Boolean);
    expect(emitted).toEqual([{ faces: [1], kept: [], unreadable: 1 }]);
    expect(s.dice().find((d) => d.x === 100)!.face).toBeNull();
  });

  it('waits for a new die to be decided before emitting, and drops a die that left', () => {
    const s = new DiceStabilizer({ maxMisses: 1 });
    s.push([die(100, 100, 3)]);
    s.push([die(100, 100, 3)]);
    expect(s.push([die(100, 100, 3)])).toEqual({ faces: [3], kept: [], unreadable: 0 });
    // a second die appears: not decided after two reads
    expect(s.push([die(100, 100, 3), die(300, 300, 4)])).toBeNull();
    expect(s.push([die(100, 100, 3), die(300, 300, 4)])).toBeNull();
    expect(s.isStable()).toBe(false);
    expect(s.push([die(100, 100, 3), die(300, 300, 4)])).toEqual({ faces: [3, 4], kept: [], unreadable: 0 });
    // the die at 300,300 vanishes: kept through one miss, dropped after the second
    expect(s.push([die(100, 100, 3)])).toBeNull();
    expect(s.push([die(100, 100, 3)])).toEqual({ faces: [3], kept: [], unreadable: 0 });
  });

  it('does not count a detection that comes and goes, nor tell the game each time it comes back', () => {
    const s = new DiceStabilizer();
    const emitted = [];
    for (let i = 0; i < 40; i++) {
      // a shadow read as a die "not sure" in 2 frames of every 5
      const frame = i % 5 < 2 ? [die(100, 100, 3), die(400, 300, null)] : [die(100, 100, 3)];
      const r = s.push(frame);
      if (r) emitted.push(r);
    }
    expect(emitted).toEqual([{ faces: [3], kept: [], unreadable: 0 }]);
    expect(s.dice().find((d) => d.x === 400)).toMatchObject({ missed: true });
  });

  it('does not count a detection seen in one frame of five, and reports it as missed', () => {
    const s = new DiceStabilizer();
    const emitted = [];
    for (let i = 0; i < 40; i++) {
      const frame = i % 5 === 2 ? [die(100, 100, 3), die(400, 300, 6)] : [die(100, 100, 3)];
      const r = s.push(frame);
      if (r) emitted.push(r);
      if (i === 5) expect(s.dice().find((d) => d.x === 400)).toMatchObject({ missed: true, face: undefined });
    }
    expect(emitted).toEqual([{ faces: [3], kept: [], unreadable: 0 }]);
  });

  it('stops counting a die missed in switchVotes of the last frames, before forgetting it', () => {
    const s = new DiceStabilizer({ maxMisses: 6 });
    for (let i = 0; i < 2; i++) s.push([die(100, 100, 3), die(300, 100, 5)]);
    expect(s.push([die(100, 100, 3), die(300, 100, 5)])).toEqual({ faces: [3, 5], kept: [], unreadable: 0 });
    const got = [];
    for (let i = 0; i < 5; i++) got.push(s.push([die(100, 100, 3)]));
    expect(got).toEqual([null, null, null, null, { faces: [3], kept: [], unreadable: 0 }]);
    expect(s.dice()).toHaveLength(2);
    for (let i = 0; i < 2; i++) s.push([die(100, 100, 3)]);
    expect(s.dice()).toHaveLength(1);
  });

  it('gives a detection to the counted die near it before a track decided missed, even a closer one', () => {
    const s = new DiceStabilizer();
    s.push([die(100, 100, 4)]);
    s.push([die(100, 100, 4)]);
    // a shadow beside the die, seen once: decided missed two frames later
    s.push([die(100, 100, 4), die(125, 100, null)]);
    for (let i = 0; i < 3; i++) s.push([die(100, 100, 4)]);
    // the die is now found off centre, closer to the shadow's track than to its own
    for (let i = 0; i < 6; i++) s.push([die(122, 100, 4)]);
    const counted = s.dice().filter((d) => !d.missed);
    expect(counted).toEqual([expect.objectContaining({ id: 1, x: 122, face: 4 })]);
    expect(s.dice().find((d) => d.id === 2)).toMatchObject({ missed: true, x: 125 });
  });

  it('moves a die between zones with its position', () => {
    const s = new DiceStabilizer();
    for (let i = 0; i < 2; i++) s.push([die(100, 100, 6)]);
    expect(s.push([die(100, 100, 6)])).toEqual({ faces: [6], kept: [], unreadable: 0 });
    s.reset();
    for (let i = 0; i < 2; i++) s.push([die(500, 100, 6, 'kept')]);
    expect(s.push([die(500, 100, 6, 'kept')])).toEqual({ faces: [], kept: [6], unreadable: 0 });
  });

  it('does not re-emit the same reading after a reset (dice moved but show the same)', () => {
    const s = new DiceStabilizer();
    for (let i = 0; i < 2; i++) s.push([die(100, 100, 2)]);
    expect(s.push([die(100, 100, 2)])).not.toBeNull();
    s.reset();
    for (let i = 0; i < 2; i++) s.push([die(300, 300, 2)]);
    expect(s.push([die(300, 300, 2)])).toBeNull();
    expect(s.isStable()).toBe(true);
    expect(s.lastReading()).toEqual({ faces: [2], kept: [], unreadable: 0 });
  });

  it('rejects bad detections and options', () => {
    const s = new DiceStabilizer();
    expect(() => s.push([{ ...die(1, 1, 3), face: 7 }])).toThrow(/face must be 1..6/);
    expect(() => s.push([{ ...die(1, 1, 3), w: 0 }])).toThrow(/size/);
    expect(() => validateStabilizerOptions({ window: 3, switchVotes: 5 })).toThrow(/switchVotes/);
    expect(() => validateStabilizerOptions({ memory: 4 })).toThrow(/memory: must be an integer from 5 to 1000/);
    expect(validateStabilizerOptions({ window: 40 })).toMatchObject({ window: 40, memory: 40 });
    expect(() => validateStabilizerOptions({ window: 40, memory: 30 })).toThrow(/memory: must be an integer from 40 to 1000/);
    expect(() => validateStabilizerOptions({ switchLead: -1 })).toThrow(/switchLead/);
    expect(() => validateStabilizerOptions({ switchLead: 31 })).toThrow(/switchLead: must be an integer from 0 to 30/);
  });
});
