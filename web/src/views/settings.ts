/**
 * Settings: every rule value the rulebook text did not fix (source "assumed"), with the reason,
 * and the owner's corrections. Corrections are checked with the engine's own ruleset code
 * before they are saved as the table's settings (used by the next newGame).
 */
import { defaultRuleset, listRuleValues, resolveRules, type RuleValueRow } from '../../../server/games/yorktown1942/ruleset.ts';
import type { App } from '../app.ts';
import { h } from '../dom.ts';
import { t, tk } from '../i18n.ts';

let overrides: Record<string, unknown> | null = null;
let loading = false;
let message: { text: string; kind: 'ok' | 'error'; path: string } | null = null;

function compact(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 200 ? JSON.stringify(value, null, 1) : text;
}

async function save(app: App, next: Record<string, unknown>, path: string): Promise<void> {
  try {
    resolveRules(next);
  } catch (err) {
    message = { text: (err as Error).message, kind: 'error', path };
    app.render(true);
    return;
  }
  const reply = await app.act(() => app.client.saveSettings({ ruleOverrides: next }));
  if (reply.ok) {
    overrides = next;
    message = { text: t('saved'), kind: 'ok', path };
  } else {
    message = { text: reply.error.message, kind: 'error', path };
  }
  app.render(true);
}

function row(app: App, r: RuleValueRow): HTMLElement {
  const current = overrides ?? {};
  const changed = Object.prototype.hasOwnProperty.call(current, r.path);
  const shown = changed ? current[r.path] : r.value;
  const big = JSON.stringify(r.value).length > 60;
  const input = big
    ? h('textarea', { name: r.path, rows: 4, spellcheck: 'false', 'aria-label': `${t('value')} ${r.path}` }, compact(shown))
    : h('input', { type: 'text', name: r.path, value: JSON.stringify(shown), spellcheck: 'false', 'aria-label': `${t('value')} ${r.path}` });
  const onSave = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse((input as HTMLInputElement | HTMLTextAreaElement).value);
    } catch {
      message = { text: t('invalidJson'), kind: 'error', path: r.path };
      app.render(true);
      return;
    }
    const next = { ...current };
    if (JSON.stringify(parsed) === JSON.stringify(r.value)) delete next[r.path];
    else next[r.path] = parsed;
    void save(app, next, r.path);
  };
  const onRevert = () => {
    const next = { ...current };
    delete next[r.path];
    void save(app, next, r.path);
  };
  return h('li', { class: `rule ${r.source}${changed ? ' changed' : ''}`, 'data-path': r.path },
    h('div', { class: 'rule-head' },
      h('code', { class: 'rule-path' }, r.path),
      h('span', { class: `source source-${r.source}` }, tk(`ruleSource_${r.source}`)),
    ),
    r.why ? h('p', { class: 'rule-why' }, h('strong', null, `${t('why')}: `), r.why) : null,
    r.quote ? h('p', { class: 'rule-quote' }, h('strong', null, `${t('quote')}: `), `“${r.quote}”`) : null,
    h('div', { class: 'rule-edit' }, input,
      h('button', { type: 'button', class: 'btn primary', onclick: onSave }, t('save')),
      changed ? h('button', { type: 'button', class: 'btn', onclick: onRevert }, t('revert')) : null),
    message && message.path === r.path ? h('p', { class: `rule-msg ${message.kind}`, role: 'status' }, message.text) : null,
  );
}

export function settingsView(app: App): HTMLElement {
  if (overrides === null && !loading) {
    loading = true;
    void app.client.settings().then((s) => {
      overrides = s?.ruleOverrides ?? {};
      loading = false;
      if (app.view === 'settings') app.render(true);
    });
  }
  const rows = listRuleValues(defaultRuleset).filter((r) => app.ui.showAllRules || r.source === 'assumed');
  const active = Object.entries(overrides ?? {});
  return h('section', { class: 'settings' },
    h('h2', null, t('settingsTitle')),
    h('p', null, t('settingsIntro')),
    h('div', { class: 'overrides' },
      h('h3', null, t('overrides')),
      active.length ? h('ul', null, active.map(([k, v]) => h('li', null, h('code', null, k), ' = ', h('code', null, JSON.stringify(v).slice(0, 120))))) : h('p', { class: 'hint' }, t('noOverrides')),
    ),
    h('label', { class: 'check big' },
      h('input', { type: 'checkbox', 'data-testid': 'show-all', checked: app.ui.showAllRules, onchange: (e: Event) => { app.ui.showAllRules = (e.target as HTMLInputElement).checked; app.render(true); } }),
      ` ${t('showAll')}`),
    h('ul', { class: 'rules', 'data-testid': 'rules' }, rows.map((r) => row(app, r))),
  );
}

/** Forget the loaded settings (another table, or after a reconnect). */
export function resetSettingsCache(): void {
  overrides = null;
}
