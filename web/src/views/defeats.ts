/** The finished games lost, by the cause of the defeat, in the words of the end screen (the statistics of the demo station and of the Statistics page). */
import { h } from '../dom.ts';
import { t, tk } from '../i18n.ts';

/** the cause of a won game: not a defeat */
const WIN_CAUSE = 'shohoSunk';

/** The list, or null when no game was lost. */
export function defeatsView(causes: Record<string, number>): HTMLElement | null {
  const defeats = Object.entries(causes).filter(([cause]) => cause !== WIN_CAUSE);
  if (!defeats.length) return null;
  return h('div', { class: 'defeats' }, h('h3', null, t('defeatsBy')),
    h('ul', null, defeats.map(([cause, n]) => h('li', { 'data-testid': `defeats-${cause}` }, `${tk(`cause_${cause}`).replace(/\.$/, '')}: `, h('strong', null, n)))));
}
