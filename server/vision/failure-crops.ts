/** Saves small annotated PNGs of reading failures (wrong face, unreadable, missed, extra) for inspection. */
import sharp from 'sharp';
import { mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { SeenDie } from '../http/protocol.ts';
import { matchImage, type LabelBox } from './scoring.ts';

export interface Failure {
  kind: 'wrong' | 'unreadable' | 'missed' | 'extra';
  x: number;
  y: number;
  size: number;
  text: string;
}

export function findFailures(labels: LabelBox[], preds: SeenDie[]): Failure[] {
  const m = matchImage(labels, preds);
  const out: Failure[] = [];
  for (const [li, pi] of m.pairs) {
    const l = labels[li];
    const p = preds[pi];
    if (p.face === l.face) continue;
    out.push({
      kind: p.face === null ? 'unreadable' : 'wrong',
      x: p.x,
      y: p.y,
      size: Math.max(p.w, 30),
      text: p.face === null ? `${l.face} read as ? (${p.unreadable})` : `${l.face} read as ${p.face} (${p.score.toFixed(2)})`,
    });
  }
  for (const li of m.unmatchedLabels) out.push({ kind: 'missed', x: labels[li].x, y: labels[li].y, size: 50, text: `${labels[li].face} missed` });
  for (const pi of m.unmatchedPredictions) {
    const p = preds[pi];
    out.push({ kind: 'extra', x: p.x, y: p.y, size: Math.max(p.w, 30), text: `extra: ${p.face ?? '?'} (${p.score.toFixed(2)})` });
  }
  return out;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

/** Write one PNG per failure: a region of 3 × size around it, scaled to 160 px, with a ring and a caption. */
export async function saveFailureCrops(imagePath: string, image: Buffer, width: number, height: number, failures: Failure[], dir: string, limit: number): Promise<number> {
  await mkdir(dir, { recursive: true });
  let n = 0;
  for (const f of failures.slice(0, limit)) {
    const side = Math.min(Math.round(f.size * 3), width, height);
    const left = Math.max(0, Math.min(width - side, Math.round(f.x - side / 2)));
    const top = Math.max(0, Math.min(height - side, Math.round(f.y - side / 2)));
    const k = 160 / side;
    const cx = (f.x - left) * k;
    const cy = (f.y - top) * k;
    const r = (f.size / 2) * k * 1.2;
    const svg = `<svg width="160" height="180" xmlns="http://www.w3.org/2000/svg">
      <circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${f.kind === 'extra' ? '#ff00ff' : '#ff2020'}" stroke-width="2"/>
      <rect x="0" y="160" width="160" height="20" fill="black"/>
      <text x="4" y="175" font-family="sans-serif" font-size="12" fill="white">${escapeXml(f.text)}</text></svg>`;
    const crop = await sharp(image).extract({ left, top, width: side, height: side }).resize(160, 160).extend({ bottom: 20, background: '#000' }).toBuffer();
    const name = `${basename(imagePath, extname(imagePath))}_${f.kind}_${Math.round(f.x)}_${Math.round(f.y)}.png`;
    await sharp(crop).composite([{ input: Buffer.from(svg), left: 0, top: 0 }]).png().toFile(join(dir, name));
    n++;
  }
  return n;
}
