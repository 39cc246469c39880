/**
 * Splits a byte stream of concatenated JPEG images (ffmpeg `-f mjpeg pipe:1`) into whole images.
 * Marker-aware: segment lengths are honoured up to SOS, so an EOI inside an EXIF thumbnail does not
 * end the frame; inside entropy-coded data 0xFF is always followed by 0x00, RSTn or a real marker.
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;

/** Keeps at most this many bytes waiting for a frame's end before giving up on it (a broken stream). */
const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

export class JpegStreamSplitter {
  private buf: Buffer = Buffer.alloc(0);
  /** bytes skipped because they were not part of a JPEG (garbage between frames, cut frames) */
  skippedBytes = 0;

  constructor(private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {}

  /** Feeds a chunk; returns the complete JPEG images it closed, in order. */
  push(chunk: Buffer): Buffer[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const frames: Buffer[] = [];
    for (;;) {
      const start = this.findSoi(this.buf, 0);
      if (start < 0) {
        // keep a trailing 0xFF: it may be the first half of the next SOI
        const keep = this.buf.length > 0 && this.buf[this.buf.length - 1] === 0xff ? 1 : 0;
        this.skippedBytes += this.buf.length - keep;
        this.buf = this.buf.subarray(this.buf.length - keep);
        break;
      }
      if (start > 0) {
        this.skippedBytes += start;
        this.buf = this.buf.subarray(start);
      }
      const end = findJpegEnd(this.buf);
      if (end === 'broken') {
        // drop this SOI and look for the next one
        this.skippedBytes += 2;
        this.buf = this.buf.subarray(2);
        continue;
      }
      if (end === 'incomplete') {
        if (this.buf.length > this.maxFrameBytes) {
          this.skippedBytes += 2;
          this.buf = this.buf.subarray(2);
          continue;
        }
        break;
      }
      frames.push(Buffer.from(this.buf.subarray(0, end)));
      this.buf = this.buf.subarray(end);
    }
    // do not keep a view on a large old chunk
    if (this.buf.length > 0 && this.buf.byteOffset > 0) this.buf = Buffer.from(this.buf);
    return frames;
  }

  /** bytes held waiting for the rest of a frame */
  get pendingBytes(): number {
    return this.buf.length;
  }

  private findSoi(b: Buffer, from: number): number {
    for (let i = from; i + 1 < b.length; i++) {
      if (b[i] === 0xff && b[i + 1] === SOI && (i + 2 >= b.length || b[i + 2] === 0xff)) return i;
    }
    return -1;
  }
}

/**
 * Given a buffer starting with SOI, the index just after its EOI;
 * 'incomplete' when more bytes are needed, 'broken' when the structure is not a JPEG.
 */
export function findJpegEnd(b: Buffer): number | 'incomplete' | 'broken' {
  let i = 2;
  // marker segments up to the scan
  for (;;) {
    if (i + 1 >= b.length) return 'incomplete';
    if (b[i] !== 0xff) return 'broken';
    let marker = b[i + 1];
    // fill bytes
    while (marker === 0xff) {
      i++;
      if (i + 1 >= b.length) return 'incomplete';
      marker = b[i + 1];
    }
    if (marker === EOI) return i + 2;
    if (marker === SOI || marker === 0x00) return 'broken';
    if (marker >= 0xd0 && marker <= 0xd7) {
      i += 2;
      continue;
    }
    if (i + 3 >= b.length) return 'incomplete';
    const len = b.readUInt16BE(i + 2);
    if (len < 2) return 'broken';
    // only APPn and COM segments may carry a whole JPEG (a thumbnail); an SOI in any other segment
    // means this frame was cut short and the next one began
    if (!(marker >= 0xe0 && marker <= 0xef) && marker !== 0xfe && containsSoi(b, i + 4, Math.min(b.length, i + 2 + len))) return 'broken';
    i += 2 + len;
    if (marker === SOS) break;
  }
  // entropy-coded data, possibly several scans (progressive)
  for (;;) {
    if (i + 1 >= b.length) return 'incomplete';
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const next = b[i + 1];
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      i += next === 0xff ? 1 : 2;
      continue;
    }
    if (next === EOI) return i + 2;
    if (next === SOI) return 'broken';
    // another marker segment between scans (DHT, SOS of the next scan...)
    if (i + 3 >= b.length) return 'incomplete';
    const len = b.readUInt16BE(i + 2);
    if (len < 2) return 'broken';
    i += 2 + len;
  }
}

function containsSoi(b: Buffer, from: number, to: number): boolean {
  for (let k = from; k + 1 < to; k++) if (b[k] === 0xff && b[k + 1] === SOI) return true;
  return false;
}

/** True when the bytes are one whole JPEG image (SOI ... EOI with a sane structure). */
export function isWholeJpeg(b: Buffer): boolean {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== SOI) return false;
  const end = findJpegEnd(b);
  return typeof end === 'number';
}

/** True when the bytes start with the PNG signature and hold an IEND chunk at the end. */
export function isWholePng(b: Buffer): boolean {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 20 || sig.some((v, i) => b[i] !== v)) return false;
  return b.subarray(b.length - 8, b.length - 4).toString('latin1') === 'IEND';
}
