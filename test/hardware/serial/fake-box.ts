/**
 * Test double of the box firmware on a SerialPortMock port: answers the protocol like
 * firmware/flightdeck_box (HELLO, PING, LED, BUZ) and can misbehave on request.
 */
import { SerialPortMock } from 'serialport';
import { formatLine, parseLine, type RawMessage } from '../../../server/hardware/serial/protocol.ts';
import { openStream, type PortOpener } from '../../../server/hardware/serial/serial-box.ts';

export class FakeBox {
  readonly leds: Record<string, string> = {};
  readonly buzzes: string[] = [];
  readonly received: RawMessage[] = [];
  /** lines from the driver that do not parse (must stay empty) */
  readonly badLines: string[] = [];
  /** stop answering anything */
  silent = false;
  /** answer LED commands with ERR ARG */
  refuseLeds = false;
  /** forget to ACK the next n LED commands */
  dropAcks = 0;
  capabilities = 'BTN,LONG,LED,PULSE,BUZ';
  protocol = '1';
  private txSeq = 0;
  private text = '';

  constructor(readonly port: SerialPortMock) {
    const binding = port.port!;
    const write = binding.write.bind(binding);
    binding.write = async (buffer: Buffer) => {
      await write(buffer);
      this.onBytes(buffer);
    };
  }

  send(verb: string, args: string[] = []): void {
    this.raw(formatLine(this.txSeq, verb, args));
    this.txSeq = (this.txSeq + 1) & 0xff;
  }

  raw(data: string | Buffer): void {
    this.port.port?.emitData(data);
  }

  hello(): void {
    this.send('HELLO', ['FDBOX', this.protocol, '1.0.0', this.capabilities]);
  }

  /** A reset of the board: every LED off, numbering from 00, the boot HELLO. */
  restart(): void {
    for (const k of Object.keys(this.leds)) delete this.leds[k];
    this.txSeq = 0;
    this.hello();
  }

  ledCommands(): string[] {
    return this.received.filter((m) => m.verb === 'LED').map((m) => m.args.join(' '));
  }

  private onBytes(buffer: Buffer): void {
    this.text += buffer.toString('latin1');
    let nl: number;
    while ((nl = this.text.indexOf('\n')) >= 0) {
      const line = this.text.slice(0, nl);
      this.text = this.text.slice(nl + 1);
      const parsed = parseLine(line);
      if (!parsed.ok) {
        this.badLines.push(`${JSON.stringify(line)}: ${parsed.reason}`);
        continue;
      }
      this.received.push(parsed.message);
      if (!this.silent) this.answer(parsed.message);
    }
  }

  private answer(m: RawMessage): void {
    const seq = m.seq.toString(16).toUpperCase().padStart(2, '0');
    switch (m.verb) {
      case 'HELLO':
        this.hello();
        break;
      case 'LED':
        if (this.refuseLeds) return this.send('ERR', [seq, 'ARG', 'LED']);
        this.leds[m.args[0]] = m.args[1];
        if (this.dropAcks > 0) {
          this.dropAcks--;
          return;
        }
        break;
      case 'BUZ':
        this.buzzes.push(m.args[0]);
        break;
      case 'PING':
        break;
      default:
        return this.send('ERR', [seq, 'VERB', m.verb]);
    }
    this.send('ACK', [seq]);
  }
}

/** An opener for the driver that puts a FakeBox on every port it opens. */
export function fakeBoxOpener(boxes: FakeBox[], setup: (box: FakeBox) => void = () => {}): PortOpener {
  return async (path, baudRate) => {
    const port = await openStream(new SerialPortMock({ path, baudRate, autoOpen: false }));
    const box = new FakeBox(port);
    setup(box);
    boxes.push(box);
    return port;
  };
}

export function disconnectedError(): Error & { disconnected: true } {
  return Object.assign(new Error('device reports readiness to read but returned no data (unplugged)'), { disconnected: true as const });
}

export async function eventually<T>(check: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
