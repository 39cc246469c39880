/**
 * The button box of a table: builds it from the table's serial setting, turns its buttons
 * into commands and keeps its LEDs and buzzer in step with the table.
 */
import type { SerialConfig } from '../config/service-config.ts';
import type { ButtonBox, ButtonEvent, BuzzerCue } from '../hardware/ports.ts';
import { SerialButtonBox } from '../hardware/serial/serial-box.ts';
import type { Table, TableLog } from './table.ts';

export function createBox(config: SerialConfig, log: TableLog, tableId: string): ButtonBox | null {
  const serialLog = (level: 'info' | 'warn' | 'error' | string, message: string) =>
    (level === 'error' ? log.error : level === 'warn' ? log.warn : log.info).call(log, { table: tableId }, `[serial box] ${message}`);
  switch (config.kind) {
    case 'none':
    case 'virtual':
      return null;
    case 'port':
      return new SerialButtonBox({ path: config.path, log: serialLog });
    case 'usb':
      return new SerialButtonBox({ usbIds: [{ vendorId: config.vendorId, productId: config.productId }], log: serialLog });
  }
}

export class BoxLink {
  private readonly onButton = (event: ButtonEvent) => this.button(event);
  private readonly onStatus = () => this.table.refresh();
  private readonly onCue = (cue: BuzzerCue) => this.box.buzz(cue);

  constructor(private readonly table: Table<any>, private readonly box: ButtonBox, private readonly log: TableLog) {}

  async start(): Promise<void> {
    this.box.on('button', this.onButton);
    this.box.on('status', this.onStatus);
    this.table.on('cue', this.onCue);
    await this.box.start();
  }

  private button(event: ButtonEvent): void {
    this.log.info({ table: this.table.id, button: event.button, press: event.press }, 'box button');
  }

  async stop(): Promise<void> {
    this.box.off('button', this.onButton);
    this.box.off('status', this.onStatus);
    this.table.off('cue', this.onCue);
    await this.box.close();
  }
}
