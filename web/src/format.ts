/** Pure helpers for what the views show: time, positions, dice per skill, search levels. */
import type { Rules } from '../../server/games/yorktown1942/ruleset.ts';
import type { Position } from '../../server/games/yorktown1942/types.ts';
import { readModelName } from '../../server/vision/model-name.ts';
import { lang, t } from './i18n.ts';
import type { Snapshot } from './types.ts';

/** mm:ss (h:mm:ss past an hour); negative times show as 0:00 */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const ss = String(sec).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** 'ok' above 5 minutes, 'low' under 5, 'critical' in the last minute, 'over' at zero */
export function clockLevel(ms: number): 'ok' | 'low' | 'critical' | 'over' {
  if (ms <= 0) return 'over';
  if (ms <= 60_000) return 'critical';
  if (ms <= 5 * 60_000) return 'low';
  return 'ok';
}

export function positionText(p: Position): string {
  if (p.at === 'deck') return t('pos_deck');
  if (p.at === 'approach') return t('pos_approach');
  return t('pos_island', { n: p.island });
}

/** Where a plane goes, after "flies to" ("la isla 8" in Spanish). */
export function destinationText(p: Position): string {
  if (p.at === 'deck') return t('to_deck');
  if (p.at === 'approach') return t('to_approach');
  return t('to_island', { n: p.island });
}

export function skillDice(rules: Rules, skill: number): number {
  let dice = rules.skill.dice[0]?.dice ?? 0;
  for (const step of rules.skill.dice) if (skill >= step.from) dice = step.dice;
  return dice;
}

/** Extra dice against the Shōhō and its CAP at this search level. */
export function searchBonus(rules: Rules, level: number): number {
  let dice = 0;
  for (const step of rules.search.attackBonus) if (level >= step.from) dice = step.dice;
  return dice;
}

/** The levels that unlock something: located, then each attack bonus step. */
export function searchMilestones(rules: Rules): { located: number; bonuses: { from: number; dice: number }[] } {
  return { located: rules.search.locatedAt, bonuses: rules.search.attackBonus.filter((b) => b.dice > 0) };
}

export function durationText(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}′ ${String(s).padStart(2, '0')}″`;
}

function dateOf(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

const dateLocale = () => (lang() === 'es' ? 'es-ES' : 'en-GB');

/** A YYYY-MM-DD day as the language writes it, short: "Sat 7 Mar" ("sáb, 7 mar"), with its year when asked. */
export function dayText(day: string, withYear = false): string {
  return dateOf(day).toLocaleDateString(dateLocale(), { weekday: 'short', day: 'numeric', month: 'short', ...(withYear ? { year: 'numeric' } : {}) });
}

/** The same in two parts, the weekday ("Sat", "sáb") and the date ("7 Mar", "7 mar"), for a line that may break between them. */
export function dayParts(day: string, withYear = false): { weekday: string; date: string } {
  const date = dateOf(day);
  return {
    weekday: date.toLocaleDateString(dateLocale(), { weekday: 'short' }),
    date: date.toLocaleDateString(dateLocale(), { day: 'numeric', month: 'short', ...(withYear ? { year: 'numeric' } : {}) }),
  };
}

/** A number with this many decimals, written as the language writes them (12.5 in English, 12,5 in Spanish). */
export function decimalText(v: number, digits: number): string {
  return v.toLocaleString(lang() === 'es' ? 'es-ES' : 'en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
}

/** A share (0..1) as a percentage with one decimal: "98.4 %" ("98,4 %" in Spanish). */
export function shareText(share: number): string {
  return `${decimalText(share * 100, 1)} %`;
}

/** A dice model's name as the service writes it, said in the player's language. */
export function modelText(name: string): string {
  const m = readModelName(name);
  if (m.taughtPhotos === null) return m.version;
  return m.taughtOn ? t('modelTaughtOn', { version: m.version, n: m.taughtPhotos, day: m.taughtOn }) : t('modelTaught', { version: m.version, n: m.taughtPhotos });
}

/** The table's name: the service's own ("Table 1", no tables file) in the page's language, one the owner gave as given. */
export function tableName(snap: Pick<Snapshot, 'name' | 'defaultName'>): string {
  const n = snap.defaultName ? /^Table (\d+)$/.exec(snap.name)?.[1] : undefined;
  return n === undefined ? snap.name : t('defaultTableName', { n });
}
