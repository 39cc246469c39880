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
/** saves answered so far: the page shown after each one carries its number (scripts and tests wait for it) */
let answered = 0;
/**
 * Rows typed into and not saved, kept as they are (the same elements) when the page is rebuilt after
 * another row's save; a row leaves once its own save is taken.
 */
const drafts = new Map<string, HTMLElement>();

/** Values typed on this page and not saved. */
export function settingsUnsaved(): boolean {
  return drafts.size > 0;
}

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
    drafts.delete(path);
    message = { text: t('saved'), kind: 'ok', path };
  } else {
    message = { text: reply.error.message, kind: 'error', path };
  }
  answered++;
  app.render(true);
}

type Read = { ok: true; value: unknown } | { ok: false; message: string };

/** An editor of one rule value and how to read what was typed into it. */
interface Editor {
  el: HTMLElement;
  read(): Read;
}

type Cell = string | number | boolean;
const isCell = (v: unknown): v is Cell => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';

/** A list of like records with plain fields (a track's steps, a roll's tiers): edited as a table. */
function isTable(value: unknown): value is Record<string, Cell>[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  const keys = Object.keys(value[0] ?? {}).join();
  return value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).join() === keys && Object.values(v).every(isCell));
}

function numberInput(name: string, value: unknown, label: string, whole: boolean): HTMLInputElement {
  return h('input', { type: 'number', name, value: String(value), min: '0', step: whole ? '1' : 'any', inputmode: whole ? 'numeric' : 'decimal', 'aria-label': label }) as HTMLInputElement;
}

function readNumber(input: HTMLInputElement, what: string): Read {
  const text = input.value.trim();
  const n = Number(text);
  return text === '' || !Number.isFinite(n) ? { ok: false, message: t('needNumber', { what }) } : { ok: true, value: n };
}

function cellInput(name: string, sample: Cell, value: Cell, label: string): HTMLInputElement | HTMLSelectElement {
  if (typeof sample === 'number') return numberInput(name, value, label, Number.isInteger(sample));
  if (typeof sample === 'boolean') return yesNo(name, value === true, label);
  return h('input', { type: 'text', name, value: String(value), spellcheck: 'false', 'aria-label': label }) as HTMLInputElement;
}

function readCell(el: HTMLInputElement | HTMLSelectElement, sample: Cell, what: string): Read {
  if (typeof sample === 'number') return readNumber(el as HTMLInputElement, what);
  if (typeof sample === 'boolean') return { ok: true, value: el.value === 'true' };
  return { ok: true, value: el.value };
}

function yesNo(name: string, value: boolean, label: string): HTMLSelectElement {
  return h('select', { name, 'aria-label': label },
    h('option', { value: 'true', selected: value }, t('yes')),
    h('option', { value: 'false', selected: !value }, t('no'))) as HTMLSelectElement;
}

function tableEditor(r: RuleValueRow, shown: Record<string, Cell>[]): Editor {
  const sample = (r.value as Record<string, Cell>[])[0]!;
  const keys = Object.keys(sample);
  const body = h('tbody', null);
  const addRow = (values: Record<string, Cell>) => {
    const tr = h('tr', null,
      keys.map((k) => h('td', null, cellInput(`${r.path}.${k}`, sample[k]!, values[k] ?? sample[k]!, `${r.path} ${k}`))),
      h('td', null, h('button', { type: 'button', class: 'btn small', 'aria-label': t('removeRow'), title: t('removeRow'), onclick: () => {
        if (body.children.length > 1) tr.remove();
      } }, '−')));
    body.append(tr);
  };
  for (const values of shown) addRow(values);
  const el = h('div', { class: 'rule-table' },
    h('table', null, h('thead', null, h('tr', null, keys.map((k) => h('th', { scope: 'col' }, k)), h('td', null))), body),
    h('button', { type: 'button', class: 'btn small', 'data-testid': `add-row-${r.path}`, onclick: () => {
      const rows = Array.from(body.querySelectorAll('tr'));
      const last = rows[rows.length - 1];
      const values: Record<string, Cell> = {};
      keys.forEach((k, i) => {
        const input = last?.querySelectorAll('input, select')[i] as HTMLInputElement | undefined;
        values[k] = input ? (typeof sample[k] === 'number' ? Number(input.value) : typeof sample[k] === 'boolean' ? input.value === 'true' : input.value) : sample[k]!;
      });
      addRow(values);
    } }, t('addRow')));
  return {
    el,
    read: () => {
      const out: Record<string, Cell>[] = [];
      for (const [i, tr] of Array.from(body.querySelectorAll('tr')).entries()) {
        const cells = Array.from(tr.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select'));
        const record: Record<string, Cell> = {};
        for (const [j, k] of keys.entries()) {
          const got = readCell(cells[j]!, sample[k]!, `${k} (${t('row')} ${i + 1})`);
          if (!got.ok) return got;
          record[k] = got.value as Cell;
        }
        out.push(record);
      }
      return { ok: true, value: out };
    },
  };
}

/** Numbers in a number field, yes/no in a list, a table for a list of like records; anything else as JSON. */
function editorFor(r: RuleValueRow, shown: unknown): Editor {
  const label = `${t('value')} ${r.path}`;
  if (typeof r.value === 'number' && typeof shown === 'number') {
    const input = numberInput(r.path, shown, label, Number.isInteger(r.value));
    return { el: input, read: () => readNumber(input, r.path) };
  }
  if (typeof r.value === 'boolean' && typeof shown === 'boolean') {
    const select = yesNo(r.path, shown, label);
    return { el: select, read: () => ({ ok: true, value: select.value === 'true' }) };
  }
  if (isTable(r.value) && isTable(shown)) return tableEditor(r, shown);
  const big = JSON.stringify(r.value).length > 60;
  const input = big
    ? h('textarea', { name: r.path, rows: 4, spellcheck: 'false', 'aria-label': label }, compact(shown))
    : h('input', { type: 'text', name: r.path, value: JSON.stringify(shown), spellcheck: 'false', 'aria-label': label });
  return {
    el: input,
    read: () => {
      try {
        return { ok: true, value: JSON.parse((input as HTMLInputElement | HTMLTextAreaElement).value) as unknown };
      } catch {
        return { ok: false, message: t('invalidJson') };
      }
    },
  };
}

/** The row's message under it, when the last one is this row's. */
function rowMessage(path: string): HTMLElement | null {
  return message && message.path === path ? h('p', { class: `rule-msg ${message.kind}`, role: 'status' }, message.text) : null;
}

function row(app: App, r: RuleValueRow): HTMLElement {
  const kept = drafts.get(r.path);
  if (kept) {
    kept.querySelector('.rule-msg')?.remove();
    const said = rowMessage(r.path);
    if (said) kept.append(said);
    return kept;
  }
  const current = overrides ?? {};
  const changed = Object.prototype.hasOwnProperty.call(current, r.path);
  const shown = changed ? current[r.path] : r.value;
  const editor = editorFor(r, shown);
  // the other rows' saves since this row was drawn are in `overrides`, not in `current`
  const onSave = () => {
    const got = editor.read();
    if (!got.ok) {
      message = { text: got.message, kind: 'error', path: r.path };
      app.render(true);
      return;
    }
    const next = { ...(overrides ?? {}) };
    if (JSON.stringify(got.value) === JSON.stringify(r.value)) delete next[r.path];
    else next[r.path] = got.value;
    void save(app, next, r.path);
  };
  const onRevert = () => {
    drafts.delete(r.path);
    const next = { ...(overrides ?? {}) };
    delete next[r.path];
    void save(app, next, r.path);
  };
  // shown once the row is typed into: back to the value saved
  const discard = h('button', { type: 'button', class: 'btn', hidden: true, onclick: () => {
    drafts.delete(r.path);
    if (message?.path === r.path) message = null;
    app.render(true);
  } }, t('discardTyping'));
  const li = h('li', { class: `rule ${r.source}${changed ? ' changed' : ''}`, 'data-path': r.path },
    h('div', { class: 'rule-head' },
      h('code', { class: 'rule-path' }, r.path),
      h('span', { class: `source source-${r.source}` }, tk(`ruleSource_${r.source}`)),
    ),
    r.why ? h('p', { class: 'rule-why' }, h('strong', null, `${t('why')}: `), r.why) : null,
    r.quote ? h('p', { class: 'rule-quote' }, h('strong', null, `${t('quote')}: `), `“${r.quote}”`) : null,
    h('div', { class: 'rule-edit' }, editor.el,
      h('button', { type: 'button', class: 'btn primary', onclick: onSave }, t('save')),
      discard,
      changed ? h('button', { type: 'button', class: 'btn', onclick: onRevert }, t('revert')) : null),
    rowMessage(r.path),
  );
  // typed into (a value, a row added or taken out): kept until saved
  const edited = () => {
    drafts.set(r.path, li);
    discard.hidden = false;
  };
  editor.el.addEventListener('input', edited);
  editor.el.addEventListener('change', edited);
  editor.el.addEventListener('click', (e) => {
    if (e.target instanceof HTMLButtonElement) edited();
  });
  return li;
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
  // a row typed into stays in sight until saved or cancelled, whatever the filter
  const rows = listRuleValues(defaultRuleset).filter((r) => app.ui.showAllRules || r.source === 'assumed' || drafts.has(r.path));
  const active = Object.entries(overrides ?? {});
  return h('section', { class: 'settings', 'data-saves': String(answered) },
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
