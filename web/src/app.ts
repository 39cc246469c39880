/**
 * The dashboard's state and render loop. Views are functions of (app) -> Element; the whole
 * main area is rebuilt on each state push except on form pages (wizard, settings), which keep
 * their inputs. The stopwatch ticks on its own timer and only updates its text.
 */
import { resolveRules, type Rules } from '../../server/games/yorktown1942/ruleset.ts';
import type { TableClient } from './client.ts';
import { clear, h } from './dom.ts';
import { t, type Key } from './i18n.ts';
import { alertNews, refusedReadingWords, undoneList, undoneNews, type SeatOf } from './news.ts';
import { boxNoteToTell, boxNoteWords } from './box-news.ts';
import { holdSendsWhileOffline } from './offline.ts';
import { refusalText } from './refusals.ts';
import { toastMs } from './toast-time.ts';
import { UserHold, keepingFocus } from './user-hold.ts';
import type { Ack, GameState, LabelledSampleDie, ModelStatus, PhotosMeasure, Snapshot, VisionUpdate } from './types.ts';
import { RECENT_EVENTS_LIMIT, withEvents, type RecentEvent } from '../../server/table/recent-events.ts';


export type View = 'table' | 'roll' | 'phone' | 'wizard' | 'settings' | 'camera' | 'samples' | 'box' | 'kiosk' | 'stats';
export const VIEWS: View[] = ['table', 'roll', 'phone', 'wizard', 'settings', 'camera', 'samples', 'box', 'kiosk', 'stats'];
/**
 * The pages a demo station's screen shows: its own and the set-up form. Its tab holds the PIN, so the
 * owner's pages (rule settings, camera, dice photos, the box) are opened elsewhere, not by a visitor.
 */
export const KIOSK_VIEWS: View[] = ['kiosk', 'wizard'];

export interface PlaneForm {
  /** the game, turn and action the form was filled for: a new one starts from the defaults */
  key: string;
  load: 'none' | 'bomb' | 'dropTank';
  to: string; // 'approach' or an island number
  via: string; // '' or an island number
  /** '' none, 'true' the dealt tile, or the id of the tile turned over (physical tiles) */
  manoeuvre: string;
}

/** A die on a held dice photo as the players label it (pixels of that photo; face null: not decided yet). */
export type SampleBox = Omit<LabelledSampleDie, 'face'> & {
  face: LabelledSampleDie['face'] | null;
  /** why the camera could not read it (shown as a hint) */
  unreadable?: string;
};

/** The dice photos page (`views/samples.ts`): the held photo and its labels live here, not in the DOM. */
export interface SamplesUi {
  /** the photo held on the service while it is labelled */
  held: { hold: string; width: number; height: number; imageUrl: string; within: { x: number; y: number; w: number; h: number } | null; movedAt: number | null } | null;
  /** the labels being edited, and the camera's own reading to go back to */
  dice: SampleBox[];
  read: SampleBox[];
  /** the service's dice-samples folder and its labelled photos (null: not asked yet) */
  folder: string | null;
  saved: number | null;
  /** the file the held photo was last saved as (saving again replaces its labels) */
  savedAs: string | null;
  /** the last problem, by code, with the service's words */
  error: { code: string; message: string } | null;
  busy: boolean;
  /** the folder was asked for (once per connection) */
  asked: boolean;
  /** the held photo failed to load (held too long, or the service restarted) */
  imageGone: boolean;
  /** the die button to give the focus back to after a re-render */
  focus: string | null;
  /** the reader measured on the saved photos (null: not yet), and whether a measure is running */
  measure: PhotosMeasure | null;
  measuring: boolean;
  /** the dice model read and its teaching (views/teach.ts; null: not asked yet), asked once per connection */
  model: ModelStatus | null;
  modelAsked: boolean;
  modelBusy: boolean;
  modelError: { code: string; message: string } | null;
}

export interface UiState {
  forms: Record<number, PlaneForm>;
  /** manual dice entry: the faces being typed, and which slot the next tap fills */
  manualFaces: (number | null)[];
  manualSlot: number;
  manualRollKey: string | null;
  /** the manual entry folded or opened by hand (null: open exactly when dice must be typed in) */
  manualOpen: boolean | null;
  pinOpen: boolean;
  /** the header's menu of set-up pages, opened */
  setupMenuOpen: boolean;
  pinError: string | null;
  showAllRules: boolean;
  endDismissedFor: number | null;
  cardPick: string;
  /** the form for a card missing from the deck list, opened by hand (kept across re-renders) */
  otherCardOpen: boolean;
  /** attack split picked for one reading of one roll (key: purpose|plane|readings) */
  splitPick: { key: string; option: string } | null;
  /** the phone's board and counters unfolded */
  phoneBoardOpen: boolean;
  /** the phone's "what happened" shows its longer list */
  phoneHistoryLong: boolean;
  samples: SamplesUi;
}

export interface Toast {
  text: string;
  /** the engine's own words under a translated headline */
  detail?: string | null;
  /** alert: a crash or a hit on the Yorktown, told on every page and left a little longer */
  kind: 'ok' | 'error' | 'alert';
  at: number;
}

const defaultRules = resolveRules();
/** a `return` whose popstate never came lets the app's page changes through again after this */
const RETURN_WAIT_MS = 1500;
/** how long a phone waits before asking again for its seat's tiles after a failed request */
const SECRETS_RETRY_MS = 3000;
/** An action refused for want of the PIN is done when the PIN comes within this time (not one asked for long ago). */
const PIN_RETRY_MS = 120_000;
/** how long a toast stays: an alert (a crash, the Yorktown hit) a little longer than the rest */

/** One roll from another: what it is for, whose, and how it began. */
function rollKey(roll: GameState['roll'] | null): string | null {
  return roll ? `${roll.purpose}|${roll.plane}|${roll.fuelAtStart}|${roll.tracker.spec.dice}|${roll.manoeuvre}` : null;
}

export class App {
  snap: Snapshot | null = null;
  vision: VisionUpdate | null = null;
  /** server time of the last camera update with the dice moving */
  visionMovedAt = 0;
  /** the roll on the table and the server time it was first seen here (its dice must move after that) */
  rollSeen: { key: string; at: number } | null = null;
  /** the set-up of the last game this page saw (a new game after one abandoned starts from it) */
  lastSetup: NonNullable<GameState['setup']> | null = null;
  /** the roll's reading on the table (its count) and the server time it was first seen here */
  readingSeen: { key: string; readings: number; at: number } | null = null;
  connected = false;
  /** server clock minus local clock, ms */
  clockOffset = 0;
  toast: Toast | null = null;
  /** the game's events seen since this page opened (undone commands taken out), oldest first */
  history: RecentEvent[] = [];
  ui: UiState = {
    forms: {},
    manualFaces: [],
    manualSlot: 0,
    manualRollKey: null,
    manualOpen: null,
    pinOpen: false,
    setupMenuOpen: false,
    pinError: null,
    showAllRules: false,
    endDismissedFor: null,
    cardPick: '',
    otherCardOpen: false,
    splitPick: null,
    phoneBoardOpen: false,
    phoneHistoryLong: false,
    samples: { held: null, dice: [], read: [], folder: null, saved: null, savedAs: null, error: null, busy: false, asked: false, imageGone: false, focus: null, measure: null, measuring: false, model: null, modelAsked: false, modelBusy: false, modelError: null },
  };
  private renderers: Partial<Record<View, (app: App) => Node>> = {};
  /** what the user is in the middle of, that a state push must not rebuild under them */
  private readonly hold = new UserHold(() => this.render(false));
  private chrome: ((app: App) => Node) | null = null;
  private overlays: ((app: App) => Node | null)[] = [];
  private builtView: View | null = null;
  private toastTimer: ReturnType<typeof setTimeout> | null = null;
  private afterPin: { fn: () => Promise<Ack>; after?: (reply: Ack) => void; at: number; seq: number | null } | null = null;

  constructor(
    readonly root: HTMLElement,
    readonly client: TableClient,
    public view: View,
    readonly kiosk: boolean,
    public seat: number | null,
  ) {}

  register(view: View, render: (app: App) => Node): void {
    this.renderers[view] = render;
  }

  setChrome(render: (app: App) => Node): void {
    this.chrome = render;
  }

  addOverlay(render: (app: App) => Node | null): void {
    this.overlays.push(render);
  }

  get state(): GameState | null {
    const s = this.snap?.state;
    return s && typeof s === 'object' && 'phase' in s ? s : null;
  }

  rules(): Rules {
    return this.state?.rules ?? defaultRules;
  }

  now(): number {
    return Date.now() + this.clockOffset;
  }

  setSnapshot(snap: Snapshot): void {
    // what another page's Undo in this push took back, named from the roll shown until now
    const refused = this.refusedReading();
    this.snap = snap;
    const key = rollKey(this.state?.roll ?? null);
    if (key === null) this.rollSeen = null;
    else if (this.rollSeen?.key !== key) this.rollSeen = { key, at: snap.serverTime };
    if (this.state?.setup) this.lastSetup = this.state.setup;
    const readings = this.state?.roll?.tracker.readings ?? 0;
    if (key === null) this.readingSeen = null;
    else if (this.readingSeen?.key !== key || this.readingSeen.readings !== readings) this.readingSeen = { key, readings, at: snap.serverTime };
    // the journal position shown, for scripts and tests that wait for a command to arrive
    this.root.dataset.seq = String(snap.seq);
    this.clockOffset = snap.serverTime - Date.now();
    const told = this.announce(snap, refused);
    this.tellBoxNote(snap, told);
    this.record(snap);
    this.render(false);
  }

  /** told when the end screen is closed (the page keeps it closed through a reload) */
  onEndDismissed: (at: number) => void = () => {};

  dismissEnd(at: number): void {
    this.ui.endDismissedFor = at;
    this.onEndDismissed(at);
  }

  /**
   * Dice the camera shows settled, while the roll on the table has read nothing and they have not moved since it
   * began: the last roll's. Not after a reading of this roll was taken back with Undo (a page opened since saw
   * no throw): those dice are this roll's (`trayNotTaken`).
   */
  diceFromBefore(): boolean {
    const v = this.vision;
    const roll = this.state?.roll;
    return !!roll && !!v && !!this.rollSeen && !this.snap?.readingUndone && v.settled && v.dice.length > 0 && roll.tracker.readings === 0 && this.visionMovedAt < this.rollSeen.at;
  }

  /**
   * The players took back a reading of the roll with Undo (the snapshot's `readingUndone`) and the dice in the
   * tray have not moved since as far as this page saw: they are not the roll's (the service reads them into it
   * again only once they move, or when the players read the tray again). A page opened since, with no camera
   * update yet, says so too; not once the camera sees the tray empty.
   */
  trayNotTaken(): boolean {
    const undone = this.snap?.readingUndone;
    const v = this.vision;
    if (!undone || !this.state?.roll || this.visionMovedAt >= undone.at) return false;
    return !v || (v.settled && v.dice.length > 0);
  }

  /**
   * The dice moved since the roll's last reading and came to rest, every one read, on the faces it holds:
   * a re-roll that landed the same, which makes no new reading (said, so that the throw does not look missed).
   */
  diceRestedUnchanged(): boolean {
    const faces = this.state?.roll?.tracker.faces;
    const seen = this.restingFaces();
    if (!seen || !faces || !this.readingSeen || this.visionMovedAt <= this.readingSeen.at) return false;
    const read = [...faces].sort((a, b) => a - b);
    return seen.length === read.length && seen.every((f, i) => f === read[i]);
  }

  /** The faces the camera sees at rest, sorted (null: the dice moving, or one of them not read). */
  private restingFaces(): number[] | null {
    const v = this.vision;
    if (!v?.settled || v.dice.some((d) => d.pending || d.face === null)) return null;
    return v.dice.map((d) => d.face as number).sort((a, b) => a - b);
  }

  /** The roll's last reading in words when it was refused, as an Undo taking it back names it (null: accepted, or no roll). */
  private refusedReading(): string | null {
    const roll = this.state?.roll;
    return roll ? refusedReadingWords(roll.tracker.flags, this.restingFaces()) : null;
  }

  /**
   * the phone's seat's dealt tiles (digital game), fetched once per game, seat and PIN given (a PIN
   * typed in after the page opened reaches the service's routes a moment after the socket's control)
   */
  private secrets: { key: string; tiles: Map<number, string> } | null = null;

  /** counts the pages opened: a page that shows what the service holds asks again when opened anew */
  pagesOpened = 0;

  /** a `return` is under way: the browser has not moved back yet */
  private returning = false;

  /** The browser moved (Back, Forward, or a `return` done): show the page it is on now. */
  arrived(view: View): void {
    this.returning = false;
    this.go(view, 'history');
  }

  /** The expert manoeuvre tile of one of this phone's planes, when the engine dealt it (null elsewhere). */
  secretTile(plane: number): string | null {
    const st = this.state;
    if (this.view !== 'phone' || this.seat === null || !st?.setup?.expansions.expertManoeuvres || st.setup.deck !== 'digital') return null;
    const key = `${st.startedAt}|${this.seat}|${this.client.holdsPin}`;
    if (this.secrets?.key !== key && this.snap?.canControl && this.client.holdsPin) {
      this.secrets = { key, tiles: new Map() };
      void this.client.seatSecrets(this.seat).then((reply) => {
        if (this.secrets?.key !== key) return;
        if (!reply.ok) {
          // asked again at a render a few seconds on (the network back, the PIN taken)
          setTimeout(() => {
            if (this.secrets?.key === key) this.secrets = null;
          }, SECRETS_RETRY_MS);
          return;
        }
        this.secrets.tiles = new Map((reply.data?.tiles ?? []).map((x) => [x.plane, x.manoeuvre]));
        if (this.secrets.tiles.size) this.render(false);
      });
    }
    return this.secrets?.key === key ? (this.secrets.tiles.get(plane) ?? null) : null;
  }

  /** the journal seq whose events were last told (null: no push yet; the first one is what was, not news) */
  private toldSeq: number | null = null;
  /** Undos this page sent whose reply has not come: the push of one is told by its own toast (`tellUndone`) */
  private undoing = 0;
  /** the seq of this page's last Undo */
  private ownUndoSeq: number | null = null;

  /** The seat flying a plane in the game shown (null: unknown). */
  readonly seatOf: SeatOf = (plane) => this.state?.planes.find((p) => p.id === plane)?.seat ?? null;

  /**
   * What a push brings that every page must see in a toast: another page's Undo, a plane crashed, the
   * Yorktown hit. Once per journal seq: a reconnection or a page opened anew pushes the last command's
   * events again, and the first push a page gets is what was, not news.
   */
  private announce(snap: Snapshot, refused: string | null): boolean {
    const told = this.toldSeq;
    this.toldSeq = snap.seq;
    // a demo station's self-playing game is a show, not news
    if (told === null || snap.seq <= told || snap.attract) return false;
    const events = snap.events ?? [];
    const alert = alertNews(events, this.rules());
    if (alert) {
      this.showToast(alert, 'alert');
      return true;
    }
    const undone = events.find((e) => e.type === 'undone');
    if (undone && this.undoing === 0 && snap.seq !== this.ownUndoSeq) {
      const text = undoneNews(undone, this.seatOf, refused);
      if (text) {
        this.showToast(text, 'ok');
        return true;
      }
    }
    return false;
  }

  /** the seq of the box's last note this page saw (undefined: no push yet) */
  private boxNoteSeen: number | null | undefined = undefined;

  /**
   * What the button box's last press did, once (`box-news.ts`): a refusal as an error toast; what a press
   * did as a short one, unless the push brought news of its own (a crash is not covered by "roll confirmed").
   */
  private tellBoxNote(snap: Snapshot, newsTold: boolean): void {
    const note = boxNoteToTell(snap.box?.note, this.boxNoteSeen);
    this.boxNoteSeen = snap.box?.note?.seq ?? null;
    if (!note || (!note.refused && newsTold)) return;
    const { text, detail } = boxNoteWords(note);
    this.showToast(text, note.refused ? 'error' : 'ok', detail);
  }

  private record(snap: Snapshot): void {
    if (this.history.length && this.history[this.history.length - 1]!.seq >= snap.seq) return;
    this.history = withEvents(this.history, snap.seq, snap.events ?? []);
  }

  /**
   * The table's own list of its last commands' events (a page opened or reconnected mid-game had only
   * the last one's); pushes that arrived meanwhile are kept on top of it.
   */
  async catchUpHistory(): Promise<void> {
    const recent = await this.client.recentEvents();
    if (!recent) return;
    const newer = this.history.filter((x) => x.seq > recent.seq);
    this.history = [...recent.events, ...newer].slice(-RECENT_EVENTS_LIMIT);
    this.render(false);
  }

  /**
   * Shows another page. `push`: the browser's Back returns to this one; `replace`: it takes this one's
   * place in the browser's history (a demo station going back to its attract screen); `return`: back to
   * the page this one was opened from when it is that one (a finished form), else `replace`; `history`:
   * the browser moved already (Back, Forward).
   */
  go(asked: View, how: 'push' | 'replace' | 'return' | 'history' = 'push'): void {
    const view = this.kiosk && !KIOSK_VIEWS.includes(asked) ? 'kiosk' : asked;
    // `return`: a form done with (the wizard) goes back to the page it was opened from, as Back would
    if (this.returning) return;
    if (how === 'return' && view !== this.view && (history.state as { from?: string } | null)?.from === view) {
      // until the browser has moved back (popstate), a second tap must not go back once more
      this.returning = true;
      setTimeout(() => (this.returning = false), RETURN_WAIT_MS);
      history.back();
      return;
    }
    const other = view !== this.view;
    const from = this.view;
    this.view = view;
    if (other) this.pagesOpened++;
    if (how !== 'history') {
      const url = new URL(location.href);
      url.searchParams.set('view', view);
      if (view === 'phone' && this.seat) url.searchParams.set('seat', String(this.seat));
      if (how === 'push' && other) history.pushState({ from }, '', url);
      else history.replaceState(history.state, '', url);
    }
    this.render(true);
    // another page opens at its top (the table opened from the foot of the long wizard was scrolled halfway down)
    if (other) window.scrollTo(0, 0);
  }

  showToast(text: string, kind: Toast['kind'], detail: string | null = null): void {
    this.toast = { text, kind, at: Date.now(), detail };
    if (this.toastTimer) clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast = null;
      this.renderToast();
    }, toastMs(text, detail, kind));
    this.renderToast();
  }

  /** Sends a command; a refusal is shown in the service's words. */
  async send(command: { type: string; [k: string]: unknown }): Promise<Ack> {
    if (command.type !== 'undo') return this.act(() => this.client.command(command));
    // counted while on its way, also when it is sent again once the PIN is given: its push is told by its own toast
    const refused = this.refusedReading();
    const undo = async () => {
      this.undoing++;
      try {
        return await this.client.command(command);
      } finally {
        this.undoing--;
      }
    };
    return this.act(undo, (reply) => this.tellUndone(reply, refused));
  }

  /** What an Undo of this page took back, said: a tap in the wrong place must not undo unnoticed. */
  private tellUndone(reply: Ack, refused: string | null): void {
    if (!reply.ok || !Array.isArray(reply.events)) return;
    this.ownUndoSeq = typeof reply.seq === 'number' ? reply.seq : null;
    const undone = (reply.events as { type: string; commands?: { type: string; piece?: number | null }[] }[]).find((e) => e.type === 'undone');
    if (!undone?.commands?.length) return;
    this.showToast(t('undoneToast', { what: undoneList(undone.commands, this.seatOf, refused) }), 'ok');
    this.render(false);
  }

  /**
   * Runs an action of the service; a refusal is shown in the service's words. `after` is told the reply,
   * and again when an action refused for want of the PIN is done once the PIN is given (`unlocked`).
   */
  async act(fn: () => Promise<Ack>, after?: (reply: Ack) => void): Promise<Ack> {
    const showing = this.toast;
    const reply = await fn();
    if (!reply.ok) {
      if (reply.error.code === 'pinRequired') {
        this.ui.pinOpen = true;
        this.afterPin = { fn, after, at: Date.now(), seq: this.snap?.seq ?? null };
      }
      const { text, detail } = refusalText(reply.error);
      this.showToast(text, 'error', detail);
      this.render(false);
    } else if (this.toast?.kind === 'error' && this.toast === showing) {
      // a refusal the players have acted on since is not left covering the screen (not one the action
      // itself brought: a box press refused comes in the push before its answer)
      this.clearToast();
    }
    after?.(reply);
    return reply;
  }

  /**
   * The PIN was given: the action that asked for it is done now, if asked for lately and nothing has
   * happened at the table since (an Undo must not take back a roll confirmed meanwhile); its refusal goes.
   */
  async unlocked(): Promise<void> {
    const pending = this.afterPin;
    this.afterPin = null;
    if (this.toast?.kind === 'error') this.clearToast();
    if (pending && Date.now() - pending.at <= PIN_RETRY_MS && pending.seq === (this.snap?.seq ?? null)) await this.act(pending.fn, pending.after);
  }

  /** Opens the PIN prompt (a button that says what the PIN is for). */
  askPin(): void {
    this.ui.pinOpen = true;
    this.render(false);
  }

  /** The PIN prompt was closed without the PIN: the action that asked for it is not done later. */
  closePinPrompt(): void {
    this.ui.pinOpen = false;
    this.afterPin = null;
  }

  /** The service took the PIN (typed, or the demo screen's own): the prompt goes, and what asked for it is done. */
  async pinAccepted(): Promise<void> {
    this.ui.pinOpen = false;
    this.ui.pinError = null;
    this.render(false);
    await this.unlocked();
  }

  private clearToast(): void {
    if (this.toastTimer) clearTimeout(this.toastTimer);
    this.toastTimer = null;
    this.toast = null;
    this.renderToast();
  }

  /**
   * Builds the page again. Unless `force`d (the user's own action), what the user is in the middle of is
   * left alone: forms (wizard, settings) are rebuilt only when asked, and a region (header, view) with a
   * press, a drag or a list the user is in is rebuilt once they let go (`UserHold`). The regions
   * (chrome, main, overlays, toast) are made once.
   */
  render(force: boolean): void {
    const main = this.regions().main;
    this.root.className = `view-${this.view}${this.kiosk ? ' kiosk' : ''}`;
    const same = this.builtView === this.view;
    const stable = this.view === 'wizard' || this.view === 'settings';
    if (force || !same || !(stable || this.hold.holds(main))) {
      this.builtView = this.view;
      const render = this.renderers[this.view];
      keepingFocus(main, () => {
        main.replaceChildren(render ? render(this) : h('p', null, this.view));
        return main;
      });
    }
    // a form left alone by state pushes still says whether the PIN is needed
    for (const el of Array.from(main.querySelectorAll<HTMLElement>('[data-needs-pin]'))) el.hidden = this.snap?.canControl === true;
    if (force || !this.hold.holds(this.regions().chrome)) this.renderChrome();
    this.renderOverlays();
    this.renderToast();
    holdSendsWhileOffline(this.root, !this.connected);
  }

  /** True when the user is in the middle of something in `el`: a partial update leaves it for now. */
  underUser(el: HTMLElement): boolean {
    return this.hold.holds(el);
  }

  private regions(): { chrome: HTMLElement; main: HTMLElement; overlays: HTMLElement; toast: HTMLElement } {
    const found = (id: string) => document.getElementById(id);
    if (!found('main') || !this.root.contains(found('main'))) {
      clear(this.root);
      this.root.append(
        h('div', { id: 'chrome' }),
        h('main', { id: 'main', tabindex: '-1' }),
        h('div', { id: 'overlays' }),
        h('div', { id: 'toast', role: 'status', 'aria-live': 'polite' }),
      );
      this.overlayNodes = [];
    }
    return { chrome: found('chrome')!, main: found('main')!, overlays: found('overlays')!, toast: found('toast')! };
  }

  private renderChrome(): void {
    if (!this.chrome) return;
    const chrome = this.regions().chrome;
    const build = this.chrome;
    keepingFocus(chrome, () => {
      chrome.replaceChildren(build(this));
      return chrome;
    });
  }

  /** the node each overlay showed last (null: none); a node shown again is left in place, never moved */
  private overlayNodes: (Node | null)[] = [];

  private renderOverlays(): void {
    const el = this.regions().overlays;
    this.overlays.forEach((overlay, i) => {
      const node = overlay(this);
      const before = this.overlayNodes[i] ?? null;
      if (node === before) return;
      if (before && node) {
        // an overlay drawn again keeps the focus on the same control ("Keep playing" through the pushes)
        const focused = before.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.testid : undefined;
        before.parentNode?.replaceChild(node, before);
        if (focused && node instanceof HTMLElement) node.querySelector<HTMLElement>(`[data-testid="${focused}"]`)?.focus();
      }
      else if (before) before.parentNode?.removeChild(before);
      else if (node) el.insertBefore(node, this.overlayNodes.slice(i + 1).find((n) => n?.parentNode === el) ?? null);
      this.overlayNodes[i] = node;
    });
  }

  private renderToast(): void {
    const el = this.regions().toast;
    clear(el);
    if (this.toast) {
      el.append(h('div', { class: `toast toast-${this.toast.kind}` }, this.toast.text,
        this.toast.detail ? h('span', { class: 'toast-detail' }, this.toast.detail) : null));
    }
  }

  text(key: Key, params?: Record<string, string | number>): string {
    return t(key, params);
  }
}
