/**
 * Demo-station behaviour of one table (config `kiosk`):
 *  - after `attractAfterMinutes` without anyone playing, the attract mode plays a whole game by
 *    itself (the engine's built-in policy, at a human pace, dice shown on the synthetic camera);
 *    each command is worked out from the table's state when it is due, so the game runs on the
 *    table's clock to a real end (won, lost, or the stopwatch running out there), and a game the
 *    journal restores after a restart carries on; its games are marked as attract and kept out of
 *    the visitors' statistics (counted as attractGames), and the first command a person sends
 *    resets the table (Table.submit);
 *  - `resetAfterGameSeconds` after a game ends, the table is reset for the next visitors;
 *  - a game nobody has touched for `idleResetMinutes` is abandoned and the table reset (one nobody has
 *    made a move in since it started, after `attractAfterMinutes` if that is shorter: Table.idleResetMinutes).
 */
import type { KioskConfig } from '../config/service-config.ts';
import type { GameCommand } from '../games/game-module.ts';
import { seededRandom } from '../dice/index.ts';
import { RESET_TABLE } from './game-session.ts';
import type { Table, TableLog } from './table.ts';

export interface KioskOptions {
  log: TableLog;
  now?: () => number;
  /** how often the kiosk looks at the table */
  tickMs?: number;
  /** pause between two attract-mode commands */
  stepMs?: number;
  /** how long a throw on the synthetic camera may take to reach the table before the faces are entered directly */
  cameraWaitMs?: number;
  /** seconds an attract game's end stays on screen before the next one */
  attractEndSeconds?: number;
  random?: () => number;
}

const sorted = (faces: number[]) => [...faces].sort((a, b) => a - b).join(',');

export class Kiosk {
  private timer: NodeJS.Timeout | null = null;
  /** the attract game's virtual dice (null: this process has not started or taken up the attract game on the table) */
  private dice: (() => number) | null = null;
  private nextStepAt = 0;
  private waitingForCamera: { faces: number[]; until: number } | null = null;
  private readonly now: () => number;
  private readonly stepMs: number;
  private readonly cameraWaitMs: number;
  private readonly attractEndMs: number;
  private readonly random: () => number;

  constructor(private readonly table: Table<any>, private readonly settings: KioskConfig, private readonly options: KioskOptions) {
    this.now = options.now ?? Date.now;
    this.stepMs = options.stepMs ?? 1500;
    this.cameraWaitMs = options.cameraWaitMs ?? 4000;
    this.attractEndMs = (options.attractEndSeconds ?? 20) * 1000;
    this.random = options.random ?? Math.random;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 1000);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look at the table; public so tests can drive it with their own clock. */
  tick(): void {
    const { table, settings } = this;
    const now = this.now();
    const { adapter } = table;
    const state = table.state;
    const outcome = adapter.outcome(state);
    if (table.attract) {
      if (outcome) {
        if (now - outcome.at >= this.attractEndMs) this.reset('the attract game ended');
        return;
      }
      this.step(now);
      return;
    }
    this.dice = null;
    this.waitingForCamera = null;
    if (outcome) {
      if (settings.resetAfterGameSeconds !== null && now - outcome.at >= settings.resetAfterGameSeconds * 1000) this.reset('the game ended');
      return;
    }
    if (adapter.running(state)) {
      const idleMinutes = table.idleResetMinutes();
      if (idleMinutes !== null && table.idleFor() >= idleMinutes * 60_000) this.reset('nobody played for a while');
      return;
    }
    if (settings.attractAfterMinutes !== null && table.idleFor() >= settings.attractAfterMinutes * 60_000) this.startAttract(now);
  }

  private reset(why: string): void {
    this.dice = null;
    this.waitingForCamera = null;
    const ack = this.table.submit({ type: RESET_TABLE }, 'kiosk');
    if (ack.ok) this.options.log.info({ table: this.table.id }, `kiosk: table reset (${why})`);
  }

  private seed(): number {
    return Math.floor(this.random() * 0xffffffff);
  }

  private startAttract(now: number): void {
    const seed = this.seed();
    this.waitingForCamera = null;
    const ack = this.table.submit(this.table.adapter.attractStart(seed), 'attract');
    if (!ack.ok) {
      this.options.log.warn({ table: this.table.id, error: ack.error }, 'kiosk: the attract game could not start');
      return;
    }
    this.dice = seededRandom(seed);
    this.options.log.info({ table: this.table.id, seed }, 'kiosk: attract mode started');
    this.nextStepAt = now + this.stepMs;
  }

  private step(now: number): void {
    const { table } = this;
    if (this.waitingForCamera) {
      const { faces, until } = this.waitingForCamera;
      const seen = table.adapter.rollFaces(table.state);
      if (seen && sorted(seen) === sorted(faces)) {
        this.waitingForCamera = null; // the camera read the throw
        this.nextStepAt = now + this.stepMs;
      } else if (now >= until) {
        this.waitingForCamera = null;
        this.send({ type: 'dice', faces }); // the camera did not read it in time: enter the faces
      }
      return;
    }
    if (now < this.nextStepAt) return;
    if (!this.dice) {
      // the journal restored an attract game this process did not start (a restart): it goes on from there
      this.dice = seededRandom(this.seed());
      this.options.log.info({ table: table.id }, 'kiosk: attract game carried on');
    }
    const command = table.adapter.attractNext(table.state, this.dice);
    if (!command) {
      this.reset('the attract game had no move left');
      return;
    }
    this.nextStepAt = now + this.stepMs;
    if (command.type === 'dice' && table.simulator.throwDice && table.hardware().vision.ready) {
      const faces = command.faces as number[];
      this.waitingForCamera = { faces, until: now + this.cameraWaitMs };
      table.simulator.throwDice({ faces }).catch(() => undefined);
      return;
    }
    this.send(command);
  }

  private send(command: GameCommand): void {
    const ack = this.table.submit(command, 'attract');
    if (!ack.ok) {
      this.options.log.warn({ table: this.table.id, command: command.type, error: ack.error }, 'kiosk: attract command refused; resetting');
      this.reset('an attract command was refused');
    }
  }
}
