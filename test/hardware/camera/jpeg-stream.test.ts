import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { findJpegEnd, isWholeJpeg, JpegStreamSplitter } from '../../../server/hardware/camera/jpeg-stream.ts';

async function jpeg(shade: number, withExifThumb = false): Promise<Buffer> {
  const img = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 255 - shade, b: 100 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  if (!withExifThumb) return img;
  // an APP1 segment that contains a whole small JPEG (as EXIF thumbnails do): its EOI must not end the frame
  const thumb = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 0, b: 0 } } }).jpeg().toBuffer();
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), thumb]);
  const seg = Buffer.alloc(4);
  seg[0] = 0xff;
  seg[1] = 0xe1;
  seg.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([img.subarray(0, 2), seg, payload, img.subarray(2)]);
}

describe('JpegStreamSplitter', () => {
  it('cuts concatenated JPEGs out of a stream fed in arbitrary chunks', async () => {
    const frames = [await jpeg(10), await jpeg(120, true), await jpeg(240)];
    const stream = Buffer.concat([Buffer.from('garbage'), ...frames]);
    for (const chunkSize of [1, 7, 333, stream.length]) {
      const s = new JpegStreamSplitter();
      const out: Buffer[] = [];
      for (let i = 0; i < stream.length; i += chunkSize) out.push(...s.push(stream.subarray(i, i + chunkSize)));
      expect(out.length).toBe(3);
      out.forEach((f, i) => expect(f.equals(frames[i])).toBe(true));
      expect(s.skippedBytes).toBe(7);
      expect(s.pendingBytes).toBe(0);
    }
  });

  it('holds an unfinished frame until its end arrives', async () => {
    const f = await jpeg(50);
    const s = new JpegStreamSplitter();
    expect(s.push(f.subarray(0, f.length - 1))).toEqual([]);
    expect(s.pendingBytes).toBe(f.length - 1);
    const out = s.push(f.subarray(f.length - 1));
    expect(out.length).toBe(1);
    expect(out[0].equals(f)).toBe(true);
  });

  it('drops a frame cut short by the start of the next one', async () => {
    const a = await jpeg(30);
    const b = await jpeg(200);
    const s = new JpegStreamSplitter();
    const out = s.push(Buffer.concat([a.subarray(0, a.length - 20), b]));
    expect(out.length).toBe(1);
    expect(out[0].equals(b)).toBe(true);
  });

  it('gives up on a frame that grows past the size limit', async () => {
    const a = await jpeg(30);
    const s = new JpegStreamSplitter(a.length + 10);
    expect(s.push(a.subarray(0, a.length - 2))).toEqual([]);
    // no EOI, keep feeding entropy-like bytes
    expect(s.push(Buffer.alloc(100, 0x11))).toEqual([]);
    expect(s.pendingBytes).toBeLessThan(a.length + 10);
  });

  it('tells whole JPEGs from truncated or foreign bytes', async () => {
    const a = await jpeg(90, true);
    expect(isWholeJpeg(a)).toBe(true);
    expect(isWholeJpeg(a.subarray(0, a.length - 10))).toBe(false);
    expect(isWholeJpeg(Buffer.from('not an image at all'))).toBe(false);
    expect(findJpegEnd(Buffer.from([0xff, 0xd8, 0x12, 0x34]))).toBe('broken');
  });
});

describe('JpegStreamSplitter, frame cut inside its header', () => {
  it('does not swallow the next frame into a header segment', async () => {
    const a = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg().toBuffer();
    const b = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 2, b: 3 } } }).jpeg().toBuffer();
    // 100 bytes: inside the second quantisation table
    const out = new JpegStreamSplitter().push(Buffer.concat([a.subarray(0, 100), b]));
    expect(out.length).toBe(1);
    expect(out[0].equals(b)).toBe(true);
  });
});
