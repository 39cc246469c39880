/**
 * The camera fails (missing, corrupt frames, frozen) while a table is in use: the snapshot switches to
 * manual dice entry and says why, dice typed in are taken, and the camera path recovers by itself when
 * good frames come back. Runs the real wiring (server/table/table-hardware.ts → DiceFeed → replay or
 * fswebcam frame sources); only the dice reader is a stand-in (it reads no dice), since the frames here
 * are plain images and the model is not the subject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cameraConfig, defaultTable, type TableConfig } from '../../server/config/service-config.ts';
import { buildApp, type BuiltApp } from '../../server/http/app.ts';
import type { DiceReader } from '../../server/hardware/ports.ts';
import { tableGames } from '../../server/table/games.ts';
import { startHardware } from '../../server/table/table-hardware.ts';
import { TableService } from '../../server/table/table-service.ts';
import { yorktownAdapter } from '../../server/table/yorktown-adapter.ts';

const PIN = '8642';
const noDice: DiceReader = { backend: 'test-stand-in', read: async () => ({ width: 64, height: 48, dice: [] }) };
const silent = { info() {}, warn() {}, error() {} };

let root: string;
let folder: string;
let built: BuiltApp;

async function jpeg(shade: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: shade, b: shade } } }).jpeg().toBuffer();
}
async function writeFrames(kind: 'good' | 'corrupt'): Promise<void> {
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < 3; i++) writeFileSync(join(folder, `f${i}.jpg`), kind === 'good' ? await jpeg(40 + i) : Buffer.from(`not a jpeg ${i} \xff\xd8 garbage`, 'latin1'));
}
const snap = async (table: string) => (await built.app.inject({ url: `/api/tables/${table}/state` })).json();
async function until(table: string, accept: (s: any) => boolean, what: string, timeoutMs = 20_000): Promise<any> {
  const end = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < end) {
    last = await snap(table);
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms; camera ${JSON.stringify(last?.hardware?.camera)}`);
}
const post = (table: string, payload: object) =>
  built.app.inject({ method: 'POST', url: `/api/tables/${table}/commands`, headers: { authorization: `Bearer ${PIN}` }, payload });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'flightdeck-camera-'));
  folder = join(root, 'frames'); // missing at first
  const frozen = join(root, 'frozen');
  mkdirSync(frozen);
  writeFileSync(join(frozen, 'only.jpg'), await jpeg(90));
  const base = { ...defaultTable(), serial: { kind: 'none' as const } };
  const tables: TableConfig[] = [
    { ...base, id: 'replay', name: 'replay', camera: cameraConfig({ source: 'replay', folder, fps: 10 }) },
    // one frame, then nothing for 20 s: a camera that froze
    { ...base, id: 'frozen', name: 'frozen', camera: cameraConfig({ source: 'replay', folder: frozen, fps: 0.05 }) },
    // a real capture path (node-webcam → fswebcam) pointed at a device that is not there
    { ...base, id: 'absent', name: 'absent', camera: cameraConfig({ source: 'fswebcam', device: '/dev/video97' }) },
  ];
  built = await buildApp({
    service: () => new TableService({ config: { tables, pin: PIN }, dbFile: join(root, 'db.sqlite'), games: tableGames, log: silent, kiosk: { autoStart: false } }),
    hardware: (svc, log) => startHardware(svc, { reader: async () => noDice, log }),
  });
}, 30_000);
afterAll(async () => {
  await built?.app.close();
  rmSync(root, { recursive: true, force: true });
});

describe('camera faults at the table', () => {
  it('missing → manual entry; frames arrive → camera; corrupt frames → manual; good again → camera; dice typed in meanwhile are taken', async () => {
    const missing = await until('replay', (s) => s.hardware.camera.state === 'retrying' && /no such folder/.test(s.hardware.camera.message ?? ''), 'missing folder reported');
    expect(missing.manualDice).toBe(true);
    expect(missing.alerts.map((a: { code: string }) => a.code)).toContain('cameraProblem');
    // the game is played with dice typed in
    const plan = yorktownAdapter.attractPlan(31);
    let i = 0;
    while (plan[i].type !== 'dice') expect((await post('replay', plan[i++])).statusCode).toBeLessThan(500);
    const typed = await post('replay', plan[i++]);
    expect(typed.statusCode).toBe(200);
    const seqWithTypedDice = typed.json().seq;

    await writeFrames('good');
    const back = await until('replay', (s) => s.hardware.camera.state === 'ok', 'camera back once frames exist');
    expect(back.manualDice).toBe(false);
    expect(back.alerts.map((a: { code: string }) => a.code)).not.toContain('cameraProblem');

    await writeFrames('corrupt');
    const corrupt = await until('replay', (s) => s.hardware.camera.state !== 'ok', 'corrupt frames reported');
    expect(corrupt.manualDice).toBe(true);
    expect(corrupt.hardware.camera.message).toMatch(/corrupt/);
    expect(corrupt.seq).toBe(seqWithTypedDice); // nothing in the game moved by itself

    await writeFrames('good');
    expect((await until('replay', (s) => s.hardware.camera.state === 'ok', 'camera back after corrupt frames')).manualDice).toBe(false);
  }, 60_000);

  it('a camera that stops sending frames (frozen) → manual entry with the reason', async () => {
    const frozen = await until('frozen', (s) => s.hardware.camera.state !== 'ok' && /no frame/.test(s.hardware.camera.message ?? ''), 'stall reported', 15_000);
    expect(frozen.manualDice).toBe(true);
  }, 20_000);

  it('a capture device that is not there (fswebcam) → manual entry, retried, the service unaffected', async () => {
    const absent = await until('absent', (s) => s.hardware.camera.state === 'retrying' || s.hardware.camera.state === 'error', 'absent device reported');
    expect(absent.manualDice).toBe(true);
    expect(absent.hardware.camera.message).toBeTruthy();
    expect((await post('absent', { type: 'newGame', players: 2 })).statusCode).toBe(200);
    expect((await built.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  }, 30_000);

  it('a lost camera is listed in the snapshot alerts, and the alert goes once it is back', async () => {
    const s = await until('frozen', (x) => x.hardware.camera.state !== 'ok', 'frozen', 15_000);
    expect(s.alerts.some((a: { code: string; message: string }) => /camera/i.test(a.code) && a.message.length > 0)).toBe(true);
    const ok = await until('replay', (x) => x.hardware.camera.state === 'ok', 'replay camera ok');
    expect(ok.alerts.filter((a: { code: string }) => /camera/i.test(a.code))).toEqual([]);
  }, 30_000);
});
