/**
 * Serial box figures: protocol parse/format speed, byte-stream splitting speed, the driver's
 * latency from a button line arriving to the 'button' event (over SerialPortMock), and the
 * firmware's flash/RAM use when it has been built (make -C firmware).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SerialPortMock } from 'serialport';
import { LineSplitter } from '../server/hardware/serial/line-splitter.ts';
import { formatLine, parseLine } from '../server/hardware/serial/protocol.ts';
import { openStream, SerialButtonBox } from '../server/hardware/serial/serial-box.ts';

function perSecond(n: number, ms: number): number {
  return Math.round((n / ms) * 1000);
}

async function buttonLatency(): Promise<{ medianUs: number; p95Us: number }> {
  const path = '/dev/bench-box';
  SerialPortMock.binding.createPort(path, { echo: false, record: false });
  let port: SerialPortMock | null = null;
  let seq = 0;
  const say = (verb: string, args: string[]) => port?.port?.emitData(formatLine(seq++ & 0xff, verb, args));
  const box = new SerialButtonBox({
    path,
    log: () => {},
    maxButtonsPerSecond: 1_000_000,
    maxLinesPerSecond: 1_000_000,
    openPort: async (p, baudRate) => {
      port = await openStream(new SerialPortMock({ path: p, baudRate, autoOpen: false }));
      const binding = port.port!;
      const write = binding.write.bind(binding);
      binding.write = async (b: Buffer) => {
        await write(b);
        const m = parseLine(b.toString('latin1').trimEnd());
        if (m.ok && m.message.verb === 'HELLO') say('HELLO', ['FDBOX', '1', '1.0.0', 'BTN,LED']);
        if (m.ok) say('ACK', [m.message.seq.toString(16).toUpperCase().padStart(2, '0')]);
      };
      return port;
    },
  });
  await box.start();
  while (box.status().state !== 'ok') await new Promise((r) => setTimeout(r, 5));
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const got = new Promise<void>((r) => box.once('button', () => r()));
    const t0 = process.hrtime.bigint();
    say('BTN', ['P1', 'S']);
    await got;
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  await box.close();
  samples.sort((a, b) => a - b);
  return { medianUs: Math.round(samples[150]), p95Us: Math.round(samples[285]) };
}

function firmwareSize(): Record<string, unknown> {
  const dir = join(import.meta.dirname, '..', 'firmware');
  if (!existsSync(join(dir, 'build', 'flightdeck_box.elf'))) return { firmware: 'not built (make -C firmware)' };
  const r = spawnSync('make', ['-s', '-C', dir, 'size'], { encoding: 'utf8' });
  const flash = /Flash: (\d+)/.exec(r.stdout ?? '');
  const ram = /RAM: (\d+)/.exec(r.stdout ?? '');
  return { firmwareFlashBytes: flash ? Number(flash[1]) : null, firmwareRamBytes: ram ? Number(ram[1]) : null };
}

export async function run(): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  for (let i = 0; i < 50_000; i++) lines.push(formatLine(i & 0xff, 'LED', [`P${(i % 4) + 1}`, i % 2 ? 'BLINK' : 'ON']).slice(0, -1));
  let t = performance.now();
  let ok = 0;
  for (const l of lines) if (parseLine(l).ok) ok++;
  const parseMs = performance.now() - t;
  if (ok !== lines.length) throw new Error('parse failed');

  t = performance.now();
  for (let i = 0; i < 50_000; i++) formatLine(i & 0xff, 'BTN', ['CONFIRM', 'S']);
  const formatMs = performance.now() - t;

  const stream = Buffer.from(lines.join('\n') + '\n', 'latin1');
  const splitter = new LineSplitter({ maxLinesPerSecond: Number.MAX_SAFE_INTEGER });
  t = performance.now();
  let n = 0;
  for (let i = 0; i < stream.length; i += 256) n += splitter.push(stream.subarray(i, i + 256), 0).length;
  const splitMs = performance.now() - t;
  if (n !== lines.length) throw new Error(`split gave ${n} lines`);

  return {
    parseLinesPerSecond: perSecond(lines.length, parseMs),
    formatLinesPerSecond: perSecond(50_000, formatMs),
    splitMegabytesPerSecond: Math.round((stream.length / 1e6 / (splitMs / 1000)) * 10) / 10,
    driverButtonLatency: await buttonLatency(),
    ...firmwareSize(),
  };
}
