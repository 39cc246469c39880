/**
 * A ZIP archive written as a stream, one entry at a time, the entries stored as they are (photos do not
 * compress, and the few text files are small): what any unzip tool, a file manager or a browser opens.
 * The classic format only (no ZIP64): up to 65 535 entries and 4 GiB in all, past which it throws.
 */
import { crc32 } from 'node:zlib';

export interface ZipEntry {
  /** path inside the archive, `/`-separated */
  name: string;
  data: Buffer;
  modified: Date;
}

export class ZipLimitError extends Error {}

const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
/** bit 11: the names are UTF-8 */
const UTF8_NAMES = 0x0800;
/** version 2.0 of the format: folders, no compression needed beyond it */
const VERSION = 20;
/** made by: Unix (3), so the mode below is read */
const MADE_BY = (3 << 8) | VERSION;
/** -rw-r--r-- regular file, in the high half of the external attributes */
const FILE_MODE = (0o100644 << 16) >>> 0;

/** MS-DOS date and time (local time, 2-second steps; 1980 at the earliest), as ZIP keeps them. */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, Math.min(2107, d.getFullYear()));
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function checkName(name: string): Buffer {
  if (name === '' || name.startsWith('/') || name.split('/').some((p) => p === '..' || p === '') || name.includes('\\')) {
    throw new Error(`zip entry name not allowed: "${name}"`);
  }
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length > 0xffff) throw new Error(`zip entry name too long: "${name.slice(0, 40)}…"`);
  return bytes;
}

/** The archive's bytes, entry by entry, as the entries come. */
export async function* zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): AsyncGenerator<Buffer> {
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  const names = new Set<string>();
  for await (const entry of entries) {
    const name = checkName(entry.name);
    if (names.has(entry.name)) throw new Error(`zip entry named twice: "${entry.name}"`);
    names.add(entry.name);
    if (++count > MAX_ENTRIES) throw new ZipLimitError(`more than ${MAX_ENTRIES} files: too many for one archive`);
    const size = entry.data.length;
    if (offset + 30 + name.length + size > MAX_OFFSET) throw new ZipLimitError('more than 4 GiB: too large for one archive');
    const crc = crc32(entry.data);
    const { time, date } = dosTime(entry.modified);
    // the fields a local header and its central directory entry share, in the same order in both
    const shared = Buffer.alloc(26);
    shared.writeUInt16LE(VERSION, 0);
    shared.writeUInt16LE(UTF8_NAMES, 2);
    shared.writeUInt16LE(0, 4); // stored
    shared.writeUInt16LE(time, 6);
    shared.writeUInt16LE(date, 8);
    shared.writeUInt32LE(crc, 10);
    shared.writeUInt32LE(size, 14);
    shared.writeUInt32LE(size, 18);
    shared.writeUInt16LE(name.length, 22);
    // extra field: none
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared.copy(local, 4);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY, 4);
    shared.copy(header, 6);
    // comment, disk number, internal attributes: none
    header.writeUInt32LE(FILE_MODE, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    yield Buffer.concat([local, name]);
    yield entry.data;
    offset += 30 + name.length + size;
  }
  const directory = Buffer.concat(central);
  if (offset + directory.length > MAX_OFFSET) throw new ZipLimitError('more than 4 GiB: too large for one archive');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield directory;
  yield end;
}
