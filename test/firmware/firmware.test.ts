/**
 * The real firmware, end to end: built for the ATmega328P, its host unit tests run, then run in
 * simavr (firmware/sim/fd_sim.c) with its UART on a pty, talked to by the real driver over the
 * real serialport. Skipped with a message when the AVR toolchain is missing, except under CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import type { ButtonEvent } from '../../server/hardware/ports.ts';
import { decodeBoxMessage, type BoxMessage } from '../../server/hardware/serial/messages.ts';
import { formatLine, parseLine } from '../../server/hardware/serial/protocol.ts';
import { openStream, SerialButtonBox } from '../../server/hardware/serial/serial-box.ts';
import { eventually, make, missingTools, SimulatedBox } from './sim-harness.ts';

const missing = missingTools();
if (missing.length > 0 && process.env.CI) throw new Error(`firmware tests need ${missing.join(', ')} (scripts/install-system-deps.sh)`);
if (missing.length > 0) console.warn(`skipping the firmware tests: missing ${missing.join(', ')} (run scripts/install-system-deps.sh)`);

describe.skipIf(missing.length > 0)('box firmware', () => {
  let buildOutput = '';
  let sim: SimulatedBox;
  let pty: string;

  beforeAll(async () => {
    buildOutput = make('all');
    make('sim');
    ({ sim, pty } = await SimulatedBox.start());
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('builds for the ATmega328P and reports flash and RAM use within the chip', () => {
    const flash = /Flash: (\d+) bytes/.exec(buildOutput);
    const ram = /RAM: (\d+) bytes/.exec(buildOutput);
    expect(flash, buildOutput).not.toBeNull();
    expect(ram, buildOutput).not.toBeNull();
    console.info(buildOutput.split('\n').filter((l) => /^(Flash|RAM):/.test(l)).join('\n'));
    expect(Number(flash![1])).toBeLessThan(32256);
    expect(Number(ram![1])).toBeLessThan(1536); // leave the stack at least 512 bytes
  });

  it('passes its host unit tests (protocol, debounce, LEDs, buzzer, fuzzing)', () => {
    expect(make('host-test')).toMatch(/host tests passed: \d+ checks/);
  });

  describe('raw protocol over the pty', () => {
    let port: SerialPort;
    const received: BoxMessage[] = [];
    const rejected: string[] = [];
    let text = '';

    beforeAll(async () => {
      port = await openStream(new SerialPort({ path: pty, baudRate: 57600, autoOpen: false }));
      port.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        let nl: number;
        while ((nl = text.indexOf('\n')) >= 0) {
          const line = text.slice(0, nl);
          text = text.slice(nl + 1);
          const parsed = parseLine(line);
          if (!parsed.ok) {
            rejected.push(line);
            continue;
          }
          const decoded = decodeBoxMessage(parsed.message);
          if (decoded.ok) received.push(decoded.message);
        }
      });
    });
    afterAll(async () => {
      await new Promise((r) => port.close(r));
    });

    const reply = (pred: (m: BoxMessage) => boolean, what: string) =>
      eventually(() => {
        const i = received.findIndex(pred);
        return i >= 0 ? received.splice(i, 1)[0] : undefined;
      }, what);

    it('answers HELLO with its version and capabilities, then ACK', async () => {
      port.write(formatLine(0x40, 'HELLO', ['1']));
      const hello = await reply((m) => m.type === 'hello', 'HELLO');
      expect(hello).toMatchObject({ type: 'hello', product: 'FDBOX', protocol: 1, firmware: '1.0.0' });
      expect([...(hello as Extract<BoxMessage, { type: 'hello' }>).capabilities]).toEqual(expect.arrayContaining(['LED', 'BUZ', 'LONG']));
      await reply((m) => m.type === 'ack' && m.ackSeq === 0x40, 'ACK 40');
    });

    it('answers a heartbeat PING with ACK', async () => {
      port.write(formatLine(0x41, 'PING'));
      await reply((m) => m.type === 'ack' && m.ackSeq === 0x41, 'ACK 41');
    });

    it('rejects a corrupted line, an unknown verb, a bad argument, garbage and an over-long line', async () => {
      const good = formatLine(0x42, 'LED', ['P1', 'ON']);
      port.write(good.replace('P1', 'P2')); // checksum no longer matches
      await reply((m) => m.type === 'error' && m.ackSeq === null && m.code === 'CRC', 'ERR -- CRC');
      port.write(formatLine(0x43, 'FROB'));
      await reply((m) => m.type === 'error' && m.ackSeq === 0x43 && m.code === 'VERB', 'ERR 43 VERB');
      port.write(formatLine(0x44, 'LED', ['P9', 'ON']));
      await reply((m) => m.type === 'error' && m.ackSeq === 0x44 && m.code === 'ARG', 'ERR 44 ARG');
      port.write(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0a]));
      await reply((m) => m.type === 'error' && m.code === 'CHAR', 'ERR -- CHAR');
      port.write(`${'X'.repeat(200)}\n`);
      await reply((m) => m.type === 'error' && m.code === 'LEN', 'ERR -- LEN');
      port.write(good.slice(0, 10) + '\n'); // truncated
      await reply((m) => m.type === 'error' && m.code === 'FRAME', 'ERR -- FRAME');
      // still working afterwards, and the corrupted LED P1 ON was not executed
      port.write(formatLine(0x45, 'PING'));
      await reply((m) => m.type === 'ack' && m.ackSeq === 0x45, 'ACK 45');
      expect((await sim.pins()).pins.P1.level).toBe(0);
    });
  });

  describe('with the driver', () => {
    let box: SerialButtonBox;
    const events: ButtonEvent[] = [];
    const logs: string[] = [];

    beforeAll(async () => {
      box = new SerialButtonBox({ path: pty, heartbeatMs: 200, silenceTimeoutMs: 1500, log: (_l, m) => logs.push(m) });
      box.on('button', (e: ButtonEvent) => events.push(e));
      await box.start();
      await eventually(() => (box.status().state === 'ok' ? true : undefined), 'the driver to connect');
    });
    afterAll(async () => {
      await box?.close();
    });

    it('handshakes', () => {
      expect(box.status()).toMatchObject({ kind: 'real', state: 'ok' });
      expect(box.info()).toMatchObject({ firmware: '1.0.0', protocol: 1, path: pty });
    });

    it('turns a short and a long press into button events', async () => {
      await sim.press('CONFIRM', 150);
      await eventually(() => events.find((e) => e.button === 'confirm'), 'confirm');
      await sim.press('P3', 1200);
      await eventually(() => events.find((e) => e.button === 'plane3'), 'plane3');
      await sim.press('SEARCH', 100);
      await eventually(() => events.find((e) => e.button === 'search'), 'search');
      expect(events.map((e) => [e.button, e.press])).toEqual([
        ['confirm', 'short'],
        ['plane3', 'long'],
        ['search', 'short'],
      ]);
    });

    it('sets the LED pins from setLeds, blinking in the firmware', async () => {
      box.setLeds({ planes: ['on', 'off', 'blink', 'pulse'], spotted: 'on', roll: 'red' });
      const first = await eventually(async () => {
        const s = await sim.pins();
        return s.pins.P1.level === 1 && s.pins.SPOT.level === 1 && s.pins.ROLLR.level === 1 ? s : undefined;
      }, 'LEDs to light');
      const later = await eventually(async () => {
        const s = await sim.pins();
        return s.t - first.t >= 1500 ? s : undefined;
      }, 'time to pass');
      expect(later.pins.P1).toEqual({ level: 1, edges: first.pins.P1.edges });
      expect(later.pins.P2.level).toBe(0);
      expect(later.pins.ROLLG.level).toBe(0);
      expect(later.pins.P3.edges - first.pins.P3.edges).toBeGreaterThanOrEqual(2); // blinked
      expect(later.pins.P4.edges - first.pins.P4.edges).toBeGreaterThanOrEqual(10); // PWM pulse

      box.setLeds({ planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'greenBlink' });
      await eventually(async () => {
        const s = await sim.pins();
        return s.pins.P1.level === 0 && s.pins.SPOT.level === 0 && s.pins.ROLLR.level === 0 && s.pins.ROLLG.edges > 0 ? s : undefined;
      }, 'LEDs to change');
    });

    it('plays a buzzer cue', async () => {
      const before = (await sim.pins()).pins.BUZ.edges;
      box.buzz('success');
      await eventually(async () => ((await sim.pins()).pins.BUZ.edges - before > 100 ? true : undefined), 'the buzzer to sound');
    });

    it('stays connected on heartbeats alone while nothing happens', async () => {
      const start = (await sim.pins()).t;
      await eventually(async () => ((await sim.pins()).t - start > 3000 ? true : undefined), '3 s of quiet');
      expect(box.status().state).toBe('ok');
      expect(logs.filter((l) => /stopped answering/.test(l))).toEqual([]);
    });

    it('notices a frozen box, reconnects when it answers again, and restores the LEDs', async () => {
      box.setLeds({ planes: ['off', 'on', 'off', 'off'], spotted: 'off', roll: 'off' });
      await eventually(async () => ((await sim.pins()).pins.P2.level === 1 ? true : undefined), 'P2 on');
      sim.pause();
      try {
        await eventually(() => (/stopped answering/.test(box.status().message ?? '') ? true : undefined), 'the driver to notice');
        expect(box.status().state).toBe('retrying');
        box.setLeds({ planes: ['off', 'off', 'off', 'on'], spotted: 'off', roll: 'green' }); // while the box is away
      } finally {
        sim.resume();
      }
      await eventually(() => (box.status().state === 'ok' ? true : undefined), 'the reconnection', 20_000);
      await eventually(async () => {
        const s = await sim.pins();
        return s.pins.P4.level === 1 && s.pins.ROLLG.level === 1 && s.pins.P2.level === 0 ? true : undefined;
      }, 'the LED state after reconnecting');
    });
  });
});
