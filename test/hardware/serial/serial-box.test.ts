import { afterEach, describe, expect, it } from 'vitest';
import { SerialPortMock } from 'serialport';
import type { DeviceStatus } from '../../../server/http/protocol.ts';
import type { ButtonEvent, LedState } from '../../../server/hardware/ports.ts';
import { SerialButtonBox, whyNotOpened, type SerialBoxOptions } from '../../../server/hardware/serial/serial-box.ts';
import { disconnectedError, eventually, fakeBoxOpener, FakeBox } from './fake-box.ts';

const FAST: SerialBoxOptions = {
  heartbeatMs: 50,
  silenceTimeoutMs: 400,
  helloRetryMs: 100,
  helloTimeoutMs: 1000,
  ackTimeoutMs: 150,
  retryMinMs: 20,
  retryMaxMs: 200,
  tickMs: 10,
};

const STATE: LedState = { planes: ['on', 'off', 'blink', 'pulse'], spotted: 'on', roll: 'greenBlink' };
const EXPECTED = { P1: 'ON', P2: 'OFF', P3: 'BLINK', P4: 'PULSE', SPOT: 'ON', ROLL: 'GBLINK' };

let counter = 0;
let open: SerialButtonBox[] = [];

function setup(options: SerialBoxOptions = {}, boxSetup?: (b: FakeBox) => void) {
  const path = `/dev/fake-box-${++counter}`;
  SerialPortMock.binding.createPort(path, { echo: false, record: false });
  const boxes: FakeBox[] = [];
  const logs: string[] = [];
  const events: ButtonEvent[] = [];
  const statuses: DeviceStatus[] = [];
  const box = new SerialButtonBox({ ...FAST, path, openPort: fakeBoxOpener(boxes, boxSetup), log: (level, m) => logs.push(`${level}: ${m}`), ...options });
  box.on('button', (e: ButtonEvent) => events.push(e));
  box.on('status', (s: DeviceStatus) => statuses.push(s));
  open.push(box);
  const last = () => boxes[boxes.length - 1];
  const ready = () => eventually(() => box.status().state === 'ok', 'the box to be ready');
  return { path, box, boxes, last, logs, events, statuses, ready };
}

afterEach(async () => {
  for (const b of open) await b.close();
  open = [];
});

describe('SerialButtonBox', () => {
  it('handshakes, then sends the whole LED state, then only what changed', async () => {
    const t = setup();
    t.box.setLeds(STATE); // before the box is there: kept and sent after the hello
    await t.box.start();
    await t.ready();
    expect(t.box.info()).toMatchObject({ firmware: '1.0.0', protocol: 1, capabilities: ['BTN', 'LONG', 'LED', 'PULSE', 'BUZ'] });
    await eventually(() => Object.keys(t.last().leds).length === 6, 'six LED commands');
    expect(t.last().leds).toEqual(EXPECTED);
    const sent = t.last().ledCommands().length;
    t.box.setLeds({ ...STATE, planes: ['on', 'on', 'blink', 'pulse'] });
    t.box.setLeds({ ...STATE, planes: ['on', 'on', 'blink', 'pulse'] });
    await eventually(() => t.last().leds.P2 === 'ON', 'P2 on');
    await new Promise((r) => setTimeout(r, 100));
    expect(t.last().ledCommands().slice(sent)).toEqual(['P2 ON']);
    expect(t.last().badLines).toEqual([]);
  });

  it('emits short and long button events', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    t.last().send('BTN', ['P1', 'S']);
    t.last().send('BTN', ['CONFIRM', 'L']);
    t.last().send('BTN', ['TOL', 'S']);
    await eventually(() => t.events.length === 3, 'three events');
    expect(t.events.map((e) => [e.button, e.press])).toEqual([
      ['plane1', 'short'],
      ['confirm', 'long'],
      ['takeoffLanding', 'short'],
    ]);
  });

  it('plays buzzer cues, and maps pulse to blink on a box without PULSE', async () => {
    const t = setup({}, (b) => (b.capabilities = 'BTN,LED,BUZ'));
    await t.box.start();
    await t.ready();
    t.box.buzz('success');
    t.box.buzz('lastMinute');
    t.box.setLeds(STATE);
    await eventually(() => t.last().buzzes.length === 2 && t.last().leds.ROLL === 'GBLINK', 'cues and LEDs');
    expect(t.last().buzzes).toEqual(['OK', 'LAST']);
    expect(t.last().leds.P4).toBe('BLINK');
  });

  it('rejects garbage bytes, truncated and over-long lines with a logged reason, and keeps working', async () => {
    const t = setup({ silenceTimeoutMs: 3000 });
    await t.box.start();
    await t.ready();
    const fake = t.last();
    fake.raw(Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a]));
    fake.raw('noise without a checksum\n');
    fake.raw('05 BTN P1 S *00\n'); // bad checksum
    fake.silent = true; // no ACKs to the pings meanwhile, they would be glued to the partial line
    fake.raw('05 BTN P1'); // truncated, the rest never comes
    await new Promise((r) => setTimeout(r, 700)); // longer than the splitter's stale limit
    fake.silent = false;
    fake.raw('06 BTN P'); // truncated, then a good line glued to it: rejected as one bad line
    fake.send('PING');
    fake.raw(`${'A'.repeat(5000)}\n`);
    fake.send('BTN', ['UNDO', 'S']);
    await eventually(() => t.events.length === 1, 'the good event');
    expect(t.events[0]).toMatchObject({ button: 'undo', press: 'short' });
    const text = t.logs.join('\n');
    expect(text).toMatch(/CHAR/);
    expect(text).toMatch(/FRAME/);
    expect(text).toMatch(/CRC/);
    expect(text).toMatch(/partial line/);
    expect(text).toMatch(/5001 bytes dropped, the limit is 64/);
    expect(t.box.status().state).toBe('ok');
  });

  it('survives a flood of lines: bounded events, rate-limited log', async () => {
    // a frozen clock: everything below happens within one rate-limit window, however slow the machine
    const t = setup({ maxButtonsPerSecond: 10, maxLinesPerSecond: 200, now: () => 1_000_000 });
    await t.box.start();
    await t.ready();
    const fake = t.last();
    for (let i = 0; i < 100; i++) fake.send('BTN', ['MOVE', 'S']);
    const flood: string[] = [];
    for (let i = 0; i < 3000; i++) flood.push(`${(i & 0xff).toString(16).toUpperCase().padStart(2, '0')} BTN P2 S *00\n`);
    fake.raw(flood.join('')); // bad checksums
    await eventually(() => t.logs.some((l) => /lines a second/.test(l)), 'the flood to be noticed');
    expect(t.events.length).toBe(10);
    expect(t.events.every((e) => e.button === 'move')).toBe(true);
    expect(t.logs.some((l) => /more than 10 button events a second/.test(l))).toBe(true);
    expect(t.logs.length).toBeLessThan(10);
    expect(t.box.status().state).toBe('ok');
  });

  it('notices a box that stops answering, reconnects and re-sends the LED state', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    t.box.setLeds(STATE);
    await eventually(() => t.last().leds.ROLL === 'GBLINK', 'LEDs');
    const first = t.last();
    first.silent = true;
    await eventually(() => t.statuses.find((s) => s.state === 'retrying' && /stopped answering/.test(s.message ?? '')), 'the loss');
    await eventually(() => t.boxes.length >= 2 && t.box.status().state === 'ok', 'the reconnection');
    await eventually(() => Object.keys(t.last().leds).length === 6, 'the LED state again');
    expect(t.last().leds).toEqual(EXPECTED);
    // every status while it came back still said why (the dashboard shows the last one), and the log says it is over
    const between = t.statuses.slice(t.statuses.findIndex((s) => /stopped answering/.test(s.message ?? ''))).filter((s) => s.state === 'retrying');
    expect(between.length).toBeGreaterThan(1);
    for (const s of between) expect(s.message).toMatch(/stopped answering/);
    expect(t.logs.some((l) => /^info: box connected again: firmware .* \(was: the box stopped answering/.test(l))).toBe(true);
  });

  it('survives unplugging and replugging with no lost LED state', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    t.box.setLeds(STATE);
    await eventually(() => t.last().leds.ROLL === 'GBLINK', 'LEDs');
    // unplug: the device disappears and the port closes with a disconnect error
    SerialPortMock.binding.reset();
    t.last().port.close(undefined, disconnectedError());
    await eventually(() => /unplugged/.test(t.box.status().message ?? ''), 'the unplug status');
    expect(t.box.status().state).toBe('retrying');
    // changes while unplugged are kept
    t.box.setLeds({ ...STATE, spotted: 'blink' });
    expect(() => t.box.buzz('tick')).not.toThrow();
    await eventually(() => t.logs.some((l) => /Port does not exist/.test(l)), 'a failed reopen');
    SerialPortMock.binding.createPort(t.path, { echo: false, record: false });
    await eventually(() => t.boxes.length === 2 && t.box.status().state === 'ok', 'the reconnection');
    await eventually(() => Object.keys(t.last().leds).length === 6, 'the LED state again');
    expect(t.last().leds).toEqual({ ...EXPECTED, SPOT: 'BLINK' });
  });

  it('re-sends the LED state when the box restarts by itself', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    t.box.setLeds(STATE);
    await eventually(() => t.last().leds.ROLL === 'GBLINK', 'LEDs');
    const fake = t.last();
    const sent = fake.ledCommands().length;
    fake.hello(); // a HELLO that is not the boot one (sequence != 00) changes nothing
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.ledCommands().length).toBe(sent);
    fake.restart();
    await eventually(() => Object.keys(fake.leds).length === 6, 'the LED state again');
    expect(fake.leds).toEqual(EXPECTED);
    expect(t.logs.some((l) => /restarted/.test(l))).toBe(true);
  });

  it('re-sends an LED command whose ACK never came, and gives up on one the box refuses', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    await eventually(() => Object.keys(t.last().leds).length === 6, 'the initial LED state');
    await new Promise((r) => setTimeout(r, 50));
    t.last().dropAcks = 1;
    t.box.setLeds({ ...STATE, planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'red' });
    await eventually(() => t.last().ledCommands().filter((c) => c === 'ROLL R').length === 2, 'the re-sent command');
    t.last().refuseLeds = true;
    t.box.setLeds({ ...STATE, planes: ['off', 'off', 'off', 'off'], spotted: 'off', roll: 'green' });
    await eventually(() => t.logs.some((l) => /refuses LED ROLL G/.test(l)), 'giving up');
    // each refusal names the line as the wire numbers it, and what it asked for
    expect(t.logs.some((l) => /the box rejected line [0-9A-F]{2} \(ROLL G\): ARG/.test(l))).toBe(true);
    const sent = t.last().ledCommands().filter((c) => c === 'ROLL G').length;
    await new Promise((r) => setTimeout(r, 300));
    expect(t.last().ledCommands().filter((c) => c === 'ROLL G').length).toBe(sent);
    expect(sent).toBe(3);
  });

  it('reports a box speaking another protocol version as an error', async () => {
    const t = setup({}, (b) => (b.protocol = '2'));
    await t.box.start();
    await eventually(() => t.box.status().state === 'error', 'the error status');
    expect(t.box.status().message).toMatch(/protocol 2.*speaks FDBOX protocol 1/);
  });

  it('keeps retrying when the port cannot be opened, and reports why', async () => {
    const t = setup();
    const box = new SerialButtonBox({ ...FAST, path: '/dev/nothing-here', openPort: fakeBoxOpener([]), log: () => {} });
    open.push(box);
    await box.start();
    expect(box.status()).toMatchObject({ kind: 'real', state: 'retrying' });
    expect(box.status().message).toMatch(/cannot open \/dev\/nothing-here/);
    // said once, the path (serialport's own message repeats it)
    expect(whyNotOpened(new Error('Error: No such file or directory, cannot open /dev/ttyACM0'))).toBe('No such file or directory');
    expect(whyNotOpened(new Error('Error: Permission denied, cannot open /dev/ttyACM0'))).toBe('Permission denied (the service\'s user must be in the dialout group: hardware.md, "Troubleshooting")');
    expect(t.box.status().state).toBe('off');
  });

  it('finds the box by USB vendor/product id', async () => {
    const path = `/dev/fake-usb-${++counter}`;
    SerialPortMock.binding.createPort(`/dev/other-${counter}`, { vendorId: '0403', productId: '6015' });
    SerialPortMock.binding.createPort(path, { vendorId: '2341', productId: '0043' });
    const boxes: FakeBox[] = [];
    const box = new SerialButtonBox({ ...FAST, listPorts: () => SerialPortMock.list(), openPort: fakeBoxOpener(boxes), log: () => {} });
    open.push(box);
    await box.start();
    await eventually(() => box.status().state === 'ok', 'ready');
    expect(box.info()?.path).toBe(path);
  });

  it('refuses a malformed LED state or cue with a clear error and keeps the last good state', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    t.box.setLeds(STATE);
    expect(() => t.box.setLeds({ planes: ['on', 'on'], spotted: 'on', roll: 'red' } as unknown as LedState)).toThrow(/planes must be four/);
    expect(() => t.box.setLeds({ ...STATE, roll: 'purple' } as unknown as LedState)).toThrow(/roll must be/);
    expect(() => t.box.buzz('kazoo' as never)).toThrow(/unknown cue/);
    await eventually(() => t.last().leds.ROLL === 'GBLINK', 'LEDs');
    expect(t.last().leds).toEqual(EXPECTED);
  });

  it('closes cleanly and reports off', async () => {
    const t = setup();
    await t.box.start();
    await t.ready();
    await t.box.close();
    expect(t.box.status()).toEqual({ kind: 'real', state: 'off', message: 'closed' });
    const sent = t.last().received.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(t.last().received.length).toBe(sent); // no more pings
  });
});
