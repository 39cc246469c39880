/** Plane cards (fuel, skill, dice, cockpit, load, position, action) and each plane's controls. */
import type { PlaneState } from '../../../server/games/yorktown1942/types.ts';
import type { App, PlaneForm } from '../app.ts';
import { h, type Child } from '../dom.ts';
import { positionText, skillDice } from '../format.ts';
import { t, tk } from '../i18n.ts';

const ACTIONS = ['search', 'takeoffLanding', 'attack', 'move'] as const;

function formOf(app: App, plane: PlaneState): PlaneForm {
  let form = app.ui.forms[plane.id];
  if (!form) {
    const red = app.rules().board.islands.find((i) => i.colour === 'red');
    form = { load: 'none', to: plane.position.at === 'deck' ? 'approach' : String(red?.id ?? 'approach'), via: '', target: 'planes', manoeuvre: false };
    app.ui.forms[plane.id] = form;
  }
  return form;
}

export function planeCard(app: App, plane: PlaneState, withControls: boolean): HTMLElement {
  const rules = app.rules();
  const dice = skillDice(rules, plane.skill);
  const roll = app.state?.roll;
  const rolling = roll?.plane === plane.id;
  const fuel = rolling && roll ? roll.fuelAtStart - roll.tracker.fuelSpent : plane.fuel;
  const fuelPct = Math.max(0, Math.min(100, (fuel / rules.fuel.max) * 100));
  const card = h('article', { class: `plane-card seat${plane.seat}${plane.destroyed ? ' destroyed' : ''}${rolling ? ' rolling' : ''}`, 'data-plane': plane.id },
    h('header', null,
      h('span', { class: 'plane-badge' }, plane.id),
      h('span', { class: 'plane-name' }, t('plane', { n: plane.id })),
      h('span', { class: 'seat-name' }, t('seat', { n: plane.seat })),
      plane.destroyed ? h('span', { class: 'destroyed-tag' }, t('destroyed')) : null,
    ),
    h('dl', { class: 'plane-stats' },
      h('div', { class: `stat fuel${fuel <= 3 ? ' low' : ''}` }, h('dt', null, t('fuel')), h('dd', { 'data-testid': `fuel-${plane.id}` }, fuel),
        h('div', { class: 'bar' }, h('span', { class: 'bar-fill', 'data-pct': Math.round(fuelPct) }))),
      h('div', { class: 'stat' }, h('dt', null, t('skill')), h('dd', { 'data-testid': `skill-${plane.id}` }, plane.skill)),
      h('div', { class: 'stat' }, h('dt', null, t('dice')), h('dd', null, dice)),
      h('div', { class: 'stat' }, h('dt', null, t('cockpit')), h('dd', null, plane.cockpit)),
      h('div', { class: 'stat wide' }, h('dt', null, t('load')), h('dd', null, tk(`load_${plane.load}`))),
      h('div', { class: 'stat wide' }, h('dt', null, t('position')), h('dd', { 'data-testid': `pos-${plane.id}` }, positionText(plane.position))),
      h('div', { class: 'stat wide' }, h('dt', null, t('action')),
        h('dd', { 'data-testid': `action-${plane.id}` }, plane.action ? tk(`act_${plane.action}`) : t('noAction'), plane.done ? ` (${t('actionDone')})` : '')),
      plane.manoeuvre
        ? h('div', { class: 'stat wide' }, h('dt', null, t('manoeuvre')), h('dd', null, tk(`man_${plane.manoeuvre.id}`), plane.manoeuvre.used ? ` (${t('manoeuvreUsed')})` : ''))
        : null,
    ),
  );
  // the fuel bar's width is set through the CSSOM (allowed under a strict CSP)
  const fill = card.querySelector<HTMLElement>('.bar-fill');
  if (fill) fill.style.width = `${fuelPct}%`;
  if (withControls) {
    const controls = planeControls(app, plane);
    if (controls) card.append(controls);
  }
  return card;
}

function button(label: string, onclick: () => void, cls = '', testid?: string): HTMLButtonElement {
  return h('button', { type: 'button', class: `btn ${cls}`, onclick: () => onclick(), 'data-testid': testid ?? null }, label);
}

function select(name: string, value: string, options: [string, string][], onchange: (v: string) => void): HTMLSelectElement {
  const el = h('select', { name, onchange: (e: Event) => onchange((e.target as HTMLSelectElement).value) },
    options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
  el.value = value;
  return el;
}

function labelled(label: string, control: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', null, label), control);
}

function destination(raw: string): 'approach' | number {
  return raw === 'approach' ? 'approach' : Number(raw);
}

/** The controls a plane offers now, or null when it has nothing to do. */
export function planeControls(app: App, plane: PlaneState): HTMLElement | null {
  const st = app.state;
  if (!st || !app.snap?.canControl || plane.destroyed || st.phase !== 'planes' || st.roll) return null;
  const form = formOf(app, plane);
  const id = plane.id;
  const board = app.rules().board;
  const parts: Child[] = [];
  const withManoeuvre = (cmd: Record<string, unknown>) => (form.manoeuvre ? { ...cmd, manoeuvre: true } : cmd);

  if (st.afterMove && st.afterMove.plane === id) {
    if (st.afterMove.lightningAttack) parts.push(button(t('lightningAttack'), () => void app.send(withManoeuvre({ type: 'lightningAttack', plane: id }) as { type: string }), 'primary', `lightning-${id}`));
    if (st.afterMove.emergencyLanding) parts.push(button(t('emergencyLanding'), () => void app.send(withManoeuvre({ type: 'emergencyLanding', plane: id }) as { type: string }), 'primary', `emergency-${id}`));
  }

  if (!plane.done && (!plane.action || !st.actionsStarted)) {
    parts.push(
      h('div', { class: 'choose', role: 'group', 'aria-label': t('chooseAction') },
        ACTIONS.map((a) =>
          h('button', {
            type: 'button',
            class: `btn action-choice${plane.action === a ? ' selected' : ''}`,
            'aria-pressed': plane.action === a ? 'true' : 'false',
            'data-testid': `choose-${id}-${a}`,
            onclick: () => void app.send({ type: 'chooseAction', plane: id, action: a }),
          }, tk(`act_${a}`)),
        ),
      ),
    );
  }

  if (plane.action && !plane.done) {
    const redIslands = board.islands.filter((i) => i.colour === 'red');
    const allDest: [string, string][] = [['approach', t('approach')], ...board.islands.map((i): [string, string] => [String(i.id), t('island', { n: i.id })])];
    const rerender = () => app.render(false);
    if (plane.action === 'takeoffLanding') {
      if (plane.position.at === 'deck') {
        const loads: [string, string][] = [['none', t('load_none')], ['bomb', t('load_bomb')]];
        if (st.setup?.expansions.dropTank) loads.push(['dropTank', t('load_dropTank')]);
        const dests: [string, string][] = [['approach', t('approach')], ...redIslands.map((i): [string, string] => [String(i.id), t('island', { n: i.id })])];
        if (!dests.some(([v]) => v === form.to)) form.to = 'approach';
        parts.push(h('div', { class: 'form-row' },
          labelled(t('load'), select(`load-${id}`, form.load, loads, (v) => { form.load = v as PlaneForm['load']; })),
          labelled(t('destination'), select(`to-${id}`, form.to, dests, (v) => { form.to = v; })),
          button(t('takeOff'), () => void app.send({ type: 'takeOff', plane: id, load: form.load, to: destination(form.to) }), 'primary', `takeoff-${id}`),
        ));
      } else {
        parts.push(button(t('land'), () => void app.send(withManoeuvre({ type: 'land', plane: id }) as { type: string }), 'primary', `land-${id}`));
      }
    } else if (plane.action === 'move') {
      if (!allDest.some(([v]) => v === form.to)) form.to = 'approach';
      parts.push(h('div', { class: 'form-row' },
        labelled(t('destination'), select(`to-${id}`, form.to, allDest, (v) => { form.to = v; })),
        labelled(t('via'), select(`via-${id}`, form.via, [['', t('viaNone')], ...board.islands.map((i): [string, string] => [String(i.id), t('island', { n: i.id })])], (v) => { form.via = v; })),
        button(t('move'), () => {
          const cmd: Record<string, unknown> = { type: 'move', plane: id, to: destination(form.to) };
          if (form.via) cmd.via = Number(form.via);
          void app.send(withManoeuvre(cmd) as { type: string });
        }, 'primary', `move-${id}`),
      ));
    } else if (plane.action === 'search') {
      parts.push(h('div', { class: 'form-row' },
        button(t('searchDo'), () => void app.send(withManoeuvre({ type: 'search', plane: id }) as { type: string }), 'primary', `search-${id}`),
        st.setup?.expansions.weather ? button(t('revealWeather'), () => void app.send(withManoeuvre({ type: 'revealWeather', plane: id }) as { type: string }), '', `weather-${id}`) : null,
      ));
    } else if (plane.action === 'attack') {
      parts.push(h('div', { class: 'form-row' },
        labelled(t('target'), select(`target-${id}`, form.target, (['planes', 'cap', 'shoho'] as const).map((x): [string, string] => [x, tk(`target_${x}`)]), (v) => { form.target = v as PlaneForm['target']; })),
        button(t('attackDo'), () => void app.send(withManoeuvre({ type: 'attack', plane: id, target: form.target }) as { type: string }), 'primary', `attack-${id}`),
      ));
    }
    const extras: Child[] = [];
    if (plane.manoeuvre && !plane.manoeuvre.used) {
      extras.push(h('label', { class: 'check' },
        h('input', { type: 'checkbox', checked: form.manoeuvre, onchange: (e: Event) => { form.manoeuvre = (e.target as HTMLInputElement).checked; rerender(); } }),
        ` ${t('useManoeuvre')} (${tk(`man_${plane.manoeuvre.id}`)})`));
    }
    if (plane.load !== 'none' && plane.position.at !== 'deck') extras.push(button(t('dropLoad'), () => void app.send({ type: 'dropLoad', plane: id }), 'small'));
    if (plane.load === 'dropTank') extras.push(button(t('useDropTank'), () => void app.send({ type: 'useDropTank', plane: id }), 'small'));
    extras.push(button(t('skip'), () => void app.send({ type: 'skipAction', plane: id }), 'small', `skip-${id}`));
    parts.push(h('div', { class: 'form-row extras' }, extras));
  }
  if (!parts.length) return null;
  return h('div', { class: 'plane-controls' }, parts);
}

export function planesView(app: App, seat: number | null, withControls: boolean): HTMLElement {
  const planes = (app.state?.planes ?? []).filter((p) => seat === null || p.seat === seat);
  return h('section', { class: 'planes' }, planes.map((p) => planeCard(app, p, withControls)));
}
