/** The dashboard's pure logic (no browser needed): clock, cues, language, the wizard's command. */
import { describe, expect, it } from 'vitest';
import { commandSchemas } from '../../server/games/yorktown1942/commands.ts';
import { CommandValidator } from '../../server/http/command-validator.ts';
import { resolveRules } from '../../server/games/yorktown1942/ruleset.ts';
import { clockLevel, clockText, decimalText, modelText, searchBonus, shareText, skillDice } from '../../web/src/format.ts';
import { initialLang, setLang, t, tk } from '../../web/src/i18n.ts';
import { cueBetween } from '../../web/src/sound.ts';
import { toastMs } from '../../web/src/toast-time.ts';
import { newGameCommand, type WizardForm } from '../../web/src/views/wizard.ts';
import { dieLabelPlace, targetLabel, unsureDice } from '../../web/src/views/roll.ts';
import { areaNarrowestPx, cornersQuad, dragRect, moveCorner, nearestCorner, startingArea } from '../../web/src/views/area-geometry.ts';
import { parseArea } from '../../server/hardware/camera/calibration.ts';

const rules = resolveRules();

describe('stopwatch text and colour', () => {
  it('formats minutes and seconds, rounding up, never below zero', () => {
    expect(clockText(30 * 60_000)).toBe('30:00');
    expect(clockText(59_001)).toBe('1:00');
    expect(clockText(59_000)).toBe('0:59');
    expect(clockText(-5000)).toBe('0:00');
    expect(clockText(3_723_000)).toBe('1:02:03');
  });
  it('changes level at 5 minutes, 1 minute and zero', () => {
    expect(clockLevel(5 * 60_000 + 1)).toBe('ok');
    expect(clockLevel(5 * 60_000)).toBe('low');
    expect(clockLevel(60_000)).toBe('critical');
    expect(clockLevel(0)).toBe('over');
  });
});

describe('last-minute cues', () => {
  it('sounds once at the minute mark, every 10 s, every second in the last 10, and at zero', () => {
    expect(cueBetween(60_400, 59_900)).toBe('minute');
    expect(cueBetween(61_000, 60_500)).toBeNull();
    expect(cueBetween(45_100, 44_900)).toBeNull();
    expect(cueBetween(40_100, 39_900)).toBe('tick');
    expect(cueBetween(9_100, 8_900)).toBe('tick');
    expect(cueBetween(200, -50)).toBe('end');
    expect(cueBetween(-50, -300)).toBeNull();
    expect(cueBetween(120_000, 119_000)).toBeNull();
  });
});

describe('rule figures shown on the display', () => {
  it('dice from the skill track and the search bonus against the Shōhō', () => {
    expect(skillDice(rules, 0)).toBe(rules.skill.dice[0]!.dice);
    const last = rules.skill.dice[rules.skill.dice.length - 1]!;
    expect(skillDice(rules, last.from)).toBe(last.dice);
    expect(searchBonus(rules, 0)).toBe(0);
    for (const step of rules.search.attackBonus) expect(searchBonus(rules, step.from)).toBe(step.dice);
  });
});

describe('languages', () => {
  it('takes ?lang=, then the stored choice, then the browser language', () => {
    const store = (v: string | null) => ({ getItem: () => v });
    expect(initialLang(new URLSearchParams('lang=es'), store('en'), 'en-GB')).toBe('es');
    expect(initialLang(new URLSearchParams(''), store('es'), 'en-GB')).toBe('es');
    expect(initialLang(new URLSearchParams(''), store(null), 'es-ES')).toBe('es');
    expect(initialLang(new URLSearchParams('lang=fr'), store('xx'), 'de')).toBe('en');
  });
  it('fills parameters and uses the Spanish rulebook terms', () => {
    setLang('es', null);
    expect(t('plane', { n: 3 })).toBe('Avión 3');
    expect(tk('act_takeoffLanding')).toBe('Aterrizar / Despegar');
    expect(tk('act_search')).toBe('Buscar');
    expect(tk('no_such_key')).toBe('no_such_key');
    setLang('en', null);
    expect(t('plane', { n: 3 })).toBe('Plane 3');
  });
  it('writes decimals as each language does', () => {
    setLang('es', null);
    expect(decimalText(2.25, 1)).toMatch(/^2,[23]$/);
    expect(shareText(0.98412)).toBe('98,4 %');
    expect(shareText(1)).toBe('100,0 %');
    expect(decimalText(12345.6, 1)).toBe('12345,6');
    setLang('en', null);
    expect(shareText(0.98412)).toBe('98.4 %');
    expect(decimalText(12345.6, 1)).toBe('12345.6');
  });
  it("names a dice model in the player's language", () => {
    const taught = "1.22.0, taught 30 photos of a table's dice on 2026-12-03";
    expect(modelText(taught)).toBe(taught);
    expect(modelText('1.22.0')).toBe('1.22.0');
    setLang('es', null);
    expect(modelText(taught)).toBe('1.22.0, enseñado con 30 fotos de los dados de una mesa el 2026-12-03');
    setLang('en', null);
  });
});

describe("the wizard's newGame command", () => {
  const validator = new CommandValidator(commandSchemas);
  const form: WizardForm = {
    players: 3,
    inexperienced: 1,
    difficulty: 25,
    expertManoeuvres: true,
    dropTank: false,
    weather: true,
    deck: 'physical',
    startIslands: [9, 10],
    planeSeats: [1, 1, 2, 3],
    seed: ' 42 ',
  };
  it("passes the service's command validation", () => {
    const cmd = newGameCommand(form);
    const checked = validator.validate(cmd);
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    expect(cmd).toMatchObject({ players: 3, seed: 42, deck: 'physical', planeSeats: { '4': 3 }, expansions: { weather: true } });
  });
  it('leaves the seed out when none is given', () => {
    expect(newGameCommand({ ...form, seed: '' })).not.toHaveProperty('seed');
  });
});

describe('attack split options', async () => {
  const { splitOptions, checkAssignment } = await import('../../web/src/split.ts');
  const jake = { id: 'i8-0', plane: 'jake' as const, island: 8, equal: 3, skill: 2 };
  const kate = { id: 'i8-1', plane: 'kate' as const, island: 8, equal: 2, skill: 1 };
  it('offers every maximal set of targets the dice can take, the best first', () => {
    const options = splitOptions([3, 3, 3, 3, 2], [jake, kate], ['i8-0']);
    expect(options.map((o) => [o.ids, o.skill, o.best])).toEqual([
      [['i8-0'], 2, true],
      [['i8-1'], 1, false],
    ]);
    expect(options[0]!.taken).toEqual([{ target: jake, face: 3 }]);
  });
  it('takes both when separate groups can', () => {
    const options = splitOptions([3, 3, 3, 5, 5], [jake, kate], ['i8-0', 'i8-1']);
    expect(options).toHaveLength(1);
    expect(options[0]!.taken.map((x) => [x.target.id, x.face])).toEqual([['i8-0', 3], ['i8-1', 5]]);
    expect(options[0]!.skill).toBe(3);
  });
  it('one large group can take two targets; nothing takeable gives one empty option', () => {
    expect(checkAssignment([4, 4, 4, 4, 4], [jake, kate])).not.toBeNull();
    expect(checkAssignment([4, 4, 4, 4, 2], [jake, kate])).toBeNull();
    expect(splitOptions([1, 2, 3, 4], [jake, kate], [])).toEqual([{ ids: [], taken: [], skill: 0, best: true }]);
  });
});

describe('what happened, in words', async () => {
  const { describeEvent } = await import('../../web/src/events.ts');
  it('describes the events players read and skips the rest, in both languages', () => {
    setLang('en', null);
    expect(describeEvent({ type: 'yorktownHit', hits: 1, total: 2, how: 'pair' }, rules)).toBe('Yorktown hit: 2/3');
    expect(describeEvent({ type: 'japanesePlaced', plane: 'kate', island: 4, overflowFrom: 3 }, rules)).toBe('Kate placed on island 4 (island 3 was full)');
    expect(describeEvent({ type: 'cardDrawn', card: { id: 'physical', islands: [3], plane: 'kate', event: 'none', directHit: false } }, rules)).toBe('Japanese card: islands 3, Kate');
    expect(describeEvent({ type: 'rollReading', faces: [1] }, rules)).toBeNull();
    expect(describeEvent({ type: 'skillGained', plane: 3, points: 1, skill: 9, reason: 'search', skillCard: 'back' }, rules)).toBe('Plane 3: +1 skill (9) · turn its skill card over');
    expect(describeEvent({ type: 'planeCrashed', plane: 3, why: 'fuel', skillLost: 3, cockpit: 'B', skillCard: 'front' }, rules)).toBe('Plane 3 crashes: −3 skill, back on the deck with cockpit B · turn its skill card back to the front');
    // the pilot injured (the injury capped at the skill the pilot had), or unharmed
    expect(describeEvent({ type: 'planeCrashed', plane: 3, why: 'fuel', injury: 3, skillLost: 3, cockpit: 'B' }, rules)).toBe('Plane 3 crashes: pilot injured, −3 skill, back on the deck with cockpit B');
    expect(describeEvent({ type: 'planeCrashed', plane: 3, why: 'fuel', injury: 3, skillLost: 1, cockpit: 'B' }, rules)).toBe('Plane 3 crashes: pilot injured, −1 skill (all it had), back on the deck with cockpit B');
    expect(describeEvent({ type: 'planeCrashed', plane: 3, why: 'fuel', injury: 3, skillLost: 0, cockpit: 'B' }, rules)).toBe('Plane 3 crashes: pilot injured (no skill left to lose), back on the deck with cockpit B');
    expect(describeEvent({ type: 'planeCrashed', plane: 3, why: 'landing', injury: 0, skillLost: 0, cockpit: 'B' }, rules)).toBe('Plane 3 crashes (pilot unharmed): back on the deck with cockpit B');
    expect(describeEvent({ type: 'attackMissed', plane: 3, purpose: 'attack', faces: [2, 5, 6] }, rules)).toBe('Plane 3 attacks and misses (2 5 6)');
    expect(describeEvent({ type: 'searchRaised', plane: 3, raised: 1, search: 2, reason: 'good visibility' }, rules)).toBe('Good visibility: the search +1 (now 2)');
    expect(describeEvent({ type: 'searchRaised', plane: 3, raised: 1, search: 3, reason: 'Hawk Eye' }, rules)).toBe('Plane 3, Hawk Eye: the search +1 (now 3)');
    expect(describeEvent({ type: 'shohoMovesIgnored', why: 'the search token is at 0' }, rules)).toBe('The Shōhō changes position: ignored, the search is at 0');
    expect(describeEvent({ type: 'capIgnored', why: 'no Japanese plane is placed after a Direct Hit' }, rules)).toBe('The card\'s CAP event places no Zeke');
    expect(describeEvent({ type: 'rollCutOff', purpose: 'attack', plane: 2, faces: [4, 4, 4, 2] }, rules)).toBe('Time ran out during the roll (Attack): its dice were never confirmed');
    setLang('es', null);
    expect(describeEvent({ type: 'skillGained', plane: 3, points: 1, skill: 9, reason: 'search', skillCard: 'back' }, rules)).toBe('Avión 3: +1 de habilidad (9) · voltea su carta de habilidad');
    expect(describeEvent({ type: 'moved', plane: 2, to: { at: 'island', island: 5 }, fuel: 9 }, rules)).toBe('El avión 2 vuela a la isla 5 (combustible 9)');
    setLang('en', null);
  });
});

describe('refusals in the chosen language', async () => {
  const { refusalText } = await import('../../web/src/refusals.ts');
  it('keeps the engine words in English, leads with Spanish for a known code', () => {
    const error = { code: 'notJoined', message: 'No white line joins island 8 to island 3.' };
    setLang('en', null);
    expect(refusalText(error)).toEqual({ text: 'Not allowed: No white line joins island 8 to island 3.', detail: null });
    setLang('es', null);
    expect(refusalText(error)).toEqual({ text: 'No permitido: ninguna línea blanca une esas casillas.', detail: error.message });
    expect(refusalText({ code: 'somethingNew', message: 'x' }).text).toBe('No permitido: x');
    setLang('en', null);
  });

  it('says the whole refusal in Spanish from its params, with no English under it', () => {
    const error = { code: 'notJoined', message: 'No white line joins island 8 to island 3.', params: { at: 'island', island: 8, to: 3 } };
    setLang('en', null);
    // English keeps the engine's own words
    expect(refusalText(error)).toEqual({ text: 'Not allowed: No white line joins island 8 to island 3.', detail: null });
    setLang('es', null);
    try {
      expect(refusalText(error)).toEqual({ text: 'No permitido: ninguna línea blanca une la isla 8 con la isla 3.', detail: null });
      expect(refusalText({ ...error, params: { at: 'approach', to: 5 } }).text).toBe('No permitido: ninguna línea blanca une la zona de aproximación con la isla 5.');
      expect(refusalText({ code: 'alreadyActed', message: 'Plane 3 has already taken its action this turn.', params: { plane: 3 } }).text)
        .toBe('No permitido: el avión 3 ya ha hecho su acción este turno.');
      expect(refusalText({ code: 'wrongAction', message: '…', params: { plane: 2, chose: 'search', tried: 'move' } }).text)
        .toBe('No permitido: el avión 2 eligió «Buscar»: no puede moverse este turno.');
      expect(refusalText({ code: 'notInApproach', message: '…', params: { plane: 1, at: 'deck' } }).text)
        .toBe('No permitido: el avión 1 está en la cubierta del Yorktown: se aterriza desde la zona de aproximación.');
      expect(refusalText({ code: 'actionsNotChosen', message: '…', params: { planes: '2' } }).text)
        .toBe('No permitido: todos los aviones eligen su acción antes de que ninguno actúe: falta la del avión 2.');
      expect(refusalText({ code: 'actionsNotChosen', message: '…', params: { planes: '1, 2, 4' } }).text)
        .toBe('No permitido: todos los aviones eligen su acción antes de que ninguno actúe: faltan las de los aviones 1, 2 y 4.');
      const fuel = { code: 'notEnoughFuel', message: 'Plane 2 has only 1 fuel point: a two-island move costs 3. Skipping its action costs 1 fuel point.' };
      expect(refusalText({ ...fuel, params: { plane: 2, fuel: 1, cost: 3, for: 'twoIslandMove', skipFuel: 1 } }))
        .toEqual({ text: 'No permitido: el avión 2 solo tiene 1 de combustible: un movimiento de dos islas cuesta 3. Saltar su acción cuesta 1 de combustible.', detail: null });
      expect(refusalText({ ...fuel, params: { plane: 2, fuel: 0, cost: 1, for: 'takeOff', to: 7, skipFuel: 1 } }).text)
        .toBe('No permitido: el avión 2 solo tiene 0 de combustible: despegar hacia la isla 7 cuesta 1. Saltar su acción lo estrella: no le queda combustible para seguir en el aire.');
      expect(refusalText({ code: 'gameOver', message: '…', params: { result: 'lost', cause: 'time' } }).text)
        .toBe('No permitido: la partida ha terminado (derrota: se agotó el tiempo): empieza una nueva.');
      // the dealt tile stays secret: named by its plane
      expect(refusalText({ code: 'manoeuvreNotHere', message: "Plane 3's tile cannot be used to attack.", params: { plane: 3, for: 'attack' } }).text)
        .toBe('No permitido: la ficha del avión 3 no sirve para atacar.');
      // a code the page had no Spanish for, worded from its params
      expect(refusalText({ code: 'noSuchIsland', message: 'There is no island 42 on the board.', params: { island: 42 } }))
        .toEqual({ text: 'No permitido: no hay ninguna isla 42 en el tablero.', detail: null });
    } finally {
      setLang('en', null);
    }
  });

  it('keeps the params of a refusal the service sent over HTTP', async () => {
    const { refusalOf } = await import('../../web/src/client.ts');
    const res = { status: 409, statusText: 'Conflict' };
    expect(refusalOf(res, { error: { code: 'alreadyActed', message: 'Plane 3 …', params: { plane: 3 } } })).toEqual({ code: 'alreadyActed', message: 'Plane 3 …', params: { plane: 3 } });
    expect(refusalOf(res, { error: { code: 'noGame', message: 'No game.' } })).toEqual({ code: 'noGame', message: 'No game.' });
    expect(refusalOf(res, null)).toEqual({ code: 'http409', message: '409 Conflict' });
  });

  it('falls back to the generic Spanish sentence and the English words when the params are absent or lack what it needs', () => {
    setLang('es', null);
    try {
      const old = { code: 'alreadyActed', message: 'Plane 3 has already taken its action this turn.' };
      expect(refusalText(old)).toEqual({ text: 'No permitido: este avión ya ha hecho su acción este turno.', detail: old.message });
      expect(refusalText({ ...old, params: {} })).toEqual({ text: 'No permitido: este avión ya ha hecho su acción este turno.', detail: old.message });
      // a position the page does not know
      const joined = { code: 'notJoined', message: 'No white line joins somewhere to island 3.', params: { at: 'somewhere', to: 3 } };
      expect(refusalText(joined)).toEqual({ text: 'No permitido: ninguna línea blanca une esas casillas.', detail: joined.message });
      // a code with no Spanish at all: the engine's words alone
      expect(refusalText({ code: 'badSeating', message: 'Player 3 has no plane.', params: { seat: 3 } })).toEqual({ text: 'No permitido: Player 3 has no plane.', detail: null });
    } finally {
      setLang('en', null);
    }
  });
});

describe('dice the camera is not sure of', () => {
  const update = (settled: boolean, dice: { face: number | null; pending?: true }[]) => ({
    tableId: 'default', at: 0, width: 640, height: 480, settled, frameUrl: '/f.jpg',
    dice: dice.map((d, i) => ({ x: 40 * i + 20, y: 20, w: 30, h: 30, score: 0.9, ...d })),
  });
  it('counts the settled dice it decided it cannot read, not those it is still reading, nor while they move', () => {
    expect(unsureDice(update(true, [{ face: 3 }, { face: null }, { face: null, pending: true }, { face: null }]))).toBe(2);
    expect(unsureDice(update(false, [{ face: null }]))).toBe(0);
    expect(unsureDice(update(true, [{ face: 6 }]))).toBe(0);
    expect(unsureDice(null)).toBe(0);
  });

  it('labels a die where the frame does not cut the label', () => {
    const die = (x: number, y: number, face: number | null) => ({ x, y, w: 40, h: 40, face });
    // above the die; below it by the top edge
    expect(dieLabelPlace(die(320, 240, 4), 640)).toEqual({ x: 320, y: 212, 'text-anchor': 'middle' });
    expect(dieLabelPlace(die(320, 30, 4), 640)).toEqual({ x: 320, y: 78, 'text-anchor': 'middle' });
    // "? cocked or covered" runs from the die's outer side by a side edge; a face stays centred
    expect(dieLabelPlace(die(30, 240, null), 640)).toEqual({ x: 10, y: 212, 'text-anchor': 'start' });
    expect(dieLabelPlace(die(15, 240, null), 640)).toEqual({ x: 2, y: 212, 'text-anchor': 'start' });
    expect(dieLabelPlace(die(620, 240, null), 640)).toEqual({ x: 638, y: 212, 'text-anchor': 'end' });
    expect(dieLabelPlace(die(1800, 240, null), 1920)).toEqual({ x: 1820, y: 212, 'text-anchor': 'end' });
    expect(dieLabelPlace(die(30, 240, 6), 640)).toEqual({ x: 30, y: 212, 'text-anchor': 'middle' });
    expect(dieLabelPlace(die(320, 240, null), 640)).toEqual({ x: 320, y: 212, 'text-anchor': 'middle' });
  });
});

describe('drawing the tray on the camera image', () => {
  it('takes a drag as the rectangle between its ends, in the image, and refuses one too small', () => {
    expect(dragRect({ x: 0.6, y: 0.8 }, { x: 0.1, y: 0.1 })).toEqual({ x: 0.1, y: 0.1, w: 0.5, h: 0.7 });
    expect(dragRect({ x: -0.2, y: 0.5 }, { x: 0.4, y: 1.3 })).toEqual({ x: 0, y: 0.5, w: 0.4, h: 0.5 });
    expect(dragRect({ x: 0.3, y: 0.3 }, { x: 0.31, y: 0.6 })).toBeNull();
  });

  it('puts four tapped corners in order around the area, whatever order they were tapped in', () => {
    const tl = { x: 0.1, y: 0.12 }, tr = { x: 0.8, y: 0.1 }, br = { x: 0.75, y: 0.9 }, bl = { x: 0.15, y: 0.85 };
    const quad = cornersQuad([tl, br, tr, bl])!.quad;
    // going around: each corner's neighbours are the two next to it on the tray, never the opposite one
    const at = (c: { x: number; y: number }) => quad.findIndex(([x, y]) => x === c.x && y === c.y);
    expect(Math.abs(at(tl) - at(br))).toBe(2);
    expect(Math.abs(at(tr) - at(bl))).toBe(2);
    expect(cornersQuad([tl, tr, br])).toBeNull();
    expect(cornersQuad([tl, { x: 0.11, y: 0.12 }, { x: 0.11, y: 0.13 }, { x: 0.1, y: 0.13 }])).toBeNull();
  });

  it('measures an area across its narrower way in pixels of the frame', () => {
    expect(areaNarrowestPx({ x: 0.1, y: 0.2, w: 0.5, h: 0.25 }, 640, 480)).toBeCloseTo(120, 9);
    expect(areaNarrowestPx({ x: 0.1, y: 0.2, w: 0.05, h: 0.5 }, 640, 480)).toBeCloseTo(32, 9);
    // a quad: its opposite sides averaged (a trapezium 100 and 200 px wide, 90 px tall: its slanted sides are the narrower way)
    const trapezium = areaNarrowestPx({ quad: [[0.25, 0.1], [0.40625, 0.1], [0.5, 0.1 + 90 / 480], [0.1875, 0.1 + 90 / 480]] }, 640, 480);
    expect(trapezium).toBeCloseTo((Math.hypot(40, 90) + Math.hypot(60, 90)) / 2, 6);
    expect(areaNarrowestPx({ quad: [[0, 0], [0.5, 0], [0.5, 0.5], [0, 0.5]] }, 640, 480)).toBeCloseTo(240, 9);
  });

  it('moves one corner of a rectangle, its opposite corner staying put, and refuses one too small', () => {
    const tray = { x: 0.1, y: 0.2, w: 0.5, h: 0.6 };
    // corners from the top left, clockwise: the bottom right (2) moved in, the top left fixed
    expect(moveCorner(tray, 2, { x: 0.4, y: 0.5 })).toEqual({ x: 0.1, y: 0.2, w: 0.3, h: 0.3 });
    // the top right (1) moved up and out: the bottom left (0.1, 0.8) fixed
    expect(moveCorner(tray, 1, { x: 0.7, y: 0.05 })).toEqual({ x: 0.1, y: 0.05, w: 0.6, h: 0.75 });
    // dragged past the image's edge: held at the edge
    expect(moveCorner(tray, 0, { x: -0.3, y: -0.1 })).toEqual({ x: 0, y: 0, w: 0.6, h: 0.8 });
    expect(moveCorner(tray, 2, { x: 0.105, y: 0.7 })).toBeNull();
    expect(moveCorner(tray, 4, { x: 0.5, y: 0.5 })).toBeNull();
  });

  it('moves one corner of a quad, the others staying put, and refuses a move that crosses its edges', () => {
    const tray = { quad: [[0.1, 0.1], [0.8, 0.12], [0.75, 0.9], [0.15, 0.85]] as [number, number][] };
    expect(moveCorner(tray, 2, { x: 0.7, y: 0.95 })).toEqual({ quad: [[0.1, 0.1], [0.8, 0.12], [0.7, 0.95], [0.15, 0.85]] });
    // the bottom right dragged beyond the top edge: the edges would cross
    expect(moveCorner(tray, 2, { x: 0.5, y: 0.02 })).toBeNull();
  });

  it('starts an area to adjust from the keyboard: the tray most of the image, the kept zone the tray\'s right fifth', () => {
    expect(startingArea('tray', null)).toEqual({ x: 0.1, y: 0.1, w: 0.8, h: 0.8 });
    expect(startingArea('keptZone', { x: 0.2, y: 0.1, w: 0.5, h: 0.6 })).toEqual({ x: 0.6, y: 0.1, w: 0.1, h: 0.6 });
    // a quad tray: the right fifth of its bounds
    expect(startingArea('keptZone', { quad: [[0.1, 0.1], [0.8, 0.12], [0.75, 0.9], [0.15, 0.85]] })).toEqual({ x: 0.66, y: 0.1, w: 0.14, h: 0.8 });
    expect(startingArea('keptZone', null)).toEqual({ x: 0.77, y: 0.1, w: 0.18, h: 0.8 });
    // a tray along the image's edges, or a sliver: still an area the service takes
    for (const tray of [{ x: 0, y: 0, w: 1, h: 1 }, { x: 0.98, y: 0.98, w: 0.02, h: 0.02 }, { x: 0.3333, y: 0.6667, w: 0.6667, h: 0.3333 }]) {
      const kept = startingArea('keptZone', tray);
      expect(() => parseArea(kept, 'keptZone')).not.toThrow();
      expect(kept.x + kept.w).toBeLessThanOrEqual(tray.x + tray.w + 1e-9);
    }
  });

  it('finds the corner under a finger, the nearest within reach on screen', () => {
    const areas = [
      { zone: 'tray', area: { x: 0.1, y: 0.1, w: 0.5, h: 0.5 } },
      { zone: 'kept', area: { x: 0.62, y: 0.1, w: 0.3, h: 0.5 } },
    ];
    const shown = { width: 1000, height: 500 };
    // 20 px right of the tray's top right (0.6, 0.1), 0 px from the kept zone's top left (0.62, 0.1)
    expect(nearestCorner(areas, { x: 0.62, y: 0.1 }, shown, 28)).toEqual({ zone: 'kept', index: 0 });
    expect(nearestCorner(areas, { x: 0.605, y: 0.1 }, shown, 28)).toEqual({ zone: 'tray', index: 1 });
    expect(nearestCorner(areas, { x: 0.1, y: 0.6 + 20 / 500 }, shown, 28)).toEqual({ zone: 'tray', index: 3 });
    expect(nearestCorner(areas, { x: 0.35, y: 0.35 }, shown, 28)).toBeNull();
  });
});

describe('attack targets in words', () => {
  it('tells two Japanese planes of one kind on one island apart, and leaves a lone one unnumbered', () => {
    setLang('en', null);
    const target = (id: string, plane: 'jake' | 'kate' | 'zeke', island: number | null) => ({ id, plane, island, equal: 3, skill: 1 });
    const roll = { targets: [target('i2-0', 'jake', 2), target('i2-1', 'jake', 2), target('i2-2', 'zeke', 2), target('cap-0', 'zeke', null)] } as unknown as Parameters<typeof targetLabel>[0];
    expect(['i2-0', 'i2-1', 'i2-2', 'cap-0'].map((id) => targetLabel(roll, id))).toEqual(['Jake 1 (Island 2)', 'Jake 2 (Island 2)', 'Zeke (Island 2)', 'Zeke (CAP)']);
  });
});

describe("the next step's line with a button box plugged in", () => {
  const appWith = (state: unknown, serial: { kind: string; state: string }) =>
    ({ state, snap: { state, hardware: { serial } }, view: 'table', seat: null }) as unknown as import('../../web/src/app.ts').App;

  it("names the box's buttons for the step when a real box is working, and not otherwise", async () => {
    const { scenario } = await import('../games/yorktown-helpers.ts');
    const { nextStep } = await import('../../web/src/views/status.ts');
    setLang('en', null);
    const choosing = scenario({});
    expect(choosing.phase).toBe('planes');
    const plain = nextStep(appWith(choosing, { kind: 'simulated', state: 'ok' }))!;
    expect(plain).toMatch(/^Choose an action for every plane/);
    expect(nextStep(appWith(choosing, { kind: 'real', state: 'ok' }))).toBe(`${plain} Box: a plane's button, then its action's.`);
    // a box being retried is not offered
    expect(nextStep(appWith(choosing, { kind: 'real', state: 'retrying' }))).toBe(plain);
    expect(nextStep(appWith({ ...choosing, phase: 'japanese' }, { kind: 'real', state: 'ok' }))).toBe('Japanese phase: draw the Japanese card. Box: Confirm draws it.');
  });

  it('says how the box starts a game when none runs, only with a real box working', async () => {
    const { boxPlugged } = await import('../../web/src/views/status.ts');
    expect(boxPlugged(appWith(null, { kind: 'real', state: 'ok' }))).toBe(true);
    expect(boxPlugged(appWith(null, { kind: 'real', state: 'retrying' }))).toBe(false);
    expect(boxPlugged(appWith(null, { kind: 'virtual', state: 'ok' }))).toBe(false);
    setLang('es', null);
    expect(t('noGameBox')).toBe('Caja: mantén Confirmar para empezar una partida (como la última, si la hay).');
    setLang('en', null);
  });
});

describe('how long a toast stays', () => {
  it('stays its kind\'s least for a few words, longer for more (read from across the table), and never too long', () => {
    expect(toastMs('Roll confirmed', null, 'ok')).toBe(2500);
    expect(toastMs('Wrong PIN.', null, 'error')).toBe(8000);
    const note = 'Button box: plane 3 takes off to the approach area (a load or a red island: choose it on the dashboard)';
    expect(toastMs(note, null, 'ok')).toBeGreaterThanOrEqual(note.length * 60);
    expect(toastMs('a', 'b'.repeat(200), 'ok')).toBeGreaterThan(toastMs('a', null, 'ok'));
    expect(toastMs('x'.repeat(2000), null, 'alert')).toBe(15_000);
  });
});
