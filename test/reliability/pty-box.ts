/**
 * A stand-in for the box firmware on the far end of a socat pty pair: the service opens one end as
 * its serial port (the real serialport driver), this answers on the other like firmware/flightdeck_box
 * (HELLO, ACK, BTN lines with sequence numbers and CRC), and can misbehave: garbage, truncated and
 * over-long lines, floods, silence, and being unplugged (socat killed) and plugged back in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { formatLine, parseLine } from '../../server/hardware/serial/protocol.ts';

export function socatAvailable(): boolean {
  return ['/usr/bin/socat', '/bin/socat', '/usr/local/bin/socat'].some((p) => existsSync(p));
}

const BUTTON_CODES: Record<string, string> = {
  plane1: 'P1', plane2: 'P2', plane3: 'P3', plane4: 'P4', move: 'MOVE', attack: 'ATTACK', search: 'SEARCH', takeoffLanding: 'TOL', confirm: 'CONFIRM', undo: 'UNDO',
};

export class PtyBox {
  private socat: ChildProcess | null = null;
  private port: SerialPort | null = null;
  private txSeq = 0;
  private text = '';
  silent = false;
  readonly received: string[] = [];

  /** `hostPath` is what the service opens; `boxPath` the end this object speaks on */
  constructor(readonly hostPath: string, readonly boxPath: string) {}

  /** Starts the pty pair (plugged in) and opens the box end. */
  async plug(): Promise<void> {
    this.socat = spawn('socat', [`pty,raw,echo=0,link=${this.hostPath}`, `pty,raw,echo=0,link=${this.boxPath}`], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !(existsSync(this.hostPath) && existsSync(this.boxPath)); i++) await new Promise((r) => setTimeout(r, 20));
    if (!existsSync(this.boxPath)) throw new Error('socat did not create the pty pair');
    const port = new SerialPort({ path: this.boxPath, baudRate: 57600, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    port.on('data', (chunk: Buffer) => this.onBytes(chunk));
    port.on('error', () => {});
    this.port = port;
    this.txSeq = 0;
    this.send('HELLO', ['FDBOX', '1', '1.0.0', 'BTN,LONG,LED,PULSE,BUZ']); // boot HELLO, sequence 00
  }

  /** Pulls the cable: the pty pair disappears. */
  async unplug(): Promise<void> {
    const port = this.port;
    this.port = null;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    const socat = this.socat;
    this.socat = null;
    if (socat && socat.exitCode === null) {
      const gone = new Promise((r) => socat.once('exit', r));
      socat.kill('SIGTERM');
      await gone;
    }
  }

  press(button: string, long = false): void {
    this.send('BTN', [BUTTON_CODES[button], long ? 'L' : 'S']);
  }

  send(verb: string, args: string[] = []): void {
    this.raw(formatLine(this.txSeq, verb, args));
    this.txSeq = (this.txSeq + 1) & 0xff;
  }

  raw(data: string | Buffer): void {
    this.port?.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  }

  private onBytes(chunk: Buffer): void {
    this.text += chunk.toString('latin1');
    let nl: number;
    while ((nl = this.text.indexOf('\n')) >= 0) {
      const line = this.text.slice(0, nl);
      this.text = this.text.slice(nl + 1);
      this.received.push(line);
      if (this.silent) continue;
      const parsed = parseLine(line);
      if (!parsed.ok) continue;
      const { seq, verb } = parsed.message;
      const ack = seq.toString(16).toUpperCase().padStart(2, '0');
      if (verb === 'HELLO') this.send('HELLO', ['FDBOX', '1', '1.0.0', 'BTN,LONG,LED,PULSE,BUZ']);
      this.send('ACK', [ack]);
    }
  }
}
