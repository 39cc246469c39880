/** The button box's notes on the table screen (`web/src/box-news.ts`): once each, in the page's words. */
import { afterEach, describe, expect, it } from 'vitest';
import type { BoxNote } from '../../server/http/protocol.ts';
import { NOTE_KEYS } from '../../server/hardware/serial/controls.ts';
import { boxNoteToTell, boxNoteWords } from '../../web/src/box-news.ts';
import { dictionaries, setLang } from '../../web/src/i18n.ts';

const note = (over: Partial<BoxNote> = {}): BoxNote => ({ seq: 3, at: 0, refused: true, text: 'no game is running: hold Confirm to start one, or set one up on the dashboard', key: 'noGame', params: {}, ...over });

describe('the box notes a page tells', () => {
  afterEach(() => setLang('en', null));

  it('tells a note once: not the one found at the first push (a reload), not again on another push', () => {
    expect(boxNoteToTell(note(), undefined)).toBeNull();
    expect(boxNoteToTell(note(), 3)).toBeNull();
    expect(boxNoteToTell(note(), 2)).toEqual(note());
    expect(boxNoteToTell(note(), null)).toEqual(note());
    expect(boxNoteToTell(null, 2)).toBeNull();
    // the service restarted: its notes count from 1 again
    expect(boxNoteToTell(note({ seq: 1 }), 7)).toEqual(note({ seq: 1 }));
  });

  it('words a note in the page\'s language, with its parameters', () => {
    expect(boxNoteWords(note())).toEqual({ text: 'Button box: no game is running: hold Confirm to start one, or set one up on the dashboard', detail: null });
    const attack = note({ refused: false, key: 'attacks', params: { plane: 2, target: 'cap' }, text: 'plane 2 attacks the CAP' });
    expect(boxNoteWords(attack).text).toBe('Button box: plane 2: Attack the CAP');
    const last = note({ refused: false, key: 'newGameLast', params: { players: 3, deck: 'physical', difficulty: 35, expansions: 'dropTank, weather' } });
    expect(boxNoteWords(last).text).toBe('Button box: a new game like the last one: players: 3 · physical deck · 35 minutes · Drop tank, Weather events');
    setLang('es', null);
    expect(boxNoteWords(note()).text).toBe('Caja de botones: no hay ninguna partida: mantén Confirmar para empezar una, o prepárala en el panel');
    expect(boxNoteWords(note({ key: 'landFromApproach', params: { plane: 4 } })).text).toBe('Caja de botones: avión 4: se aterriza desde la zona de aproximación: muévelo allí primero');
    expect(boxNoteWords(note({ key: 'chooses', refused: false, params: { plane: 1, action: 'search' } })).text).toBe('Caja de botones: el avión 1 elige Buscar');
  });

  it('says one plane and several planes each in their own words (plurals, and Spanish verbs that agree)', () => {
    const crash = (planes: string) => boxNoteWords(note({ key: 'endTurnCrashesHoldAgain', params: { planes } })).text;
    const waiting = (planes: string) => boxNoteWords(note({ key: 'stillToAct', params: { planes } })).text;
    expect(crash('3')).toBe('Button box: plane 3 would crash for want of fuel (hold Confirm again to end the turn anyway)');
    expect(crash('3, 4')).toBe('Button box: planes 3, 4 would crash for want of fuel (hold Confirm again to end the turn anyway)');
    expect(waiting('1, 2, 4')).toMatch(/^Button box: still to act: planes 1, 2, 4 /);
    setLang('es', null);
    expect(crash('3')).toMatch(/^Caja de botones: el avión 3 se estrellaría sin/);
    expect(crash('3, 4')).toMatch(/^Caja de botones: los aviones 3, 4 se estrellarían sin/);
    expect(waiting('2')).toMatch(/^Caja de botones: falta por actuar: avión 2 /);
    expect(waiting('2, 3')).toMatch(/^Caja de botones: faltan por actuar: aviones 2, 3 /);
  });

  it('shows the engine\'s refusal of a command a press sent as every refusal is shown, and the service\'s words for a note it has none for', () => {
    const rejection = { code: 'notOrange', message: 'Plane 2 is on island 5 (red): searching for the Shōhō needs an orange island.' };
    const refused = note({ key: null, text: rejection.message, rejection });
    expect(boxNoteWords(refused)).toEqual({ text: `Button box: Not allowed: ${rejection.message}`, detail: null });
    setLang('es', null);
    expect(boxNoteWords(refused)).toEqual({ text: 'Caja de botones: No permitido: hace falta estar en una isla naranja.', detail: rejection.message });
    expect(boxNoteWords(note({ key: 'aNoteFromANewerService', text: 'something new' })).text).toBe('Caja de botones: something new');
    // a refusal with its params: wholly in Spanish
    const withParams = note({ key: null, text: rejection.message, rejection: { ...rejection, params: { plane: 2, at: 'island', island: 5, colour: 'red' } } });
    expect(boxNoteWords(withParams)).toEqual({ text: 'Caja de botones: No permitido: el avión 2 está en la isla 5 (roja): para buscar el Shōhō hace falta una isla naranja.', detail: null });
  });

  it('has words for every note of the box, in English and Spanish, with the same parameters', () => {
    expect(NOTE_KEYS.length).toBeGreaterThan(25);
    for (const key of [...NOTE_KEYS, 'visitorGame', 'endTurnCrashesHoldAgain_many', 'stillToAct_many']) {
      const en = dictionaries.en[`boxNote_${key}` as keyof typeof dictionaries.en];
      const es = dictionaries.es[`boxNote_${key}` as keyof typeof dictionaries.es];
      expect(en, key).toBeTypeOf('string');
      expect(es, key).toBeTypeOf('string');
      const params = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(params(es), key).toEqual(params(en));
    }
  });
});
