import { describe, expect, it } from 'vitest';
import type { BoxButton } from '../../../server/hardware/ports.ts';
import { buttonToCommand, controlsAfterChange, HOLD_AGAIN_MS, shownChoice, INITIAL_CONTROLS, type ControlsState } from '../../../server/hardware/serial/controls.ts';
import { resolveRules } from '../../../server/games/yorktown1942/ruleset.ts';
import { game, plane, roll } from './game-fixture.ts';
import type { BoxPlaneView } from '../../../server/hardware/serial/game-view.ts';

const RULES = resolveRules({});

const press = (button: BoxButton, p: 'short' | 'long' = 'short') => ({ button, press: p, at: 0 });
const sel = (n: 1 | 2 | 3 | 4 | null): ControlsState => ({ selectedPlane: n });

describe('box controls', () => {
  it('selects and deselects planes without a command', () => {
    const a = buttonToCommand(press('plane2'), game(), INITIAL_CONTROLS);
    expect(a).toMatchObject({ controls: sel(2), command: null, cue: 'tick' });
    const b = buttonToCommand(press('plane3'), game(), a.controls);
    expect(b.controls).toEqual(sel(3));
    expect(buttonToCommand(press('plane3'), game(), b.controls)).toMatchObject({ controls: sel(null), command: null });
  });

  it('refuses a destroyed plane and forgets a selection whose plane was destroyed', () => {
    const g = game({ planes: [plane(1), plane(2, { destroyed: true }), plane(3), plane(4)] });
    expect(buttonToCommand(press('plane2'), g, INITIAL_CONTROLS)).toMatchObject({ command: null, cue: 'fail', note: 'plane 2 is destroyed' });
    expect(buttonToCommand(press('search'), g, sel(2))).toMatchObject({ controls: sel(null), command: null, note: 'press a plane button first' });
  });

  it('chooses the action of the selected plane, then executes the ones that need nothing more', () => {
    const zekeOn1 = game({ islands: game().islands.map((i) => (i.id === 1 ? { ...i, japanese: ['zeke' as const] } : i)) });
    expect(buttonToCommand(press('attack'), zekeOn1, sel(1)).command).toEqual({ type: 'chooseAction', plane: 1, action: 'attack' });
    expect(buttonToCommand(press('search', 'long'), game(), sel(3)).command).toEqual({ type: 'chooseAction', plane: 3, action: 'search' });
    const chosen = game({ planes: [plane(1, { action: 'search' }), plane(2, { action: 'takeoffLanding', position: { at: 'approach' } }), plane(3, { action: 'move' }), plane(4, { action: 'search' })] });
    expect(buttonToCommand(press('search'), chosen, sel(1)).command).toEqual({ type: 'search', plane: 1 });
    expect(buttonToCommand(press('takeoffLanding'), chosen, sel(2)).command).toEqual({ type: 'land', plane: 2 });
    expect(buttonToCommand(press('move'), chosen, sel(3))).toMatchObject({ command: null, cue: 'tick', noteKey: 'moveCandidate' });
  });

  it('attacks at once when the engine would take one target only, and steps through the targets when there are more', () => {
    const islands = [
      { id: 1, colour: 'orange' as const, japanese: ['zeke' as const] },
      { id: 2, colour: 'orange' as const, japanese: [] },
      { id: 3, colour: 'red' as const, japanese: [] },
    ];
    const attacking = (over: Parameters<typeof plane>[1], g: Parameters<typeof game>[0] = {}) =>
      game({ islands, planes: [plane(1, { action: 'attack', ...over }), plane(2, { action: 'search' }), plane(3, { action: 'search' }), plane(4, { action: 'search' })], ...g });
    // the Japanese planes on its island, the Shōhō not located yet
    expect(buttonToCommand(press('attack'), attacking({ position: { at: 'island', island: 1 } }), sel(1))).toMatchObject({
      command: { type: 'attack', plane: 1, target: 'planes' },
      noteKey: 'attacks',
    });
    // located, from an orange island with nobody on it: the CAP alone, or the Shōhō alone with a bomb and no CAP
    const located = { search: RULES.search.locatedAt };
    expect(buttonToCommand(press('attack'), attacking({ position: { at: 'island', island: 2 } }, { ...located, cap: 1 }), sel(1)).command).toEqual({ type: 'attack', plane: 1, target: 'cap' });
    expect(buttonToCommand(press('attack'), attacking({ position: { at: 'island', island: 2 }, load: 'bomb' }, located), sel(1)).command).toEqual({ type: 'attack', plane: 1, target: 'shoho' });
    // two targets: a real choice, made on the box as a move's place is: each Attack shows the next, Confirm attacks it
    const two = attacking({ position: { at: 'island', island: 1 } }, { ...located, cap: 2 });
    const first = buttonToCommand(press('attack'), two, sel(1));
    expect(first).toMatchObject({ command: null, cue: 'tick', noteKey: 'targetCandidate', noteParams: { plane: 1, target: 'planes' }, note: 'plane 1 → the Japanese planes here: Confirm to attack, Attack for the next target' });
    expect(shownChoice(first.controls)).toMatchObject({ key: 'targetCandidate', params: { plane: 1, target: 'planes' } });
    const second = buttonToCommand(press('attack'), two, first.controls);
    expect(second).toMatchObject({ command: null, noteKey: 'targetCandidate', noteParams: { plane: 1, target: 'cap' } });
    // round again to the first
    expect(buttonToCommand(press('attack'), two, second.controls).noteParams).toEqual({ plane: 1, target: 'planes' });
    expect(buttonToCommand(press('confirm'), two, second.controls)).toMatchObject({ command: { type: 'attack', plane: 1, target: 'cap' }, noteKey: 'attacks', noteParams: { plane: 1, target: 'cap' } });
    // Undo forgets it; the CAP shot down meanwhile (a change elsewhere): forgotten, and Confirm would not attack it
    expect(buttonToCommand(press('undo'), two, second.controls)).toMatchObject({ command: null, noteKey: 'choiceCancelled' });
    const noCap = attacking({ position: { at: 'island', island: 1 } }, { ...located, cap: 0 });
    expect(controlsAfterChange(second.controls, noCap).pending).toBeNull();
    expect(buttonToCommand(press('confirm'), noCap, second.controls)).toMatchObject({ command: null, cue: 'fail', noteKey: 'choiceGone' });
    // a bomb on an orange island with the CAP up: the CAP or the Shōhō
    const bombing = attacking({ position: { at: 'island', island: 2 }, load: 'bomb' }, { ...located, cap: 1 });
    const cap = buttonToCommand(press('attack'), bombing, sel(1));
    expect(cap.noteParams).toEqual({ plane: 1, target: 'cap' });
    const shoho = buttonToCommand(press('attack'), bombing, cap.controls);
    expect(shoho.noteParams).toEqual({ plane: 1, target: 'shoho' });
    expect(buttonToCommand(press('confirm'), bombing, shoho.controls).command).toEqual({ type: 'attack', plane: 1, target: 'shoho' });
    // nothing the engine would take
    expect(buttonToCommand(press('attack'), attacking({ position: { at: 'island', island: 3 } }), sel(1))).toMatchObject({ command: null, cue: 'fail', noteKey: 'nothingToAttack' });
    expect(buttonToCommand(press('attack'), attacking({ position: { at: 'approach' } }), sel(1))).toMatchObject({ command: null, noteKey: 'nothingToAttack' });
    expect(buttonToCommand(press('attack'), attacking({ position: { at: 'deck' } }), sel(1))).toMatchObject({ command: null, note: expect.stringMatching(/take off/) });
  });

  it('says every plane chooses before any acts rather than offer a place or target for Confirm', () => {
    const g = game({ planes: [plane(1, { action: 'move' }), plane(2), plane(3, { action: 'search' }), plane(4, { destroyed: true })] });
    const out = buttonToCommand(press('move'), g, sel(1));
    expect(out).toMatchObject({ command: null, cue: 'fail', noteKey: 'othersChooseFirst', noteParams: { plane: 1, planes: '2' }, controls: sel(1) });
    expect(out.note).toBe('every plane chooses its action before any acts: plane 2 still to choose');
    expect(buttonToCommand(press('move'), game({ planes: [plane(1, { action: 'move' }), plane(2), plane(3), plane(4)] }), sel(1)).note).toBe('every plane chooses its action before any acts: planes 2, 3, 4 still to choose');
  });

  it('warns of an attack no roll of its dice can win, and makes it on the same press again within the time', () => {
    const islands = [{ id: 1, colour: 'orange' as const, japanese: ['zeke' as const] }];
    const g = game({ islands, planes: [plane(1, { action: 'attack', position: { at: 'island', island: 1 } }), plane(2, { action: 'search' }), plane(3, { action: 'search' }), plane(4, { action: 'search' })] });
    const hopeless = { chances: [{ plane: 1, kind: 'planes' as const, chance: 0, dice: 2, fewestEqual: 3 }] };
    const at = (ms: number) => ({ button: 'attack' as const, press: 'short' as const, at: ms });
    const first = buttonToCommand(at(1000), g, sel(1), hopeless);
    expect(first).toMatchObject({ command: null, cue: 'fail', noteKey: 'attackHopelessPressAgain', noteParams: { plane: 1, dice: 2, n: 3 } });
    expect(first.note).toBe("plane 1's attack cannot hit: 2 dice, and 3 equal dice are needed (press again to attack anyway: its 1s still cost fuel)");
    expect(buttonToCommand(at(2000), g, first.controls, hopeless).command).toEqual({ type: 'attack', plane: 1, target: 'planes' });
    // too late: warned again
    expect(buttonToCommand(at(1000 + HOLD_AGAIN_MS + 1), g, first.controls, hopeless).noteKey).toBe('attackHopelessPressAgain');
    // a chance, or none known: attacks at once
    expect(buttonToCommand(at(1000), g, sel(1), { chances: [{ ...hopeless.chances[0]!, chance: 0.2 }] }).command).toMatchObject({ type: 'attack' });
    expect(buttonToCommand(at(1000), g, sel(1)).command).toMatchObject({ type: 'attack' });
  });

  describe('an action that cannot do anything from where the plane is', () => {
    const at = (position: BoxPlaneView['position'], over: Partial<BoxPlaneView> = {}, g: Parameters<typeof game>[0] = {}) =>
      game({ planes: [plane(1, { position, ...over }), plane(2), plane(3), plane(4)], ...g });

    it('is refused with the dashboard\'s reason when nothing this turn can change it', () => {
      const refused = (g: ReturnType<typeof game>, button: BoxButton, reason: string) =>
        expect(buttonToCommand(press(button), g, sel(1)), `${button} ${reason}`).toMatchObject({ command: null, cue: 'fail', noteKey: 'futileChoice', noteParams: { plane: 1, reason } });
      refused(at({ at: 'island', island: 8 }), 'search', 'notOrange');
      refused(at({ at: 'approach' }), 'search', 'notOrange');
      refused(at({ at: 'island', island: 8 }), 'attack', 'nothingToAttack');
      refused(at({ at: 'deck' }), 'attack', 'onDeck');
      refused(at({ at: 'deck' }), 'move', 'onDeck');
      refused(at({ at: 'island', island: 5 }), 'takeoffLanding', 'landFromApproach');
      refused(at({ at: 'island', island: 3 }, { fuel: 0 }), 'search', 'noFuel');
      // from an orange island with no CAP fighter and no bomb, the Shōhō located or not: nothing
      refused(at({ at: 'island', island: 1 }), 'attack', 'nothingToAttack');
      expect(buttonToCommand(press('search'), at({ at: 'island', island: 8 }), sel(1)).note).toBe('plane 1 cannot choose search now: not an orange island');
    });

    it('is only warned of when another plane may make it possible this turn, and chosen by a second press in time', () => {
      // the Shōhō not located yet, the CAP to attack once it is
      const g = at({ at: 'island', island: 1 }, {}, { cap: 1 });
      const first = buttonToCommand({ button: 'attack', press: 'short', at: 1000 }, g, sel(1));
      expect(first).toMatchObject({ command: null, cue: 'fail', noteKey: 'futileChoicePressAgain', noteParams: { plane: 1, action: 'attack', reason: 'notLocated' } });
      expect(first.note).toBe('plane 1\'s attack may do nothing: the Shōhō is not located yet (press it again to choose it anyway)');
      expect(buttonToCommand({ button: 'attack', press: 'short', at: 1000 + HOLD_AGAIN_MS }, g, first.controls).command).toEqual({ type: 'chooseAction', plane: 1, action: 'attack' });
      expect(buttonToCommand({ button: 'attack', press: 'short', at: 1001 + HOLD_AGAIN_MS }, g, first.controls).noteKey).toBe('futileChoicePressAgain');
      expect(buttonToCommand({ button: 'search', press: 'short', at: 1001 }, g, first.controls).command).toEqual({ type: 'chooseAction', plane: 1, action: 'search' });
      // a drop tank may refuel it first; the other planes that chose the flight deck may skip
      expect(buttonToCommand(press('search'), at({ at: 'island', island: 3 }, { fuel: 0, load: 'dropTank' }), sel(1)).noteKey).toBe('futileChoicePressAgain');
      const deck = game({ planes: [plane(1, { position: { at: 'deck' } }), ...([2, 3] as const).map((id) => plane(id, { position: { at: 'deck' }, action: 'takeoffLanding' })), plane(4)] });
      expect(buttonToCommand(press('takeoffLanding'), deck, sel(1))).toMatchObject({ noteKey: 'futileChoicePressAgain', noteParams: { reason: 'deckTaken' } });
      expect(buttonToCommand(press('takeoffLanding'), { ...deck, takeoffsLandingsThisTurn: 2 }, sel(1))).toMatchObject({ noteKey: 'futileChoice', noteParams: { reason: 'deckTaken' } });
    });
  });

  it('right after a plane\'s move, Attack makes its lightning attack and Take-off/Landing its emergency landing', () => {
    const moved = (afterMove: { lightningAttack: boolean; emergencyLanding: boolean } | null) =>
      game({ afterMove: afterMove && { plane: 3, ...afterMove }, planes: [plane(1), plane(2), plane(3, { action: 'move', done: true }), plane(4)] });
    expect(buttonToCommand(press('attack'), moved({ lightningAttack: true, emergencyLanding: false }), sel(3))).toMatchObject({
      command: { type: 'lightningAttack', plane: 3 },
      note: 'plane 3 makes a lightning attack on the Japanese planes here',
    });
    expect(buttonToCommand(press('takeoffLanding'), moved({ lightningAttack: false, emergencyLanding: true }), sel(3)).command).toEqual({ type: 'emergencyLanding', plane: 3 });
    // none offered, or the moment passed (another plane acted)
    expect(buttonToCommand(press('takeoffLanding'), moved({ lightningAttack: true, emergencyLanding: false }), sel(3))).toMatchObject({ command: null, noteKey: 'alreadyActed' });
    expect(buttonToCommand(press('attack'), moved(null), sel(3))).toMatchObject({ command: null, noteKey: 'alreadyActed' });
  });

  describe('the places a move or a take-off can go, one per press, Confirm goes', () => {
    // plane 3 on island 10 (white lines to 6, 7 and 9; 10 borders the approach area), Japanese planes on island 6
    const islands = [{ id: 6, colour: 'green' as const, japanese: ['zeke' as const] }];
    const moving = (over: Parameters<typeof plane>[1] = {}) =>
      game({ islands, planes: [plane(1, { action: 'search' }), plane(2, { action: 'search' }), plane(3, { action: 'move', position: { at: 'island', island: 10 }, ...over }), plane(4, { action: 'search' })] });
    const steps = (g: ReturnType<typeof game>, button: BoxButton, n: number, controls: ControlsState) => {
      const notes: string[] = [];
      let c = controls;
      for (let i = 0; i < n; i += 1) {
        const out = buttonToCommand(press(button), g, c);
        expect(out).toMatchObject({ command: null, cue: 'tick' });
        notes.push(out.note);
        c = out.controls;
      }
      return { notes, controls: c };
    };

    it('Move steps through the islands one line away, the approach area, then two islands over an empty one, and round again', () => {
      const { notes } = steps(moving(), 'move', 8, sel(3));
      expect(notes).toEqual([
        'plane 3 → island 6 (1 fuel): Confirm to move, Move for the next',
        'plane 3 → island 7 (1 fuel): Confirm to move, Move for the next',
        'plane 3 → island 9 (1 fuel): Confirm to move, Move for the next',
        'plane 3 → the approach area (1 fuel): Confirm to move, Move for the next',
        'plane 3 → island 3 over island 7 (3 fuel): Confirm to move, Move for the next',
        'plane 3 → island 5 over island 9 (3 fuel): Confirm to move, Move for the next',
        'plane 3 → island 8 over island 9 (3 fuel): Confirm to move, Move for the next',
        'plane 3 → island 6 (1 fuel): Confirm to move, Move for the next',
      ]);
    });

    it('Confirm makes the move shown; Undo forgets it without undoing; any other press forgets it', () => {
      const g = moving();
      const { controls } = steps(g, 'move', 5, sel(3));
      expect(controls.pending).toMatchObject({ command: { type: 'move', plane: 3, to: 3, via: 7 }, fuel: 3 });
      expect(buttonToCommand(press('confirm'), g, controls)).toMatchObject({
        command: { type: 'move', plane: 3, to: 3, via: 7 },
        note: 'plane 3 moves to island 3 over island 7',
        noteKey: 'moves',
        noteParams: { plane: 3, to: 3, via: 7, fuel: 3 },
        controls: sel(3),
      });
      expect(buttonToCommand(press('undo'), g, controls)).toMatchObject({ command: null, cue: 'tick', noteKey: 'choiceCancelled', controls: sel(3) });
      expect(buttonToCommand(press('plane1'), g, controls).controls).toEqual(sel(1));
      // Confirm with nothing shown: the turn's usual Confirm
      expect(buttonToCommand(press('confirm'), g, sel(3))).toMatchObject({ command: null, noteKey: 'stillToAct' });
      // into a space with Japanese planes: the note says what Attack does next; into the approach area on its last fuel, Land / Take off
      expect(buttonToCommand(press('confirm'), g, steps(g, 'move', 1, sel(3)).controls)).toMatchObject({
        command: { type: 'move', plane: 3, to: 6 },
        noteKey: 'movesLightning',
        note: 'plane 3 moves to island 6: Attack now makes a lightning attack on the Japanese planes there',
      });
      const lastFuel = moving({ fuel: 1 });
      const toApproach = steps(lastFuel, 'move', 4, sel(3)).controls;
      expect(toApproach.pending?.command).toMatchObject({ to: 'approach' });
      expect(buttonToCommand(press('confirm'), lastFuel, toApproach)).toMatchObject({ noteKey: 'movesEmergency', note: 'plane 3 moves to the approach area with no fuel left: Land / Take off now makes an emergency landing' });
    });

    it('offers only what the plane\'s fuel pays for, and says when it can go nowhere or must take off first', () => {
      expect(steps(moving({ fuel: 2 }), 'move', 5, sel(3)).notes.at(-1)).toBe('plane 3 → island 6 (1 fuel): Confirm to move, Move for the next');
      expect(buttonToCommand(press('move'), moving({ fuel: 0 }), sel(3))).toMatchObject({ command: null, cue: 'fail', noteKey: 'nowhereToMove' });
      expect(buttonToCommand(press('move'), moving({ position: { at: 'deck' } }), sel(3))).toMatchObject({ command: null, cue: 'fail', noteKey: 'moveFromDeck' });
    });

    it('refuses a place shown that the plane can no longer reach (the table changed meanwhile)', () => {
      const { controls } = steps(moving(), 'move', 2, sel(3)); // island 7
      const blocked = game({ islands, planes: [plane(1, { action: 'search' }), plane(2, { action: 'search' }), plane(3, { action: 'move', position: { at: 'island', island: 10 }, done: true }), plane(4, { action: 'search' })] });
      expect(buttonToCommand(press('confirm'), blocked, controls)).toMatchObject({ command: null, cue: 'fail', noteKey: 'choiceGone' });
    });

    it('Land / Take off on the deck steps through the approach area and the red islands, with the plane\'s load then a bomb', () => {
      const g = game({ planes: [plane(1, { action: 'takeoffLanding', position: { at: 'deck' } }), plane(2, { action: 'takeoffLanding', position: { at: 'island', island: 5 } }), plane(3, { action: 'search' }), plane(4, { action: 'search' })] });
      const { notes, controls } = steps(g, 'takeoffLanding', 2, sel(1));
      expect(notes).toEqual([
        'plane 1 takes off → the approach area with no load (1 fuel): Confirm to take off, Land / Take off for the next',
        'plane 1 takes off → the approach area with a bomb (1 fuel): Confirm to take off, Land / Take off for the next',
      ]);
      expect(buttonToCommand(press('confirm'), g, controls)).toMatchObject({ command: { type: 'takeOff', plane: 1, to: 'approach', load: 'bomb' }, noteKey: 'takesOff' });
      expect(steps(g, 'takeoffLanding', 3, sel(1)).controls.pending?.command).toEqual({ type: 'takeOff', plane: 1, to: 8, load: 'none' });
      const away = buttonToCommand(press('takeoffLanding'), g, sel(2));
      expect(away).toMatchObject({ command: null, cue: 'fail', noteKey: 'landFromApproach', noteParams: { plane: 2 } });
      expect(away.note).toBe('plane 2: landing is done from the approach area: move there first');
    });

    it('offers no new bomb while every load token is in use, and the drop tank with its expansion only', () => {
      const loaded = { load: 'bomb' as const, position: { at: 'island' as const, island: 2 } };
      const full = game({ planes: [plane(1, { action: 'takeoffLanding', position: { at: 'deck' } }), plane(2, { ...loaded, action: 'search' }), plane(3, { ...loaded, action: 'search' }), plane(4, { ...loaded, action: 'search' })], rules: { ...RULES, load: { ...RULES.load, tokens: 3 } } });
      expect(steps(full, 'takeoffLanding', 2, sel(1)).controls.pending?.command).toEqual({ type: 'takeOff', plane: 1, to: 8, load: 'none' });
      const tanks = game({ setup: { expansions: { dropTank: true } }, planes: [plane(1, { action: 'takeoffLanding', position: { at: 'deck' }, load: 'bomb' }), plane(2, { action: 'search' }), plane(3, { action: 'search' }), plane(4, { action: 'search' })] });
      expect(steps(tanks, 'takeoffLanding', 3, sel(1)).controls.pending?.command).toEqual({ type: 'takeOff', plane: 1, to: 'approach', load: 'dropTank' });
      expect(steps(tanks, 'takeoffLanding', 1, sel(1)).controls.pending?.command).toEqual({ type: 'takeOff', plane: 1, to: 'approach', load: 'bomb' });
    });
  });

  it('starts the table\'s last game again on a long Confirm when the service gives it', () => {
    const lastGame = { players: 2 as const, difficulty: 35 as const, deck: 'physical' as const, expansions: { weather: true, dropTank: false }, planeSeats: { '1': 1 as const, '2': 2 as const, '3': 1 as const, '4': 2 as const } };
    const out = buttonToCommand(press('confirm', 'long'), null, sel(3), { lastGame });
    expect(out).toMatchObject({ controls: sel(null), command: { type: 'newGame', ...lastGame }, noteKey: 'newGameLast' });
    expect(out.note).toBe('a new game like the last one: 2 players, physical deck, 35 minutes, weather');
    expect(buttonToCommand(press('confirm', 'long'), game({ phase: 'over' }), INITIAL_CONTROLS, { lastGame: null }).command).toEqual({ type: 'newGame', players: 4 });
  });

  it('starts a standard game on a long Confirm when none is on the table, or the last is over; says so on any other press', () => {
    const start = { type: 'newGame', players: 4 };
    expect(buttonToCommand(press('confirm', 'long'), null, sel(2))).toMatchObject({ command: start, controls: sel(null), cue: null });
    expect(buttonToCommand(press('confirm', 'long'), game({ phase: 'over' }), INITIAL_CONTROLS).command).toEqual(start);
    expect(buttonToCommand(press('confirm'), null, INITIAL_CONTROLS)).toMatchObject({ command: null, cue: 'fail', note: expect.stringMatching(/hold Confirm to start one/) });
    expect(buttonToCommand(press('plane1', 'long'), game({ phase: 'over' }), INITIAL_CONTROLS)).toMatchObject({ command: null, note: 'the game is over: hold Confirm for a new one, or press Undo to take back the move that ended it' });
    // in a game, a long Confirm is still the end of the turn
    expect(buttonToCommand(press('confirm', 'long'), game(), INITIAL_CONTROLS).command).toEqual({ type: 'endTurn' });
  });

  it('explains why an action cannot be chosen', () => {
    expect(buttonToCommand(press('move'), game(), INITIAL_CONTROLS).note).toBe('press a plane button first');
    expect(buttonToCommand(press('move'), game({ phase: 'japanese' }), sel(1)).note).toMatch(/plane phase/);
    expect(buttonToCommand(press('move'), game({ roll: roll() }), sel(1)).note).toMatch(/finish the roll/);
    expect(buttonToCommand(press('move'), game({ planes: [plane(1, { done: true }), plane(2), plane(3), plane(4)] }), sel(1)).note).toMatch(/already acted/);
    expect(buttonToCommand(press('move'), null, sel(1)).note).toMatch(/no game/);
    expect(buttonToCommand(press('move'), game({ phase: 'over' }), sel(1)).note).toMatch(/over/);
  });

  it('long press on a plane skips its action', () => {
    expect(buttonToCommand(press('plane3', 'long'), game(), INITIAL_CONTROLS)).toMatchObject({ controls: sel(3), command: { type: 'skipAction', plane: 3 } });
  });

  it('a long press that would crash a plane for want of fuel only warns; the same long press again within the time does it', () => {
    const dry = game({ planes: [plane(1), plane(2, { fuel: 0, action: 'search' }), plane(3, { fuel: 0, position: { at: 'deck' } }), plane(4)] });
    const at = (button: BoxButton, ms: number) => ({ button, press: 'long' as const, at: ms });
    const warned = buttonToCommand(at('plane2', 1000), dry, INITIAL_CONTROLS);
    expect(warned).toMatchObject({ command: null, cue: 'fail', controls: { selectedPlane: 2 }, noteKey: 'skipCrashesHoldAgain', noteParams: { plane: 2, fuel: 0, cost: RULES.idle.fuelLoss } });
    expect(warned.note).toBe(`plane 2 has 0 fuel: skipping costs ${RULES.idle.fuelLoss} and crashes it (hold again to skip anyway)`);
    expect(buttonToCommand(at('plane2', 1000 + HOLD_AGAIN_MS), dry, warned.controls).command).toEqual({ type: 'skipAction', plane: 2 });
    // too late, another plane, or any press between: warned again
    expect(buttonToCommand(at('plane2', 1001 + HOLD_AGAIN_MS), dry, warned.controls).command).toBeNull();
    const between = buttonToCommand(press('plane2'), dry, warned.controls);
    expect(buttonToCommand(at('plane2', 2000), dry, between.controls).command).toBeNull();
    // on the flight deck, or with the fuel to stay up, a skip costs nothing to fear
    expect(buttonToCommand(at('plane3', 0), dry, INITIAL_CONTROLS).command).toEqual({ type: 'skipAction', plane: 3 });
    expect(buttonToCommand(at('plane1', 0), dry, INITIAL_CONTROLS).command).toEqual({ type: 'skipAction', plane: 1 });
    // a landing refused by a full flight deck costs its own fuel
    const circling = game({ takeoffsLandingsThisTurn: RULES.flightDeck.perTurn, planes: [plane(1, { fuel: RULES.flightDeck.blockedLandingFuel - 1, action: 'takeoffLanding', position: { at: 'approach' } }), plane(2), plane(3), plane(4)] });
    expect(buttonToCommand(at('plane1', 0), circling, INITIAL_CONTROLS)).toMatchObject({ command: null, noteParams: { cost: RULES.flightDeck.blockedLandingFuel } });

    const endWarned = buttonToCommand(at('confirm', 0), dry, sel(1));
    expect(endWarned).toMatchObject({ command: null, cue: 'fail', noteKey: 'endTurnCrashesHoldAgain', note: 'plane 2 would crash for want of fuel (hold Confirm again to end the turn anyway)' });
    expect(buttonToCommand(at('plane2', 10), dry, endWarned.controls).command).toBeNull();
    expect(buttonToCommand(at('confirm', 10), dry, endWarned.controls)).toMatchObject({ command: { type: 'endTurn' }, controls: sel(null) });
  });

  it('Confirm: confirms a roll, draws the card, ends a finished turn', () => {
    expect(buttonToCommand(press('confirm'), game({ roll: roll() }), sel(1)).command).toEqual({ type: 'confirmRoll' });
    expect(buttonToCommand(press('confirm'), game({ phase: 'japanese' }), INITIAL_CONTROLS).command).toEqual({ type: 'drawCard' });
    expect(buttonToCommand(press('confirm'), game({ phase: 'japanese', deck: { mode: 'physical' } }), INITIAL_CONTROLS)).toMatchObject({
      command: null,
      note: expect.stringMatching(/card you drew/),
    });
    const allDone = game({ planes: [plane(1, { done: true }), plane(2, { destroyed: true }), plane(3, { done: true }), plane(4, { done: true })] });
    expect(buttonToCommand(press('confirm'), allDone, sel(1))).toMatchObject({ controls: sel(null), command: { type: 'endTurn' } });
    expect(buttonToCommand(press('confirm'), game({ planes: [plane(1, { done: true }), plane(2), plane(3), plane(4)] }), INITIAL_CONTROLS)).toMatchObject({
      command: null,
      cue: 'fail',
      note: 'planes 2, 3, 4 still to act (hold Confirm to end the turn anyway)',
    });
  });

  it('Confirm draws the set-up cards of a digital game, and nothing before a game', () => {
    expect(buttonToCommand(press('confirm'), game({ phase: 'setup', setupDraws: 2 }), INITIAL_CONTROLS).command).toEqual({ type: 'drawCard' });
    expect(buttonToCommand(press('confirm'), game({ phase: 'setup', setup: null }), INITIAL_CONTROLS)).toMatchObject({ command: null, note: expect.stringMatching(/no game/) });
  });

  it('long Confirm ends the turn, but not in the middle of a roll', () => {
    expect(buttonToCommand(press('confirm', 'long'), game(), sel(2))).toMatchObject({ controls: sel(null), command: { type: 'endTurn' } });
    expect(buttonToCommand(press('confirm', 'long'), game({ roll: roll() }), sel(2)).command).toBeNull();
  });

  it('Undo undoes; long Undo clears the selection', () => {
    expect(buttonToCommand(press('undo'), game(), sel(2))).toMatchObject({ controls: sel(2), command: { type: 'undo' } });
    expect(buttonToCommand(press('undo'), null, INITIAL_CONTROLS).command).toEqual({ type: 'undo' });
    expect(buttonToCommand(press('undo', 'long'), game(), sel(2))).toMatchObject({ controls: sel(null), command: null });
  });

  it('refuses an unknown button', () => {
    expect(buttonToCommand(press('eject' as BoxButton), game(), INITIAL_CONTROLS)).toMatchObject({ command: null, cue: 'fail' });
  });
});
