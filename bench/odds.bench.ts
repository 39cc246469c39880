/**
 * Speed of the exact roll odds (server/dice/odds.ts) and of the roll tracker.
 * cold: first call in the process; recompute: a new spec (memo cleared, shared tables warm);
 * memo: the same spec again (what a UI update costs); the action chances each state sent carries.
 */
import { applyReading, clearOddsCache, rollOdds, rollOddsNow, seededRandom, rollDie, startRoll } from '../server/dice/index.ts';
import type { RollGoal, RollSpec } from '../server/dice/types.ts';
import { actionChances, yorktown1942, type YorktownCommand } from '../server/games/yorktown1942/index.ts';

const shoho: RollGoal = { kind: 'tiers', tiers: [{ id: 'hit1', equal: 2 }, { id: 'hit2', equal: 3 }, { id: 'sunk', equal: 4 }] };
const landing: RollGoal = { kind: 'tiers', tiers: [{ id: 'injured', equal: 0 }, { id: 'unharmed', equal: 2 }, { id: 'safe', equal: 3 }] };
const twoKatesZeke: RollGoal = {
  kind: 'targets',
  targets: [{ id: 'kate1', equal: 2, value: 1 }, { id: 'kate2', equal: 2, value: 1 }, { id: 'zeke', equal: 4, value: 3 }],
};
const fourTargets: RollGoal = {
  kind: 'targets',
  targets: [{ id: 'kate', equal: 2, value: 1 }, { id: 'jake', equal: 3, value: 2 }, { id: 'zeke1', equal: 4, value: 3 }, { id: 'zeke2', equal: 4, value: 3 }],
};

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Times are the fastest of several rounds: the machine is shared, the minimum is the least disturbed. */
function timeOdds(spec: RollSpec): { coldMs: number; recomputeMs: number; memoUs: number } {
  clearOddsCache();
  let t = process.hrtime.bigint();
  rollOdds(spec);
  const coldMs = ms(t);
  let recomputeMs = Infinity;
  for (let i = 0; i < 9; i++) {
    clearOddsCache();
    t = process.hrtime.bigint();
    rollOdds(spec);
    recomputeMs = Math.min(recomputeMs, ms(t));
  }
  const hits = 500;
  let memoUs = Infinity;
  for (let round = 0; round < 5; round++) {
    t = process.hrtime.bigint();
    for (let i = 0; i < hits; i++) rollOdds(spec);
    memoUs = Math.min(memoUs, (ms(t) * 1000) / hits);
  }
  return { coldMs: round(coldMs), recomputeMs: round(recomputeMs), memoUs: round(memoUs) };
}

/**
 * What the action chances add to each state sent (server/games/yorktown1942/action-odds.ts): two planes
 * attacking, planes 3 and 4 on islands with a Kate and a Zeke. cold: odds tables cleared; warm: as each
 * state push after the first.
 */
function timeActionChances(): { coldMs: number; warmMs: number; attacks: number } {
  let state = yorktown1942.emptyState();
  const commands = [
    { type: 'newGame', players: 4, deck: 'physical', startIslands: [8, 9], seed: 3 },
    { type: 'cardDrawn', card: { islands: [8], plane: 'kate' } },
    { type: 'cardDrawn', card: { islands: [9], plane: 'zeke' } },
    { type: 'cardDrawn', card: { islands: [1], plane: 'jake' } },
    { type: 'chooseAction', plane: 1, action: 'move' },
    { type: 'chooseAction', plane: 2, action: 'move' },
    { type: 'chooseAction', plane: 3, action: 'attack' },
    { type: 'chooseAction', plane: 4, action: 'attack' },
  ];
  for (const command of commands) {
    const result = yorktown1942.apply(state, command as YorktownCommand, Date.now());
    if (!result.ok) throw new Error(`action chances bench: ${command.type} refused: ${result.error.message}`);
    state = result.state;
  }
  clearOddsCache();
  let t = process.hrtime.bigint();
  const attacks = actionChances(state).length;
  const coldMs = ms(t);
  let warmMs = Infinity;
  for (let i = 0; i < 50; i++) {
    t = process.hrtime.bigint();
    actionChances(state);
    warmMs = Math.min(warmMs, ms(t));
  }
  return { coldMs: round(coldMs), warmMs: round(warmMs), attacks };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export async function run(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = {};
  const cases: [string, RollSpec][] = [
    ['tiers_shoho_7dice_fuel3', { dice: 7, continuous: true, onesCostFuel: true, fuelAvailable: 3, goal: shoho }],
    ['tiers_shoho_12dice_fuel6', { dice: 12, continuous: true, onesCostFuel: true, fuelAvailable: 6, goal: shoho }],
    ['tiers_landing_12dice', { dice: 12, continuous: true, onesCostFuel: false, fuelAvailable: 0, goal: landing }],
    ['tiers_shoho_20dice_fuel10', { dice: 20, continuous: true, onesCostFuel: true, fuelAvailable: 10, goal: shoho }],
    ['targets_2kates_zeke_8dice_fuel4', { dice: 8, continuous: true, onesCostFuel: true, fuelAvailable: 4, goal: twoKatesZeke }],
    ['targets_2kates_zeke_12dice_fuel6', { dice: 12, continuous: true, onesCostFuel: true, fuelAvailable: 6, goal: twoKatesZeke }],
    ['targets_4targets_12dice_fuel6', { dice: 12, continuous: true, onesCostFuel: true, fuelAvailable: 6, goal: fourTargets }],
    ['single_kate_attack_4dice', { dice: 4, continuous: false, onesCostFuel: false, fuelAvailable: 0, goal: { kind: 'tiers', tiers: [{ id: 'hit', equal: 2 }] } }],
  ];
  for (const [name, spec] of cases) figures[name] = timeOdds(spec);

  // odds from a mid-roll state (a new chain per kept configuration), as a UI showing live odds would ask
  {
    const spec: RollSpec = { dice: 12, continuous: true, onesCostFuel: true, fuelAvailable: 8, goal: fourTargets };
    const random = seededRandom(2);
    clearOddsCache();
    const samples: number[] = [];
    for (let i = 0; i < 30; i++) {
      const faces = Array.from({ length: 12 }, () => rollDie(random));
      const state = applyReading(startRoll(spec), faces);
      const t = process.hrtime.bigint();
      rollOddsNow(state);
      samples.push(ms(t));
    }
    samples.sort((a, b) => a - b);
    figures.now_targets_4targets_12dice = { medianMs: round(samples[15]), maxMs: round(samples[samples.length - 1]) };
  }

  figures.action_chances_two_planes = timeActionChances();

  // tracker: readings per second on a 12-dice targets roll fed random re-rolls that keep the 1s
  const spec: RollSpec = { dice: 12, continuous: true, onesCostFuel: false, fuelAvailable: 0, goal: fourTargets };
  const random = seededRandom(1);
  let state = startRoll(spec);
  let readings = 0;
  const t = process.hrtime.bigint();
  for (let roll = 0; roll < 2000; roll++) {
    state = startRoll(spec);
    let faces = Array.from({ length: 12 }, () => rollDie(random));
    for (let i = 0; i < 10; i++) {
      state = applyReading(state, faces);
      readings++;
      faces = faces.map((f) => (f === 1 ? f : rollDie(random)));
    }
  }
  figures.tracker_readings_per_s = Math.round(readings / (ms(t) / 1000));
  return figures;
}
