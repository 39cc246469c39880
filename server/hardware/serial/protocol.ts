/**
 * The box's line protocol (firmware/PROTOCOL.md), host side: CRC-8, framing, parsing.
 * A line is `SS VERB ARG... *CC` + LF: SS = sequence number (2 upper-case hex digits),
 * CC = CRC-8/SMBUS of everything before " *" (2 upper-case hex digits).
 * Mirrors firmware/flightdeck_box/src/fd_protocol.c; keep the two in step.
 */

export const PROTOCOL_VERSION = 1;
/** the longest line, LF included */
export const MAX_LINE = 64;
export const MAX_ARGS = 6;
export const MAX_VERB = 8;
export const MAX_ARG = 24;

export type LineError = 'LEN' | 'CHAR' | 'FRAME' | 'CRC' | 'SEQ' | 'SYNTAX';

export interface RawMessage {
  seq: number;
  verb: string;
  args: string[];
}

export type ParseResult = { ok: true; message: RawMessage } | { ok: false; error: LineError; reason: string };

const VERB = /^[A-Z]{1,8}$/;
const ARG = /^[A-Za-z0-9._=,/+\-:]{1,24}$/;
const HEX2 = /^[0-9A-F]{2}$/;

export function crc8Update(crc: number, byte: number): number {
  let c = (crc ^ byte) & 0xff;
  for (let i = 0; i < 8; i++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  return c;
}

/** CRC-8/SMBUS (poly 0x07, init 0, no reflection): "123456789" -> 0xF4. */
export function crc8(data: string | Uint8Array): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  let crc = 0;
  for (const b of bytes) crc = crc8Update(crc, b);
  return crc;
}

function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, '0');
}

/** Builds one line with its LF. Throws on a verb, argument or length the protocol does not allow. */
export function formatLine(seq: number, verb: string, args: readonly string[] = []): string {
  if (!Number.isInteger(seq) || seq < 0 || seq > 255) throw new RangeError(`sequence number out of range: ${seq}`);
  if (!VERB.test(verb)) throw new RangeError(`bad verb: ${JSON.stringify(verb)}`);
  if (args.length > MAX_ARGS) throw new RangeError(`too many arguments: ${args.length}`);
  for (const a of args) if (!ARG.test(a)) throw new RangeError(`bad argument: ${JSON.stringify(a)}`);
  const payload = [hex2(seq), verb, ...args].join(' ');
  const line = `${payload} *${hex2(crc8(payload))}\n`;
  if (line.length > MAX_LINE) throw new RangeError(`line too long (${line.length} > ${MAX_LINE}): ${payload}`);
  return line;
}

/** Parses one line without its LF (a trailing CR is tolerated). Never throws. */
export function parseLine(input: string): ParseResult {
  const line = input.endsWith('\r') ? input.slice(0, -1) : input;
  if (line.length + 1 > MAX_LINE) return { ok: false, error: 'LEN', reason: `line of ${line.length + 1} bytes, the limit is ${MAX_LINE}` };
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return { ok: false, error: 'CHAR', reason: `byte 0x${hex2(c & 0xff)} at ${i} is not printable ASCII` };
  }
  if (line.length < 8 || line[line.length - 4] !== ' ' || line[line.length - 3] !== '*' || !HEX2.test(line.slice(-2))) {
    return { ok: false, error: 'FRAME', reason: 'no " *CC" checksum at the end (truncated line?)' };
  }
  const payload = line.slice(0, -4);
  const expected = crc8(payload);
  const got = parseInt(line.slice(-2), 16);
  if (expected !== got) return { ok: false, error: 'CRC', reason: `checksum ${hex2(got)} does not match the line (${hex2(expected)})` };
  if (!HEX2.test(payload.slice(0, 2)) || payload[2] !== ' ') return { ok: false, error: 'SEQ', reason: 'no two-digit hex sequence number' };
  const fields = payload.slice(3).split(' ');
  const [verb, ...args] = fields;
  if (!VERB.test(verb)) return { ok: false, error: 'SYNTAX', reason: `bad verb ${JSON.stringify(verb)}` };
  if (args.length > MAX_ARGS) return { ok: false, error: 'SYNTAX', reason: `${args.length} arguments, at most ${MAX_ARGS}` };
  for (const a of args) {
    if (!ARG.test(a)) return { ok: false, error: 'SYNTAX', reason: `bad argument ${JSON.stringify(a)}` };
  }
  return { ok: true, message: { seq: parseInt(payload.slice(0, 2), 16), verb, args } };
}
