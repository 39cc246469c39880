/**
 * The button box of a table: builds it from the table's serial setting (a real USB box or the
 * virtual one on the dashboard), turns its buttons into commands (the game's controls), and
 * keeps its LEDs and buzzer in step with the table (state changes, plus once a second for the
 * timed lights: a roll's result, the last-minute alarm).
 */
import type { SerialConfig } from '../config/service-config.ts';
import type { BoxButton, ButtonBox, ButtonEvent, BuzzerCue, LedState } from '../hardware/ports.ts';
import { SerialPort } from 'serialport';
import { DEFAULT_USB_IDS, guardedSystemList, listPortsSafely, pickPort } from '../hardware/serial/port-finder.ts';
import { SerialButtonBox } from '../hardware/serial/serial-box.ts';
import { VirtualButtonBox } from '../hardware/serial/virtual-box.ts';
import type { CommandRejection, GameCommand } from '../games/game-module.ts';
import type { BoxNote, BoxView } from '../http/protocol.ts';
import type { BoxPress } from './game-adapter.ts';
import { REPLAY_STARTS } from './game-session.ts';
import type { Table, TableChange, TableLog } from './table.ts';

/** The port of a plugged-in box (one of the boards' USB ids), or why none was found. */
export type BoxFinder = () => Promise<{ path: string } | { none: string }>;

const findPluggedBox: BoxFinder = async () => {
  const listed = await listPortsSafely(guardedSystemList(() => SerialPort.list()));
  if (!listed.ok) return { none: listed.reason };
  const path = pickPort(listed.ports, DEFAULT_USB_IDS);
  return path ? { path } : { none: `no serial port with a box's USB id (${DEFAULT_USB_IDS.map((id) => `${id.vendorId}:${id.productId}`).join(', ')})` };
};

export async function createBox(config: SerialConfig, log: TableLog, tableId: string, findBox: BoxFinder = findPluggedBox): Promise<ButtonBox | null> {
  const serialLog = (level: string, message: string) =>
    (level === 'error' ? log.error : level === 'warn' ? log.warn : log.info).call(log, { table: tableId }, `[serial box] ${message}`);
  switch (config.kind) {
    case 'none':
      return null;
    case 'virtual':
      return new VirtualButtonBox();
    case 'auto': {
      const found = await findBox();
      if ('path' in found) {
        log.info({ table: tableId, port: found.path }, `[serial box] a box is plugged in (${found.path}): using it`);
        // by USB id, not by path: it is found again when it comes back on another port
        return new SerialButtonBox({ usbIds: DEFAULT_USB_IDS, log: serialLog });
      }
      log.info({ table: tableId }, `[serial box] none plugged in (${found.none}): the buttons are on the dashboard; plug the box in and restart to use it`);
      return new VirtualButtonBox();
    }
    case 'port':
      return new SerialButtonBox({ path: config.path, log: serialLog });
    case 'usb':
      return new SerialButtonBox({ usbIds: [{ vendorId: config.vendorId, productId: config.productId }], log: serialLog });
  }
}

export class BoxLink {
  private controls: unknown;
  private lastRoll: { success: boolean; at: number } | null = null;
  private leds: LedState | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** the last thing a press did, and whether it was refused (in the snapshot: the table screen shows it) */
  lastNote: BoxNote | null = null;
  private noteSeq = 0;
  private readonly onButton = (event: ButtonEvent) => this.button(event);
  private readonly onStatus = () => this.table.refresh();
  private readonly onCue = (cue: BuzzerCue) => this.buzz(cue);
  private readonly onChange = (change: TableChange) => this.changed(change);

  constructor(private readonly table: Table<any>, readonly box: ButtonBox, private readonly log: TableLog, private readonly now: () => number = Date.now) {
    this.controls = table.adapter.box?.initialControls ?? null;
  }

  async start(): Promise<void> {
    this.box.on('button', this.onButton);
    this.box.on('status', this.onStatus);
    this.table.on('cue', this.onCue);
    this.table.on('applied', this.onChange);
    if (this.box instanceof VirtualButtonBox) {
      const virtual = this.box;
      this.table.simulator.press = (button, press) => {
        virtual.press(button as BoxButton, press);
      };
      this.table.simulator.lastNote = () => (this.lastNote ? { note: this.lastNote.text, refused: this.lastNote.refused } : null);
      // the virtual box's buzzer is the dashboard's speaker
      virtual.on('buzz', (cue: { cue: BuzzerCue; at: number }) => this.table.emit('boxCue', cue));
    }
    await this.box.start();
    this.updateLeds();
    this.timer = setInterval(() => this.updateLeds(), 1000);
    this.timer.unref?.();
  }

  currentLeds(): LedState | null {
    return this.leds;
  }

  /** What the table screen shows of the box: its last note, the plane it has selected and what Confirm would do. */
  view(): BoxView {
    const box = this.table.adapter.box;
    const shown = box?.shown?.(this.controls) ?? null;
    return { note: this.lastNote, selected: box?.selected(this.controls) ?? null, ...(shown ? { shown } : {}) };
  }

  private buzz(cue: BuzzerCue): void {
    try {
      this.box.buzz(cue);
    } catch (err) {
      this.log.warn({ table: this.table.id, err }, 'buzzer cue failed');
    }
  }

  private button(event: ButtonEvent): void {
    const behaviour = this.table.adapter.box;
    if (!behaviour) return;
    // someone is at the table: a demo station's idle timers start again, whatever the press does
    this.table.noteActivity();
    const outcome = this.visitorGame() ?? behaviour.press(event, this.table.state, this.controls, { lastGame: this.table.lastGame() });
    const before = this.controls;
    this.controls = outcome.controls;
    this.lastNote = this.note({ text: outcome.note, key: outcome.noteKey ?? null, params: outcome.noteParams ?? {}, refused: outcome.cue === 'fail' }, event.at);
    // a command taken pushes a snapshot, which carries the note set before it; else one is pushed here
    let pushed = false;
    if (outcome.command) {
      const ack = this.table.submit(outcome.command, 'box');
      if (ack.ok) pushed = true;
      else {
        // a refused command changes nothing on the box either (a long press on a plane whose skip is refused does not select it)
        this.controls = before;
        this.lastNote = this.note({ text: ack.error.message, key: null, params: {}, refused: true, rejection: ack.error }, event.at);
        this.buzz('fail');
      }
    } else if (outcome.cue) {
      this.buzz(outcome.cue);
    }
    this.log.info({ table: this.table.id, button: event.button, press: event.press, note: this.lastNote.text }, 'box button');
    this.updateLeds(false);
    if (!pushed) this.table.refresh();
  }

  private note(note: { text: string; key: string | null; params: Record<string, string | number>; refused: boolean; rejection?: CommandRejection }, at: number): BoxNote {
    return { seq: ++this.noteSeq, at, ...note };
  }

  /**
   * On a demo station, any button starts a visitor's game when none is being played by people (the
   * attract game, an empty table, a game over): "Press any button to play".
   */
  private visitorGame(): BoxPress<unknown> | null {
    const { table } = this;
    if (table.config.kiosk === null || !(table.attract || !table.adapter.running(table.state))) return null;
    const command = table.session.withDefaults({ type: 'newGame' }) as GameCommand;
    return { controls: table.adapter.box?.initialControls ?? null, command, note: 'a new game: draw the first card (Confirm)', noteKey: 'visitorGame', cue: null };
  }

  private changed(change: TableChange): void {
    const { adapter } = this.table;
    // a new game, or the table reset: no plane stays selected from the last players
    if (REPLAY_STARTS.includes(change.command.type)) this.controls = adapter.box?.initialControls ?? null;
    const behaviour = adapter.box;
    if (behaviour?.afterChange && change.origin !== 'box') this.controls = behaviour.afterChange(this.controls, change.after);
    if (behaviour) {
      const success = behaviour.finishedRoll(change.before, change.rawEvents);
      if (success !== null) {
        this.lastRoll = { success, at: this.now() };
        this.buzz(success ? 'success' : 'fail');
      }
    }
    this.updateLeds(false);
  }

  /** `refresh`: push a fresh snapshot when the lights changed (not needed when a state push follows anyway). */
  private updateLeds(refresh = true): void {
    const behaviour = this.table.adapter.box;
    if (!behaviour) return;
    const leds = behaviour.leds({ state: this.table.state, controls: this.controls, now: this.now(), lastRoll: this.lastRoll, diceUnread: this.table.unreadDice(), trayBusy: this.table.trayBusy() !== null });
    // by themselves (the timer) only the roll and spotted lights change in a way the screens are pushed for (a result's
    // time over, the alarm, a die unread, dice thrown again): a plane light changing alone is low fuel taking turns with selected or
    // rolling every 2 s, which the box shows without every screen being sent the table again
    const timed = (l: LedState | null) => (l ? JSON.stringify({ roll: l.roll, spotted: l.spotted }) : null);
    const changed = timed(leds) !== timed(this.leds);
    this.leds = leds;
    try {
      this.box.setLeds(leds);
    } catch (err) {
      this.log.warn({ table: this.table.id, err }, 'setting the box LEDs failed');
    }
    if (changed && refresh) this.table.refresh();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.box.off('button', this.onButton);
    this.box.off('status', this.onStatus);
    this.table.off('cue', this.onCue);
    this.table.off('applied', this.onChange);
    await this.box.close();
  }
}
