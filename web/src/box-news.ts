/**
 * What the button box's last press did, told on the table screen and the phones: the snapshot's
 * `box.note` (server/table/box-link.ts) in the page's words, once per note. Pure: the words and the
 * once-only rule; `App.tellBoxNote` shows them.
 */
import type { BoxNote } from '../../server/http/protocol.ts';
import { hasKey, t, tk } from './i18n.ts';
import { refusalText } from './refusals.ts';

/** Parameters of a note that are ids the page has words for. */
function paramWords(params: Record<string, string | number>): Record<string, string | number> {
  const words: Record<string, string | number> = { ...params };
  if (typeof params.action === 'string') words.action = tk(`act_${params.action}`);
  if (typeof params.target === 'string') words.target = tk(`attack_${params.target}`);
  if (typeof params.targets === 'string') words.targets = params.targets.split(', ').map((x) => tk(`attack_${x}`)).join(' · ');
  if (params.to !== undefined) words.to = params.to === 'approach' ? t('approach') : t('island', { n: params.to });
  words.over = params.via === undefined ? '' : ` ${t('viaIslands', { via: t('island', { n: params.via }) })}`;
  if (typeof params.reason === 'string') words.reason = tk(`futile${params.reason.charAt(0).toUpperCase()}${params.reason.slice(1)}`);
  if (typeof params.load === 'string') words.load = tk(`load_${params.load}`);
  if (typeof params.deck === 'string') words.deck = tk(`boxNoteDeck_${params.deck}`);
  if (typeof params.expansions === 'string') words.expansions = params.expansions ? ` · ${params.expansions.split(', ').map((x) => tk(`exp_${x}`)).join(', ')}` : '';
  if (params.difficulty === '') words.difficulty = '';
  else if (params.difficulty !== undefined) words.difficulty = ` · ${t('boxNoteMinutes', { n: params.difficulty })}`;
  return words;
}

/** The note in the page's words: the engine's refusal as every refusal is shown, else the note's key; the service's English when the page has no words for it. */
export function boxNoteWords(note: BoxNote): { text: string; detail: string | null } {
  const lead = t('boxNoteLead');
  if (note.rejection) {
    const { text, detail } = refusalText(note.rejection);
    return { text: `${lead} ${text}`, detail };
  }
  return { text: `${lead} ${noteKeyWords(note.key, note.params, note.text)}`, detail: null };
}

/** A box note's key in the page's words, or the service's English (`text`) when the page has none. */
export function noteKeyWords(key: string | null, params: Record<string, string | number>, text: string): string {
  // a note about several planes has words of its own (`_many`: plurals, and Spanish verbs agree)
  const many = typeof params.planes === 'string' && params.planes.includes(',');
  const wordsKey = key === null ? null : `boxNote_${key}${many && hasKey(`boxNote_${key}_many`) ? '_many' : ''}`;
  const words = wordsKey === null ? null : tk(wordsKey, paramWords(params));
  return words === null || words === wordsKey ? text : words;
}

/**
 * Which note to tell now: a note not told before on this page (null: none). `seen` is the seq of the
 * last note this page saw, `undefined` before its first push: the note a page finds when it opens (or
 * reloads) is what was, not news.
 */
export function boxNoteToTell(note: BoxNote | null | undefined, seen: number | null | undefined): BoxNote | null {
  if (!note || seen === undefined || note.seq === seen) return null;
  return note;
}
