import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crc8, formatLine, MAX_LINE, parseLine } from '../../../server/hardware/serial/protocol.ts';
import { decodeBoxMessage } from '../../../server/hardware/serial/messages.ts';

const verb = fc.stringMatching(/^[A-Z]{1,8}$/);
const arg = fc.stringMatching(/^[A-Za-z0-9._=,/+\-:]{1,24}$/);
const seq = fc.integer({ min: 0, max: 255 });
/** valid lines (those that fit in MAX_LINE) */
const validLine = fc
  .record({ seq, verb, args: fc.array(arg, { maxLength: 6 }) })
  .filter(({ seq: s, verb: v, args }) => 3 + v.length + args.reduce((n, a) => n + 1 + a.length, 0) + 5 <= MAX_LINE)
  .map((m) => ({ ...m, line: formatLine(m.seq, m.verb, m.args) }));

describe('line protocol', () => {
  it('uses CRC-8/SMBUS', () => {
    expect(crc8('123456789')).toBe(0xf4);
    expect(formatLine(0x2a, 'LED', ['P1', 'BLINK'])).toBe(`2A LED P1 BLINK *${crc8('2A LED P1 BLINK').toString(16).toUpperCase().padStart(2, '0')}\n`);
  });

  it('parses what it formats', () => {
    fc.assert(
      fc.property(validLine, ({ seq: s, verb: v, args, line }) => {
        expect(line.length).toBeLessThanOrEqual(MAX_LINE);
        const r = parseLine(line.slice(0, -1));
        expect(r).toEqual({ ok: true, message: { seq: s, verb: v, args } });
        expect(parseLine(line.slice(0, -1) + '\r')).toEqual(r);
      }),
    );
  });

  it('refuses to format what it could not parse', () => {
    expect(() => formatLine(256, 'PING')).toThrow(/sequence/);
    expect(() => formatLine(1, 'ping')).toThrow(/verb/);
    expect(() => formatLine(1, 'LED', ['a b'])).toThrow(/argument/);
    expect(() => formatLine(1, 'LED', ['1', '2', '3', '4', '5', '6', '7'])).toThrow(/too many/);
    expect(() => formatLine(1, 'LED', ['A'.repeat(24), 'B'.repeat(24), 'C'.repeat(24)])).toThrow(/too long/);
  });

  it('never throws on random input, and says why it rejects', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 100 }), fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b).toString('latin1'))), (s) => {
        const r = parseLine(s);
        if (!r.ok) {
          expect(['LEN', 'CHAR', 'FRAME', 'CRC', 'SEQ', 'SYNTAX']).toContain(r.error);
          expect(r.reason.length).toBeGreaterThan(5);
        } else {
          // anything accepted must re-format to itself
          expect(formatLine(r.message.seq, r.message.verb, r.message.args)).toBe(s.replace(/\r$/, '') + '\n');
        }
        if (r.ok) expect(() => decodeBoxMessage(r.message)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects any line with one byte changed', () => {
    fc.assert(
      fc.property(validLine, fc.nat(), fc.integer({ min: 1, max: 255 }), ({ line }, at, delta) => {
        const bytes = Buffer.from(line.slice(0, -1), 'latin1');
        const i = at % bytes.length;
        bytes[i] = (bytes[i] + delta) & 0xff;
        if (bytes[i] === 0x0a) return; // the line would end there: a truncation, tested below
        const r = parseLine(bytes.toString('latin1'));
        expect(r.ok).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects any truncated line', () => {
    fc.assert(
      fc.property(validLine, fc.nat(), ({ line }, cut) => {
        const body = line.slice(0, -1);
        const r = parseLine(body.slice(0, cut % body.length));
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error).toBe('FRAME');
      }),
    );
  });

  it('rejects over-long lines with LEN, even with a good checksum', () => {
    const payload = `01 X ${'A'.repeat(24)} ${'B'.repeat(24)} ${'C'.repeat(10)}`;
    const line = `${payload} *${crc8(payload).toString(16).toUpperCase().padStart(2, '0')}`;
    expect(line.length + 1).toBeGreaterThan(MAX_LINE);
    expect(parseLine(line)).toMatchObject({ ok: false, error: 'LEN' });
    fc.assert(
      fc.property(fc.string({ minLength: MAX_LINE, maxLength: 500 }), (s) => {
        expect(parseLine(s)).toMatchObject({ ok: false, error: 'LEN' });
      }),
    );
  });
});

describe('box messages', () => {
  const decode = (line: string) => {
    const p = parseLine(line.slice(0, -1));
    if (!p.ok) throw new Error(p.reason);
    return decodeBoxMessage(p.message);
  };

  it('decodes hello, buttons, acks and errors', () => {
    expect(decode(formatLine(0, 'HELLO', ['FDBOX', '1', '1.0.0', 'BTN,LED']))).toMatchObject({
      ok: true,
      message: { type: 'hello', product: 'FDBOX', protocol: 1, firmware: '1.0.0', capabilities: new Set(['BTN', 'LED']) },
    });
    expect(decode(formatLine(1, 'BTN', ['TOL', 'L']))).toEqual({ ok: true, message: { type: 'button', seq: 1, button: 'takeoffLanding', press: 'long' } });
    expect(decode(formatLine(2, 'ACK', ['1F']))).toEqual({ ok: true, message: { type: 'ack', seq: 2, ackSeq: 0x1f } });
    expect(decode(formatLine(3, 'ERR', ['--', 'CRC']))).toEqual({ ok: true, message: { type: 'error', seq: 3, ackSeq: null, code: 'CRC', detail: null } });
    expect(decode(formatLine(4, 'ERR', ['0A', 'VERB', 'FROB']))).toMatchObject({ message: { ackSeq: 10, code: 'VERB', detail: 'FROB' } });
  });

  it('ignores verbs of newer boxes and rejects malformed known ones', () => {
    expect(decode(formatLine(5, 'TEMP', ['21.5']))).toEqual({ ok: true, message: { type: 'unknown', seq: 5, verb: 'TEMP' } });
    expect(decode(formatLine(6, 'BTN', ['P9', 'S'])).ok).toBe(false);
    expect(decode(formatLine(7, 'BTN', ['P1', 'X'])).ok).toBe(false);
    expect(decode(formatLine(7, 'BTN', ['toString', 'S'])).ok).toBe(false);
    expect(decode(formatLine(8, 'ACK', ['ZZ'])).ok).toBe(false);
    expect(decode(formatLine(9, 'HELLO', ['FDBOX'])).ok).toBe(false);
  });
});
