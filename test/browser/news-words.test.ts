/** The words of the toasts a push brings (`web/src/news.ts`): an Undo named with its plane and seat, and the alerts. */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRules } from '../../server/games/yorktown1942/ruleset.ts';
import { setLang } from '../../web/src/i18n.ts';
import { alertNews, undoneList, undoneNews, undoneWords } from '../../web/src/news.ts';
import { dictionaries } from '../../web/src/i18n.ts';

const rules = resolveRules();
const seats: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 2 };
const seatOf = (plane: number) => seats[plane] ?? null;

describe('what an Undo took back, in words', () => {
  afterEach(() => setLang('en', null));

  it("names a plane's command with its plane and seat, and the rest as before", () => {
    expect(undoneWords({ type: 'confirmRoll', piece: 2 }, seatOf)).toBe("plane 2's confirmed roll (seat 1)");
    expect(undoneWords({ type: 'confirmRoll', piece: null }, seatOf)).toBe('a roll confirmed');
    expect(undoneWords({ type: 'endTurn' }, seatOf)).toBe('the end of the turn');
    expect(undoneWords({ type: 'move', piece: 9 }, seatOf)).toBe("plane 9's move");
    expect(undoneList([{ type: 'confirmRoll', piece: 3 }, { type: 'dice', piece: 3 }], seatOf)).toBe("plane 3's confirmed roll (seat 2), a reading of plane 3's dice (seat 2)");
  });

  it('tells the other pages which seat undid it, else just what was undone', () => {
    const event = { type: 'undone', count: 1, commands: [{ seq: 9, type: 'confirmRoll', piece: 2 }], seat: 2 };
    expect(undoneNews(event, seatOf)).toBe("Seat 2 undid plane 2's confirmed roll (seat 1).");
    const { seat: _seat, ...fromTheTable } = event;
    expect(undoneNews(fromTheTable, seatOf)).toBe("Undone: plane 2's confirmed roll (seat 1).");
    expect(undoneNews({ type: 'undone', commands: [] }, seatOf)).toBeNull();
    setLang('es', null);
    expect(undoneNews(event, seatOf)).toBe('El jugador 2 ha deshecho la tirada confirmada del avión 2 (jugador 1).');
    expect(undoneNews(fromTheTable, seatOf)).toBe('Deshecho: la tirada confirmada del avión 2 (jugador 1).');
  });

  it('has the words of every plane command in English and Spanish', () => {
    const keys = Object.keys(dictionaries.en).filter((k) => k.startsWith('undoPlane_'));
    expect(keys.length).toBeGreaterThan(10);
    for (const k of keys) expect(dictionaries.es[k as keyof typeof dictionaries.es]).toMatch(/\{plane\}/);
  });
});

describe('the alerts every page shows', () => {
  afterEach(() => setLang('en', null));

  it('a crash and a hit on the Yorktown, in the words of "what happened"; nothing for other events', () => {
    expect(alertNews([{ type: 'planeCrashed', plane: 3, why: 'fuel', skillLost: 3, cockpit: 'B' }], rules)).toBe('Plane 3 crashes: −3 skill, back on the deck with cockpit B');
    expect(alertNews([{ type: 'planeDestroyed', plane: 2 }], rules)).toBe('Plane 2 is lost');
    expect(alertNews([{ type: 'yorktownHit', total: 2 }], rules)).toBe(`Yorktown hit: 2/${rules.yorktown.hitsToSink}`);
    expect(alertNews([{ type: 'cardDrawn' }, { type: 'undone', commands: [] }], rules)).toBeNull();
    setLang('es', null);
    expect(alertNews([{ type: 'planeCrashed', plane: 3, skillLost: 3 }], rules)).toBe('El avión 3 se estrella: −3 de habilidad, vuelve a la cubierta con la carlinga B');
  });
});
