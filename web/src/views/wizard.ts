/** Set-up wizard: players, inexperienced players, difficulty, expansions, deck, red islands, seats. */
import type { App } from '../app.ts';
import { ask } from './ask.ts';
import { h, type Child } from '../dom.ts';
import { t, tk } from '../i18n.ts';
import { SENDS } from '../offline.ts';

export interface WizardForm {
  players: 1 | 2 | 3 | 4;
  inexperienced: number;
  difficulty: 25 | 30 | 35;
  expertManoeuvres: boolean;
  dropTank: boolean;
  weather: boolean;
  deck: 'digital' | 'physical';
  startIslands: [number, number];
  planeSeats: [number, number, number, number];
  seed: string;
}

let form: WizardForm | null = null;
/** the game the form was made after (its startedAt), and the opening of the page it was made in */
let formMade: { game: number | null; opened: number } | null = null;
let overridesCount = 0;

function defaultSeats(app: App, players: number): [number, number, number, number] {
  const seating = app.rules().players.seating[String(players)] ?? [1, 1, 1, 1];
  return [seating[0] ?? 1, seating[1] ?? 1, seating[2] ?? 1, seating[3] ?? 1];
}

/** The rulebook's standard game, or at home the last game's choices (the same players play again). */
function initialForm(app: App): WizardForm {
  const red = app.rules().board.islands.filter((i) => i.colour === 'red').map((i) => i.id);
  const standard: WizardForm = {
    players: 4,
    inexperienced: 0,
    difficulty: 30,
    expertManoeuvres: false,
    dropTank: false,
    weather: false,
    deck: 'digital',
    startIslands: [red[0] ?? 8, red[1] ?? red[0] ?? 9],
    planeSeats: defaultSeats(app, 4),
    seed: '',
  };
  // a demo station's next visitors start from the standard game; others from the game on the table, or the last one seen (abandoned)
  const last = app.kiosk ? null : (app.state?.setup ?? app.lastSetup);
  if (!last) return standard;
  const seats = last.planeSeats;
  return {
    ...standard,
    players: last.players,
    inexperienced: last.inexperienced,
    difficulty: last.difficulty,
    ...last.expansions,
    deck: last.deck,
    planeSeats: [seats[1], seats[2], seats[3], seats[4]],
  };
}

/** The newGame command the form describes (validated again by the service and the engine). */
export function newGameCommand(f: WizardForm, kiosk = false): Record<string, unknown> {
  const cmd: Record<string, unknown> = {
    type: 'newGame',
    players: f.players,
    inexperienced: f.inexperienced,
    difficulty: f.difficulty,
    expansions: { expertManoeuvres: f.expertManoeuvres, dropTank: f.dropTank, weather: f.weather },
    deck: kiosk ? 'digital' : f.deck,
    startIslands: f.startIslands,
    planeSeats: { '1': f.planeSeats[0], '2': f.planeSeats[1], '3': f.planeSeats[2], '4': f.planeSeats[3] },
  };
  const seed = f.seed.trim();
  if (seed !== '' && !kiosk) cmd.seed = Number(seed);
  return cmd;
}

export function totalMinutes(app: App, f: WizardForm): number {
  const { stopwatch: sw, players } = app.rules();
  return f.difficulty + (players.max - f.players) * sw.perMissingPlayerMinutes + f.inexperienced * sw.perInexperiencedMinutes;
}

function choice<T extends string | number>(name: string, value: T, options: [T, string][], set: (v: T) => void, app: App): HTMLElement {
  return h('div', { class: 'choices', role: 'radiogroup', 'aria-label': name },
    options.map(([v, label]) =>
      h('button', {
        type: 'button',
        role: 'radio',
        'aria-checked': v === value ? 'true' : 'false',
        class: `choice${v === value ? ' selected' : ''}`,
        'data-testid': `${name}-${v}`,
        onclick: () => {
          set(v);
          app.render(true);
        },
      }, label)));
}

function fieldset(legend: string, ...children: Child[]): HTMLElement {
  return h('fieldset', null, h('legend', null, legend), children);
}

/** The page the form returns to: the demo station's, a phone's, else the table's. */
function homePage(app: App): 'kiosk' | 'phone' | 'table' {
  return app.kiosk ? 'kiosk' : app.seat !== null ? 'phone' : 'table';
}

export function wizardView(app: App): HTMLElement {
  // opened anew after another game was set up (from another screen too): from that game's choices
  const game = app.state?.setup ? app.state.startedAt : null;
  if (form && formMade && formMade.opened !== app.pagesOpened && formMade.game !== game) form = null;
  if (!form || !formMade) formMade = { game, opened: app.pagesOpened };
  else formMade.opened = app.pagesOpened;
  const f = (form ??= initialForm(app));
  const rules = app.rules();
  const red = rules.board.islands.filter((i) => i.colour === 'red');
  void app.client.settings().then((s) => {
    const n = s ? Object.keys(s.ruleOverrides).length : 0;
    if (n !== overridesCount) {
      overridesCount = n;
      if (app.view === 'wizard') app.render(true);
    }
  });
  const seatOptions = Array.from({ length: f.players }, (_, i) => i + 1);
  const error = h('p', { class: 'form-error', role: 'alert' });
  return h('form', {
    class: 'wizard',
    onsubmit: async (e: Event) => {
      e.preventDefault();
      // a game people are playing is replaced only when they say so (a new game cannot be undone); the demo station's own game is not asked about
      const st = app.state;
      if (st?.setup && st.phase !== 'over' && !app.snap?.attract && !(await ask(app, t('newGameConfirm', { turn: st.turn }), t('startGame')))) return;
      // without the PIN, the game starts once it is given
      await app.act(() => app.client.command(newGameCommand(f, app.kiosk) as { type: string }), (reply) => {
        if (reply.ok) app.go(homePage(app), 'return');
        else error.textContent = reply.error.code === 'pinRequired' ? '' : reply.error.message;
      });
    },
  },
    h('h2', null, t('wizardTitle')),
    fieldset(t('players'), choice('players', f.players, [1, 2, 3, 4].map((n): [1 | 2 | 3 | 4, string] => [n as 1 | 2 | 3 | 4, String(n)]), (v) => {
      f.players = v;
      f.inexperienced = Math.min(f.inexperienced, v);
      f.planeSeats = defaultSeats(app, v);
    }, app)),
    fieldset(t('inexperienced'), choice('inexperienced', f.inexperienced, Array.from({ length: f.players + 1 }, (_, i): [number, string] => [i, String(i)]), (v) => { f.inexperienced = v; }, app)),
    fieldset(t('difficulty'), choice('difficulty', f.difficulty, ([25, 30, 35] as const).map((d): [25 | 30 | 35, string] => [d, tk(`diff_${d}`)]), (v) => { f.difficulty = v; }, app)),
    fieldset(t('expansions'),
      (['expertManoeuvres', 'dropTank', 'weather'] as const).map((x) =>
        h('label', { class: 'check big' },
          h('input', { type: 'checkbox', name: x, 'data-testid': `exp-${x}`, checked: f[x], onchange: (e: Event) => { f[x] = (e.target as HTMLInputElement).checked; } }),
          ` ${tk(`exp_${x}`)}`))),
    // a demo station's visitors play with its digital deck, and need no repeatable game
    app.kiosk ? null : fieldset(t('deck'), choice('deck', f.deck, [['digital', t('deck_digital')], ['physical', t('deck_physical')]], (v) => { f.deck = v; }, app)),
    fieldset(t('startIslands'),
      [0, 1].map((i) =>
        h('label', { class: 'field' }, h('span', null, t('plane', { n: i + 3 })),
          h('select', { name: `start${i}`, onchange: (e: Event) => { f.startIslands[i] = Number((e.target as HTMLSelectElement).value); } },
            red.map((isl) => h('option', { value: isl.id, selected: isl.id === f.startIslands[i] }, `${t('island', { n: isl.id })}${isl.name ? ` (${isl.name})` : ''}`)))))),
    fieldset(t('planeSeats'),
      [0, 1, 2, 3].map((i) =>
        h('label', { class: 'field' }, h('span', null, t('plane', { n: i + 1 })),
          h('select', { name: `seat${i}`, onchange: (e: Event) => { f.planeSeats[i] = Number((e.target as HTMLSelectElement).value); } },
            seatOptions.map((seat) => h('option', { value: seat, selected: seat === f.planeSeats[i] }, t('seat', { n: seat }))))))),
    app.kiosk ? null : fieldset(t('seed'), h('input', { type: 'number', name: 'seed', 'aria-label': t('seed'), min: 0, inputmode: 'numeric', value: f.seed, oninput: (e: Event) => { f.seed = (e.target as HTMLInputElement).value; } })),
    overridesCount > 0 ? h('p', { class: 'hint' }, t('overridesActive', { n: overridesCount })) : null,
    error,
    // kept in view at the foot of the screen however long the form
    h('div', { class: 'wizard-actions' },
      h('p', { class: 'total-time', 'data-testid': 'total-time' }, t('totalTime', { n: totalMinutes(app, f) })),
      h('button', { type: 'submit', class: 'btn primary big-btn', 'data-testid': 'start-game', ...SENDS }, t('startGame')),
      h('button', { type: 'button', class: 'btn big-btn', 'data-testid': 'wizard-back', onclick: () => app.go(homePage(app), 'return') }, t('back')),
      // kept up to date by App.render (the form itself is not rebuilt by state pushes)
      h('p', { class: 'hint', 'data-needs-pin': '', hidden: app.snap?.canControl === true }, t('pinPrompt'))),
  );
}
