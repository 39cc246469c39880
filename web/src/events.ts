/**
 * The game's events in the chosen language, for the "what happened" log: the Japanese card and
 * where its planes went, the attack on the Yorktown, moves, rolls' results, skill, crashes.
 * Events a player does not need to read (dice readings, action choices) give null.
 */
import type { GameEvent } from '../../server/games/game-module.ts';
import { destinationText } from './format.ts';
import { hitsText, t, tk, type Key } from './i18n.ts';
import type { Position } from '../../server/games/yorktown1942/types.ts';
import type { Rules } from '../../server/games/yorktown1942/ruleset.ts';

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));

/** The physical skill card turned as the skill crosses `skill.flipAfter`, in words after the event's. */
const skillCardText = (e: GameEvent): string =>
  e.skillCard === 'back' ? ` · ${t('ev_skillCardBack')}` : e.skillCard === 'front' ? ` · ${t('ev_skillCardFront')}` : '';

/** A crash's words: the pilot unharmed, or injured (the injury capped at the skill the pilot had). */
function crashKey(e: GameEvent): Key {
  if (typeof e.injury !== 'number') return 'ev_planeCrashed';
  if (e.injury === 0) return 'ev_planeCrashedUnharmed';
  const lost = num(e.skillLost);
  return lost === 0 ? 'ev_planeCrashedNoSkill' : lost < e.injury ? 'ev_planeCrashedAllSkill' : 'ev_planeCrashedInjured';
}

export function describeEvent(e: GameEvent, rules: Rules): string | null {
  const plane = num(e.plane);
  switch (e.type) {
    case 'gameStarted':
      return t('ev_gameStarted', { n: num(e.minutes) });
    case 'cardDrawn': {
      const card = e.card as { id: string; islands: number[]; plane: string; event: string; directHit: boolean };
      // a card entered by what it shows has no id of the deck's
      const id = rules.deck.some((c) => c.id === card.id) ? ` ${card.id}` : '';
      return t('ev_cardDrawn', { id, islands: card.islands.join(' + '), plane: tk(`jap_${card.plane}`) }) + (card.directHit ? ` · ${t('directHit')}` : '');
    }
    case 'japanesePlaced':
      return e.overflowFrom !== undefined
        ? t('ev_japanesePlacedOverflow', { plane: tk(`jap_${str(e.plane)}`), island: num(e.island), from: num(e.overflowFrom) })
        : t('ev_japanesePlaced', { plane: tk(`jap_${str(e.plane)}`), island: num(e.island) });
    case 'japaneseNotPlaced':
      return t('ev_japaneseNotPlaced', { plane: tk(`jap_${str(e.plane)}`) });
    case 'capAdded':
      return t('ev_capAdded', { n: num(e.cap), max: rules.cap.spaces });
    case 'capIgnored':
      return t('ev_capIgnored');
    case 'shohoMoved':
      return t('ev_shohoMoved', { n: num(e.search) });
    case 'shohoMovesIgnored':
      return t('ev_shohoMovesIgnored');
    case 'spotted':
      return t('ev_spotted');
    case 'yorktownAttacked':
      return t('ev_yorktownAttacked', { plane: tk(`jap_${str(e.plane)}`), hits: hitsText(num(e.hits)) }) + (e.attackerDestroyed ? ` · ${t('ev_attackerDown')}` : '');
    case 'yorktownHit':
      return t('ev_yorktownHit', { n: num(e.total), max: rules.yorktown.hitsToSink });
    case 'tookOff':
      return t('ev_tookOff', { plane, to: destinationText(e.to as Position), fuel: num(e.fuel) });
    case 'landed':
      return t('ev_landed', { plane, fuel: num(e.fuel) });
    case 'moved':
      return t('ev_moved', { plane, to: destinationText(e.to as Position), fuel: num(e.fuel) });
    case 'actionSkipped':
      return t('ev_skipped', { plane });
    case 'fuelSpent':
      return t('ev_fuelSpent', { plane, n: num(e.amount), fuel: num(e.fuel) });
    case 'fuelGained':
    case 'dropTankUsed':
      return t('ev_fuelGained', { plane, n: num(e.amount), fuel: num(e.fuel) });
    case 'japaneseDestroyed':
      return t(e.cap ? 'ev_japaneseDestroyedCap' : 'ev_japaneseDestroyed', { plane: num(e.by), what: tk(`jap_${str(e.plane)}`), island: num(e.island) });
    case 'skillGained':
      return t('ev_skillGained', { plane, n: num(e.points), skill: num(e.skill) }) + skillCardText(e);
    case 'searchSucceeded':
      return t('ev_searchSucceeded', { plane, n: num(e.raised), search: num(e.search) });
    case 'stopwatchStarted':
      return t('ev_stopwatchStarted', { n: num(e.minutes) });
    case 'attackMissed':
      return t('ev_attackMissed', { plane, faces: Array.isArray(e.faces) ? e.faces.join(' ') : '' });
    case 'searchRaised':
      return t(e.reason === 'Hawk Eye' ? 'ev_searchRaisedHawkEye' : 'ev_searchRaised', { plane, n: num(e.raised), search: num(e.search) });
    case 'searchFailed':
      return t('ev_searchFailed', { plane });
    case 'shohoLocated':
      return t('ev_shohoLocated');
    case 'shohoHit':
      return t('ev_shohoHit', { plane, n: num(e.total), max: rules.shoho.hitsToSink });
    case 'shohoMissed':
      return t('ev_shohoMissed', { plane });
    case 'weatherRevealed':
      return t('ev_weatherRevealed', { island: num(e.island), weather: tk(`weather_${str(e.weather)}`) });
    case 'weatherNotRevealed':
      return t('ev_weatherNotRevealed', { island: num(e.island) });
    case 'planeCrashed':
      return t(crashKey(e), { plane, n: num(e.skillLost) }) + skillCardText(e);
    case 'planeDestroyed':
      return t('ev_planeDestroyed', { plane });
    case 'manoeuvreUsed':
      return t('ev_manoeuvreUsed', { plane, manoeuvre: tk(`man_${str(e.manoeuvre)}`) });
    case 'loadReturned':
      return t('ev_loadReturned', { plane, load: tk(`load_${str(e.load)}`) });
    case 'phaseChanged':
      return e.phase === 'japanese' ? t('ev_turnStarts', { n: num(e.turn) }) : t('ev_playerPhase');
    case 'rollCutOff':
      return t('ev_rollCutOff', { what: tk(`purpose_${str(e.purpose)}`) });
    case 'gameOver':
      return e.result === 'won' ? t('won') : t('lost');
    default:
      return null;
  }
}
