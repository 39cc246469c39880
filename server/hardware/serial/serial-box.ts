/**
 * The USB serial button/LED box (firmware/flightdeck_box) as a ButtonBox.
 * Opens a configured port or finds the box by USB id, handshakes (HELLO), turns its lines into
 * 'button' events, keeps its LEDs equal to the last setLeds() (sending only what changed, re-sent
 * after every reconnect or box restart), pings it, and reconnects with backoff when it is
 * unplugged or falls silent. Bad input from the box is rejected and logged (rate-limited); it
 * never throws out of the driver.
 */
import { EventEmitter } from 'node:events';
import { SerialPort } from 'serialport';
import type { DeviceStatus } from '../../http/protocol.ts';
import type { BoxButton, ButtonBox, ButtonEvent, BuzzerCue, LedState } from '../ports.ts';
import { LineSplitter } from './line-splitter.ts';
import {
  ALL_OFF,
  BUZZER_CUES,
  decodeBoxMessage,
  LED_TARGETS,
  ledStateProblem,
  ledValues,
  type BoxMessage,
  type LedTarget,
} from './messages.ts';
import { DEFAULT_USB_IDS, guardedSystemList, listPortsSafely, pickPort, type PortInfoLike, type UsbId } from './port-finder.ts';
import { formatLine, parseLine, PROTOCOL_VERSION } from './protocol.ts';
import { consoleLog, RateLimitedLog, type LogFn } from './rate-limited-log.ts';

/** The part of a serialport stream the driver uses (SerialPort and SerialPortMock have it). */
export interface BoxPort {
  write(data: string, callback?: (err: Error | null | undefined) => void): boolean;
  close(callback?: (err?: Error | null) => void): void;
  on(event: 'data', listener: (chunk: Buffer) => void): this;
  on(event: 'close', listener: (err?: (Error & { disconnected?: boolean }) | null) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  removeAllListeners(): this;
}

export type PortOpener = (path: string, baudRate: number) => Promise<BoxPort>;

export interface OpenablePort extends BoxPort {
  open(callback: (err: Error | null) => void): void;
}

/** Opens a port created with autoOpen: false. */
export function openStream<P extends OpenablePort>(port: P): Promise<P> {
  return new Promise((resolve, reject) => port.open((err) => (err ? reject(err) : resolve(port))));
}

export const openSerialPort: PortOpener = (path, baudRate) => openStream(new SerialPort({ path, baudRate, autoOpen: false }));

export interface SerialBoxOptions {
  /** fixed port path (e.g. /dev/ttyACM0 or a udev symlink); without it the box is found by USB id */
  path?: string;
  usbIds?: UsbId[];
  baudRate?: number;
  openPort?: PortOpener;
  listPorts?: () => Promise<PortInfoLike[]>;
  /** how often the box is pinged once ready */
  heartbeatMs?: number;
  /** nothing heard from the box for this long: it is lost, reconnect */
  silenceTimeoutMs?: number;
  /** no HELLO this long after opening (boards reset when opened: bootloader ~2 s): not a box, retry */
  helloTimeoutMs?: number;
  helloRetryMs?: number;
  /** an LED command not acknowledged this long is sent again */
  ackTimeoutMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** internal timer period (hello retries, ack timeouts, heartbeat) */
  tickMs?: number;
  maxButtonsPerSecond?: number;
  maxLinesPerSecond?: number;
  log?: LogFn;
  now?: () => number;
}

export interface BoxInfo {
  path: string;
  firmware: string;
  protocol: number;
  capabilities: string[];
}

type Phase = 'idle' | 'connecting' | 'handshake' | 'ready' | 'waiting' | 'closed';

/** Why a port did not open, without the path serialport repeats ("Error: No such file or directory, cannot open /dev/ttyACM0"). */
export function whyNotOpened(err: Error): string {
  const why = err.message.replace(/^Error: /, '').replace(/, cannot open \S+$/, '');
  return /permission denied/i.test(why) ? `${why} (the service's user must be in the dialout group: hardware.md, "Troubleshooting")` : why;
}

/** A line's sequence number as the wire writes it (two hex digits), to match a serial capture. */
function wireSeq(seq: number | null): string {
  return seq === null ? '--' : seq.toString(16).toUpperCase().padStart(2, '0');
}

interface Inflight {
  target: LedTarget;
  value: string;
  sentAt: number;
}

export class SerialButtonBox extends EventEmitter implements ButtonBox {
  readonly kind = 'real' as const;
  private readonly o: Required<Omit<SerialBoxOptions, 'path' | 'log'>> & { path: string | undefined };
  private readonly log: RateLimitedLog;
  private current: DeviceStatus = { kind: 'real', state: 'off', message: 'not started' };
  private phase: Phase = 'idle';
  private port: BoxPort | null = null;
  private portPath = '';
  private generation = 0;
  private splitter: LineSplitter;
  private tickTimer: NodeJS.Timeout | null = null;
  /** what went wrong last, until the box answers again */
  private lastProblem: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempts = 0;
  private txSeq = 0;
  private lastBoxSeq: number | null = null;
  private lastHeard = 0;
  private lastPing = 0;
  private handshakeStart = 0;
  private lastHello = 0;
  private capabilities = new Set<string>();
  private boxInfo: BoxInfo | null = null;
  private desired: LedState = structuredClone(ALL_OFF);
  private confirmed: Partial<Record<LedTarget, string>> = {};
  private inflight = new Map<number, Inflight>();
  private refused: Partial<Record<LedTarget, { value: string; count: number }>> = {};
  private buttonTimes: number[] = [];
  /** the closing of the previous port: a reconnect waits for it (an exclusive port cannot be opened twice) */
  private closing: Promise<void> = Promise.resolve();

  constructor(options: SerialBoxOptions = {}) {
    super();
    this.o = {
      path: options.path,
      usbIds: options.usbIds ?? DEFAULT_USB_IDS,
      baudRate: options.baudRate ?? 57600,
      openPort: options.openPort ?? openSerialPort,
      listPorts: options.listPorts ?? guardedSystemList(() => SerialPort.list()),
      heartbeatMs: options.heartbeatMs ?? 1000,
      silenceTimeoutMs: options.silenceTimeoutMs ?? 3500,
      helloTimeoutMs: options.helloTimeoutMs ?? 6000,
      helloRetryMs: options.helloRetryMs ?? 1000,
      ackTimeoutMs: options.ackTimeoutMs ?? 800,
      retryMinMs: options.retryMinMs ?? 500,
      retryMaxMs: options.retryMaxMs ?? 10_000,
      tickMs: options.tickMs ?? 100,
      maxButtonsPerSecond: options.maxButtonsPerSecond ?? 10,
      maxLinesPerSecond: options.maxLinesPerSecond ?? 200,
      now: options.now ?? Date.now,
    };
    this.log = new RateLimitedLog(options.log ?? consoleLog, 5000, this.o.now);
    this.splitter = new LineSplitter({ maxLinesPerSecond: this.o.maxLinesPerSecond });
  }

  status(): DeviceStatus {
    return { ...this.current };
  }

  /** What the box said in its HELLO (null until the first handshake). */
  info(): BoxInfo | null {
    return this.boxInfo ? { ...this.boxInfo, capabilities: [...this.boxInfo.capabilities] } : null;
  }

  /** Tries to connect once; on failure keeps retrying in the background. Never throws. */
  async start(): Promise<void> {
    if (this.phase !== 'idle') return;
    this.tickTimer = setInterval(() => this.tick(), this.o.tickMs);
    this.tickTimer.unref?.();
    await this.connect();
  }

  setLeds(state: LedState): void {
    const problem = ledStateProblem(state);
    if (problem) throw new TypeError(`setLeds: ${problem}`);
    this.desired = structuredClone(state);
    this.syncLeds();
  }

  buzz(cue: BuzzerCue): void {
    const code = Object.hasOwn(BUZZER_CUES, cue) ? BUZZER_CUES[cue] : undefined;
    if (!code) throw new TypeError(`buzz: unknown cue ${JSON.stringify(cue)}`);
    if (this.phase !== 'ready') {
      this.log.write('info', 'buzz-dropped', `buzzer cue ${cue} dropped: the box is not connected`);
      return;
    }
    if (this.capabilities.has('BUZ')) this.send('BUZ', [code]);
  }

  async close(): Promise<void> {
    this.phase = 'closed';
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.tickTimer = this.retryTimer = null;
    await this.dropPort();
    await this.closing;
    this.setStatus('off', 'closed');
  }

  // ---- connection ----

  private async connect(): Promise<void> {
    if (this.phase === 'closed') return;
    this.phase = 'connecting';
    await this.closing;
    if (this.phase !== 'connecting') return;
    // while it tries again, the status keeps saying what went wrong (the dashboard shows it)
    this.setStatus('retrying', this.attempts === 0 ? 'connecting' : `${this.lastProblem ?? 'lost'}; reconnecting (attempt ${this.attempts + 1})`);
    let path = this.o.path;
    if (!path) {
      const listed = await listPortsSafely(this.o.listPorts);
      if (!listed.ok) return this.retry(listed.reason);
      path = pickPort(listed.ports, this.o.usbIds) ?? undefined;
      if (!path) {
        const ids = this.o.usbIds.map((i) => `${i.vendorId}:${i.productId}`).join(', ');
        return this.retry(`no serial port with USB id ${ids} (box unplugged?)`);
      }
    }
    let port: BoxPort;
    try {
      port = await this.o.openPort(path, this.o.baudRate);
    } catch (err) {
      return this.retry(`cannot open ${path}: ${whyNotOpened(err as Error)}`);
    }
    if (this.phase !== 'connecting') {
      port.close();
      return;
    }
    const gen = ++this.generation;
    this.port = port;
    this.portPath = path;
    this.splitter = new LineSplitter({ maxLinesPerSecond: this.o.maxLinesPerSecond });
    port.on('data', (chunk: Buffer) => {
      if (gen === this.generation) this.onData(chunk);
    });
    port.on('close', (err) => {
      if (gen === this.generation) this.lost(err?.disconnected ? `box unplugged from ${path}` : `port ${path} closed`);
    });
    port.on('error', (err: Error) => {
      if (gen === this.generation) this.lost(`port ${path} failed: ${err.message}`);
    });
    this.phase = 'handshake';
    this.handshakeStart = this.o.now();
    this.lastHeard = this.handshakeStart;
    this.setStatus('retrying', this.lastProblem ? `${this.lastProblem}; opened ${path} again, waiting for the box to say hello` : `opened ${path}, waiting for the box to say hello`);
    this.sendHello();
  }

  private retry(reason: string): void {
    if (this.phase === 'closed') return;
    this.phase = 'waiting';
    const delay = Math.min(this.o.retryMaxMs, this.o.retryMinMs * 2 ** Math.min(this.attempts, 16));
    this.attempts++;
    this.lastProblem = reason;
    this.log.write('warn', `retry:${reason}`, `${reason}; retrying in ${(delay / 1000).toFixed(1)} s`);
    this.setStatus('retrying', reason);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref?.();
  }

  private lost(reason: string): void {
    if (this.phase === 'closed' || this.phase === 'waiting' || this.phase === 'connecting') return;
    const dropped = this.splitter.reset();
    if (dropped) this.log.write('warn', 'truncated', `rejected from the box: ${dropped.reason}`);
    this.closing = this.dropPort();
    this.retry(reason);
  }

  private async dropPort(): Promise<void> {
    const port = this.port;
    this.port = null;
    this.generation++;
    this.inflight.clear();
    if (!port) return;
    port.removeAllListeners();
    port.on('error', () => {}); // a late error from a port being dropped must not crash the process
    await new Promise<void>((resolve) => {
      try {
        port.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }

  private tick(): void {
    const now = this.o.now();
    if (this.phase === 'handshake') {
      if (now - this.handshakeStart > this.o.helloTimeoutMs) {
        this.lost(`no HELLO from ${this.portPath} within ${this.o.helloTimeoutMs} ms (is it the box? right baud rate?)`);
      } else if (now - this.lastHello >= this.o.helloRetryMs) {
        this.sendHello();
      }
      return;
    }
    if (this.phase !== 'ready') return;
    const stale = this.splitter.flushStale(now);
    if (stale) this.log.write('warn', 'truncated', `rejected from the box: ${stale.reason}`);
    if (now - this.lastHeard > this.o.silenceTimeoutMs) {
      this.lost(`the box stopped answering (nothing for ${now - this.lastHeard} ms)`);
      return;
    }
    if (now - this.lastPing >= this.o.heartbeatMs) {
      this.lastPing = now;
      this.send('PING');
    }
    let expired = false;
    for (const [seq, f] of this.inflight) {
      if (now - f.sentAt > this.o.ackTimeoutMs) {
        this.inflight.delete(seq);
        expired = true;
      }
    }
    if (expired) this.syncLeds();
  }

  private sendHello(): void {
    this.lastHello = this.o.now();
    this.send('HELLO', [String(PROTOCOL_VERSION)]);
  }

  private send(verb: string, args: string[] = []): number {
    const seq = this.txSeq;
    this.txSeq = (this.txSeq + 1) & 0xff;
    const port = this.port;
    if (!port) return seq;
    port.write(formatLine(seq, verb, args), (err) => {
      if (err) this.log.write('warn', 'write', `cannot write to the box: ${err.message}`);
    });
    return seq;
  }

  // ---- incoming ----

  private onData(chunk: Buffer): void {
    const now = this.o.now();
    for (const item of this.splitter.push(chunk, now)) {
      if (item.kind === 'dropped') {
        this.log.write('warn', `dropped:${item.error}`, `rejected from the box: ${item.reason}`);
        continue;
      }
      const parsed = parseLine(item.line);
      if (!parsed.ok) {
        this.log.write('warn', `bad:${parsed.error}`, `rejected a line from the box (${parsed.error}): ${parsed.reason}: ${JSON.stringify(item.line.slice(0, 80))}`);
        continue;
      }
      const decoded = decodeBoxMessage(parsed.message);
      if (!decoded.ok) {
        this.log.write('warn', 'bad:decode', `rejected a line from the box: ${decoded.reason}`);
        continue;
      }
      this.lastHeard = now;
      this.onMessage(decoded.message, now);
      if (this.phase === 'closed' || this.port === null) return;
    }
  }

  private onMessage(m: BoxMessage, now: number): void {
    if (m.type !== 'hello' && this.lastBoxSeq !== null && m.seq !== ((this.lastBoxSeq + 1) & 0xff)) {
      const missing = (m.seq - this.lastBoxSeq - 1 + 256) & 0xff;
      this.log.write('warn', 'seq-gap', `${missing} line(s) from the box were lost (sequence ${wireSeq(m.seq)} after ${wireSeq(this.lastBoxSeq)}, hex as on the wire)`);
    }
    this.lastBoxSeq = m.seq;
    switch (m.type) {
      case 'hello':
        return this.onHello(m);
      case 'button':
        if (this.phase === 'ready') this.onButton(m.button, m.press, now);
        return;
      case 'ack': {
        const f = this.inflight.get(m.ackSeq);
        if (f) {
          this.inflight.delete(m.ackSeq);
          this.confirmed[f.target] = f.value;
          delete this.refused[f.target];
        }
        return;
      }
      case 'error':
        return this.onBoxError(m.ackSeq, m.code, m.detail);
      case 'unknown':
        this.log.write('info', `unknown:${m.verb}`, `ignored ${m.verb} from the box (newer firmware?)`);
        return;
    }
  }

  private onHello(m: Extract<BoxMessage, { type: 'hello' }>): void {
    if (m.product !== 'FDBOX' || m.protocol !== PROTOCOL_VERSION) {
      const reason = `${this.portPath} answered as ${m.product} protocol ${m.protocol}; this driver speaks FDBOX protocol ${PROTOCOL_VERSION} (flash the matching firmware)`;
      this.log.write('error', 'bad-hello', reason);
      this.closing = this.dropPort();
      this.attempts = Math.max(this.attempts, 16);
      this.retry(reason);
      this.setStatus('error', reason);
      return;
    }
    // the boot HELLO is the box's first line (sequence 00); a later one answers our HELLO
    if (this.phase === 'ready' && m.seq !== 0) {
      this.boxInfo = { path: this.portPath, firmware: m.firmware, protocol: m.protocol, capabilities: [...m.capabilities] };
      return;
    }
    const restarted = this.phase === 'ready';
    this.phase = 'ready';
    this.attempts = 0;
    this.capabilities = m.capabilities;
    this.boxInfo = { path: this.portPath, firmware: m.firmware, protocol: m.protocol, capabilities: [...m.capabilities] };
    // the box starts with every LED off and may have restarted: send the whole state again
    this.confirmed = {};
    this.inflight.clear();
    this.refused = {};
    this.lastPing = this.o.now();
    this.setStatus('ok', `box firmware ${m.firmware} on ${this.portPath}`);
    // after a problem the log says it is over (the warnings said it began)
    if (this.lastProblem) this.log.always('info', `box connected again: firmware ${m.firmware} on ${this.portPath} (was: ${this.lastProblem})`);
    this.lastProblem = null;
    if (restarted) this.log.always('info', `the box said hello again (restarted?); LED state re-sent`);
    this.syncLeds();
  }

  private onButton(button: BoxButton, press: 'short' | 'long', now: number): void {
    this.buttonTimes = this.buttonTimes.filter((t) => now - t < 1000);
    if (this.buttonTimes.length >= this.o.maxButtonsPerSecond) {
      this.log.write('warn', 'button-flood', `more than ${this.o.maxButtonsPerSecond} button events a second: ignoring ${button} (stuck or shorted button?)`);
      return;
    }
    this.buttonTimes.push(now);
    const event: ButtonEvent = { button, press, at: now };
    this.emit('button', event);
  }

  private onBoxError(ackSeq: number | null, code: string, detail: string | null): void {
    const f = ackSeq === null ? undefined : this.inflight.get(ackSeq);
    const which = ackSeq === null ? 'a line it could not read' : `line ${wireSeq(ackSeq)}${f ? ` (${f.target} ${f.value})` : ''}`;
    this.log.write('warn', `box-err:${code}`, `the box rejected ${which}: ${code}${detail ? ` ${detail}` : ''}`);
    if (!f || ackSeq === null) return; // unreadable lines are re-sent when their ACK times out
    this.inflight.delete(ackSeq);
    const r = this.refused[f.target];
    const count = r && r.value === f.value ? r.count + 1 : 1;
    this.refused[f.target] = { value: f.value, count };
    if (count >= 3) this.log.always('error', `the box refuses LED ${f.target} ${f.value} (${code}); not sending it again until the state changes`);
    else this.syncLeds();
  }

  private syncLeds(): void {
    if (this.phase !== 'ready' || !this.capabilities.has('LED')) return;
    const values = ledValues(this.desired, this.capabilities.has('PULSE'));
    const now = this.o.now();
    for (const target of LED_TARGETS) {
      const value = values[target];
      if (this.confirmed[target] === value) continue;
      const r = this.refused[target];
      if (r && r.value === value && r.count >= 3) continue;
      let pending = false;
      for (const f of this.inflight.values()) if (f.target === target && f.value === value) pending = true;
      if (pending) continue;
      const seq = this.send('LED', [target, value]);
      this.inflight.set(seq, { target, value, sentAt: now });
    }
  }

  private setStatus(state: DeviceStatus['state'], message: string): void {
    if (this.current.state === state && this.current.message === message) return;
    this.current = { kind: 'real', state, message };
    this.emit('status', this.status());
  }
}
