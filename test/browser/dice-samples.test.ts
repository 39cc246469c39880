/**
 * The dice photos page (`?view=samples`): a throw on the simulated camera, the photo taken, its dice
 * corrected by tapping (a face changed, a die marked cocked, a missed die added and its face picked, a
 * false die removed) and saved; then the files in the service's dice-samples folder, as
 * `npm run dice:eval -- --data FOLDER` reads them.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeSyntheticSet } from '../../server/synth/test-set.ts';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addedDieSize, boxesFromRead, labelledDice, nextFace } from '../../web/src/views/samples.ts';
import { answerAsk, api, command, HAVE_CHROMIUM, PIN, buildWeb, launch, leavingIsHeld, shot, startServer, watchErrors, type RunningServer } from './harness.ts';

describe('dice photo labels (pure parts)', () => {
  it('cycles a die ? → 1 … 6 → cocked → 1, sizes an added die, and saves only decided dice', () => {
    expect(nextFace(null)).toBe(1);
    expect(nextFace(5)).toBe(6);
    expect(nextFace(6)).toBe('cocked');
    expect(nextFace('cocked')).toBe(1);
    expect(addedDieSize([], 640, 480)).toEqual({ w: 38.4, h: 38.4 });
    expect(addedDieSize([{ w: 50, h: 40 }, { w: 60, h: 44 }, { w: 90, h: 48 }], 640, 480)).toEqual({ w: 60, h: 44 });
    const boxes = boxesFromRead([
      { x: 10, y: 20, w: 30, h: 30, face: 4, score: 0.9 },
      { x: 50, y: 60, w: 30, h: 30, face: null, score: 0.4, unreadable: 'cocked' },
    ]);
    expect(boxes.map((b) => b.face)).toEqual([4, null]);
    expect(labelledDice(boxes)).toBeNull();
    boxes[1]!.face = 'cocked';
    expect(labelledDice(boxes)).toEqual([{ x: 10, y: 20, w: 30, h: 30, face: 4 }, { x: 50, y: 60, w: 30, h: 30, face: 'cocked' }]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('dice photos page', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    buildWeb();
    server = await startServer();
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const faces = () => page.locator('.sample-die').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.face!));
  const faceOf = async (i: number) => (await faces())[i];
  const tap = (i: number) => page.getByTestId(`sample-die-${i}`).click();

  /** Throws these dice on the simulated camera and waits until it has read them all at rest. */
  async function throwAndReadAtRest(faces: number[]): Promise<void> {
    const thrownAt = Date.now();
    const thrown = await api(server, 'POST', '/api/tables/default/simulator/throw', { faces });
    expect(thrown.status).toBe(200);
    await expect
      .poll(async () => {
        const { status, data } = await api(server, 'POST', '/api/tables/default/dice-samples/hold');
        return status === 200 && (data.at as number) > thrownAt ? (data.dice as unknown[]).length : 0;
      }, { timeout: 30_000, interval: 300 })
      .toBe(faces.length);
  }

  it('takes a photo of thrown dice, corrects its labels by tapping and saves it with them', async (ctx) => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean; error?: string; model?: string } };
    if (!health.vision?.ready) {
      ctx.skip(`no dice model to read the simulated camera (${health.vision?.error ?? 'vision not ready'})`);
      return;
    }
    // the shipped model: its version, no table's dice taught
    expect(health.vision.model).toMatch(/^\d+\.\d+\.\d+$/);
    await page.goto(`${server.url}/?view=samples&lang=en&pin=${PIN}`);
    await expect.poll(() => page.getByTestId('samples-count').textContent()).toBe('Saved so far: 0 photos');
    expect(await page.getByTestId('samples-folder').textContent()).toContain(server.samplesDir);

    // four known dice on the simulated camera; wait until it has read them at rest
    await throwAndReadAtRest([2, 3, 4, 5]);

    await page.getByTestId('take-photo').click();
    await expect.poll(() => page.locator('.sample-die').count()).toBeGreaterThanOrEqual(3);
    const n = await page.locator('.sample-die').count();
    await page.getByTestId('sample-photo').evaluate((img) => (img as HTMLImageElement).decode());
    // every box lies on the photo
    const photo = (await page.getByTestId('sample-photo').boundingBox())!;
    for (const box of await page.locator('.sample-die').all()) {
      const b = (await box.boundingBox())!;
      expect(b.x + b.width / 2).toBeGreaterThan(photo.x);
      expect(b.x + b.width / 2).toBeLessThan(photo.x + photo.width);
      expect(b.y + b.height / 2).toBeGreaterThan(photo.y);
      expect(b.y + b.height / 2).toBeLessThan(photo.y + photo.height);
    }
    expect(await page.getByTestId('take-photo').textContent()).toBe('New photo');

    // a die the camera could not read must be decided first: one tap makes it a 1
    for (let i = 0; i < n; i++) if ((await faceOf(i)) === '?') await tap(i);
    await expect.poll(() => faces()).not.toContain('?');

    // one tap changes a face; die 1 is tapped round to "cocked"
    const first = Number(await faceOf(0));
    await tap(0);
    await expect.poll(() => faceOf(0)).toBe(first === 6 ? 'cocked' : String(first + 1));
    for (let k = 0; k < 7 && (await faceOf(1)) !== 'cocked'; k++) await tap(1);
    expect(await faceOf(1)).toBe('cocked');
    expect(await page.locator('.sample-die.cocked .sample-mark').first().textContent()).toBe('∠');

    // a tap on an empty spot of the photo adds an undecided die there, and saving waits for its face
    const centres = await Promise.all((await page.locator('.sample-die').all()).map(async (d) => {
      const b = (await d.boundingBox())!;
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }));
    let spot = { fx: 0.5, fy: 0.5, gap: -1 };
    for (let fx = 0.15; fx <= 0.86; fx += 0.05) {
      for (let fy = 0.2; fy <= 0.86; fy += 0.05) {
        const gap = Math.min(...centres.map((c) => Math.hypot(c.x - (photo.x + fx * photo.width), c.y - (photo.y + fy * photo.height))));
        if (gap > spot.gap) spot = { fx, fy, gap };
      }
    }
    // outside the dashed frame (the tray the camera reads) a tap adds nothing, and says why
    expect(await page.locator('.sample-region').count()).toBe(1);
    await page.mouse.click(photo.x + 0.01 * photo.width, photo.y + 0.5 * photo.height);
    await expect.poll(() => page.getByTestId('samples-error').getAttribute('data-code')).toBe('outsideTray');
    expect(await page.locator('.sample-die').count()).toBe(n);
    // (the message above it moved the photo down)
    const moved = (await page.getByTestId('sample-photo').boundingBox())!;
    await page.mouse.click(moved.x + spot.fx * moved.width, moved.y + spot.fy * moved.height);
    await expect.poll(() => page.locator('.sample-die').count()).toBe(n + 1);
    expect(await page.getByTestId('samples-error').count()).toBe(0);
    expect(await faceOf(n)).toBe('?');
    expect(await page.locator('.sample-die.undecided').count()).toBe(1);
    expect(await page.getByTestId('save-photo').isDisabled()).toBe(true);
    expect(await page.getByTestId('save-blocked').textContent()).toContain('Choose the face of every die marked ?');
    for (let k = 0; k < 3; k++) await tap(n);
    await expect.poll(() => faceOf(n)).toBe('3');
    expect(await page.getByTestId('save-photo').isEnabled()).toBe(true);

    // a state push (a new game) rebuilds the page: the labels stay
    const before = await faces();
    await command(server, { type: 'newGame', players: 4, seed: 3 });
    await expect.poll(() => page.locator('#app').getAttribute('data-seq')).not.toBe('0');
    expect(await faces()).toEqual(before);

    // × removes a false die
    await page.getByTestId('sample-del-2').click();
    await expect.poll(() => page.locator('.sample-die').count()).toBe(n);
    const labels = await faces();
    expect(labels).toEqual([...before.slice(0, 2), ...before.slice(3)]);
    await shot(page, 'dice-samples');

    // faces set and not saved: closing the tab asks first
    expect(await leavingIsHeld(page)).toBe(true);
    await page.getByTestId('save-photo').click();
    await expect.poll(() => page.locator('#toast').textContent()).toContain('Saved (1 photo)');
    expect(await leavingIsHeld(page)).toBe(false);
    await expect.poll(() => page.getByTestId('samples-count').textContent()).toBe('Saved so far: 1 photo');
    const savedAs = (await page.getByTestId('saved-as').textContent())!;

    // on disk: the photo, its labels (class = face − 1) beside it, and the cocked die
    const files = readdirSync(server.samplesDir);
    const jpg = files.filter((f) => f.endsWith('.jpg'));
    expect(jpg).toHaveLength(1);
    expect(savedAs).toContain(jpg[0]);
    const stem = jpg[0]!.slice(0, -'.jpg'.length);
    expect(files).toContain('classes.txt');
    const lines = readFileSync(join(server.samplesDir, `${stem}.txt`), 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
    for (const line of lines) expect(line).toHaveLength(5);
    const expected = labels.filter((f) => f !== 'cocked').map((f) => Number(f) - 1);
    expect(lines.map((l) => l[0]).sort()).toEqual(expected.sort());
    // the added die (face 3) where the photo was tapped, with the other dice's size
    const added = lines.find((l) => l[0] === 2 && Math.abs(l[1]! - spot.fx) < 0.01 && Math.abs(l[2]! - spot.fy) < 0.01);
    expect(added, `no label "2 ${spot.fx} ${spot.fy} …" in ${JSON.stringify(lines)}`).toBeDefined();
    expect(added![3]).toBeGreaterThan(0.03);
    expect(added![3]).toBeLessThan(0.2);
    expect(existsSync(join(server.samplesDir, 'cocked.json'))).toBe(true);
    const cocked = JSON.parse(readFileSync(join(server.samplesDir, 'cocked.json'), 'utf8')) as Record<string, unknown[]>;
    expect(cocked[jpg[0]!]).toHaveLength(1);

    // the reader measured on the saved photo, with the figures dice:eval gives
    await page.getByTestId('measure-photos').click();
    await expect.poll(() => page.getByTestId('measure-figures').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('measure-figures').textContent()).toMatch(new RegExp(`^On 1 photo \\(${expected.length} dice\\): right face \\d+\\.\\d % · dice found \\d+\\.\\d %`));
    const confusion = await page.getByTestId('measure-confusion').locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].reduce((sum, td) => sum + Number(td.textContent), 0)));
    expect(confusion.reduce((a, b) => a + b, 0)).toBe(expected.length);
    expect(await page.getByTestId('samples-measure').textContent()).toContain('Dice marked cocked: 1;');
    expect(await page.getByTestId('measure-model').textContent()).toMatch(/^Read with the dice model \d+\.\d+\.\d+\.$/);
    // and how to teach the camera these dice: the command, its output folder beside the photos
    const model = join(dirname(server.samplesDir), 'dice-model');
    expect(await page.getByTestId('measure-teach').locator('code').textContent()).toBe(`npm run model:adapt -- --photos ${server.samplesDir} --out ${model}`);
    expect(await page.getByTestId('measure-teach').textContent()).toContain(`the service reads ${model} when it starts`);
    await shot(page, 'dice-samples-measure');

    // the saved photos downloaded as one ZIP file, the folder the service keeps in it
    const downloading = page.waitForEvent('download');
    await page.getByTestId('archive-photos').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^dice-photos-\d{8}-\d{6}\.zip$/);
    const zip = join(dirname(server.samplesDir), 'downloaded.zip');
    await download.saveAs(zip);
    const listed = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^[^/]+\//, ''));
    expect(listed.sort()).toEqual(['README.txt', ...readdirSync(server.samplesDir)].sort());
    await expect.poll(() => page.locator('#toast').textContent()).toContain(`Downloaded ${download.suggestedFilename()}`);

    // the same dice at rest again: "New photo" keeps this photo and its labels, and says why
    const kept = await faces();
    await page.getByTestId('take-photo').click();
    await expect.poll(() => page.locator('#toast').textContent()).toContain('The dice have not moved since this photo');
    expect(await faces()).toEqual(kept);
    expect(await page.getByTestId('saved-as').textContent()).toContain(savedAs.replace(/^Saved as /, '').replace(/\.\s.*$/, ''));

    // saving again replaces the labels; the page keeps the photo in Spanish too
    await tap(0);
    expect(await page.getByTestId('saved-as').textContent()).toContain('save again');
    // changed since saved: closing the tab asks, and so does a new photo (declined: all stays)
    expect(await leavingIsHeld(page)).toBe(true);
    const changedFaces = await faces();
    await page.getByTestId('take-photo').click();
    expect(await answerAsk(page, false)).toContain('are not saved');
    expect(await faces()).toEqual(changedFaces);
    await page.getByTestId('save-photo').click();
    await expect.poll(() => page.locator('#toast').textContent()).toContain('Labels replaced (1 photo)');
    expect(readdirSync(server.samplesDir).filter((f) => f.endsWith('.jpg'))).toHaveLength(1);
    // and a photo saved by mistake is taken out again
    await page.getByTestId('remove-photo').click();
    await expect.poll(() => page.locator('#toast').textContent()).toContain('Removed (0 photos left)');
    expect(readdirSync(server.samplesDir).filter((f) => f.endsWith('.jpg') || (f.endsWith('.txt') && f !== 'classes.txt'))).toEqual([]);
    expect(await page.getByTestId('saved-as').count()).toBe(0);
    await page.getByTestId('lang').selectOption('es');
    await expect.poll(() => page.getByTestId('nav-samples').textContent()).toBe('Fotos de dados');
    expect(await page.getByTestId('save-photo').textContent()).toBe('Guardar foto');
    expect(await page.locator('.sample-die').count()).toBe(n);
    // a phone: the photo takes the width, the boxes stay on their dice
    await page.setViewportSize({ width: 360, height: 640 });
    const small = (await page.getByTestId('sample-photo').boundingBox())!;
    expect(small.width).toBeLessThanOrEqual(360);
    await shot(page, 'dice-samples-phone');
    expect(errors).toEqual([]);
  }, 60_000);

  it('goes from the camera image of the roll panel to the dice photos page with its photo taken', async (ctx) => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) {
      ctx.skip('no dice model to read the simulated camera');
      return;
    }
    await page.setViewportSize({ width: 1200, height: 1400 });
    await page.goto(`${server.url}/?view=roll&lang=en&pin=${PIN}`);
    await throwAndReadAtRest([6, 6]);
    // pressed while the camera's readings go on arriving (each one redraws the camera block): still a click
    const button = page.getByTestId('photo-these-dice');
    await expect.poll(() => button.boundingBox(), { timeout: 30_000 }).not.toBeNull();
    // focused from the keyboard, the button stays the same element through the camera's next readings
    await button.focus();
    await button.evaluate((el) => ((el as unknown as { mark: boolean }).mark = true));
    const focusedAt = await page.locator('#app').getAttribute('data-vision-at');
    await expect.poll(() => page.locator('#app').getAttribute('data-vision-at')).not.toBe(focusedAt);
    expect(await page.evaluate(() => (document.activeElement as unknown as { mark?: boolean } | null)?.mark === true)).toBe(true);
    const at = (await button.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    const seen = await page.locator('#app').getAttribute('data-vision-at');
    await expect.poll(() => page.locator('#app').getAttribute('data-vision-at')).not.toBe(seen);
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('nav-samples').getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.getByTestId('take-photo').textContent()).toBe('New photo');
    expect(await page.locator('.sample-die').count()).toBeGreaterThan(0);
    // the browser's Back returns to the roll panel, Forward to the photo with its labels
    const labels = await faces();
    await page.goBack();
    await expect.poll(() => page.getByTestId('nav-roll').getAttribute('aria-current')).toBe('page');
    expect(new URL(page.url()).searchParams.get('view')).toBe('roll');
    await page.goForward();
    await expect.poll(() => page.getByTestId('nav-samples').getAttribute('aria-current')).toBe('page');
    expect(await faces()).toEqual(labels);
    expect(errors).toEqual([]);
  }, 60_000);

  it('teaches the camera the saved photos from the page, reads with the taught model, and goes back', async (ctx) => {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) {
      ctx.skip('no dice model to read the simulated camera');
      return;
    }
    await page.setViewportSize({ width: 1200, height: 1400 });
    // too few photos: the button waits for them
    await writeSyntheticSet(server.samplesDir, 5, 11, undefined, 'table', 'marbled');
    await page.goto(`${server.url}/?view=samples&lang=en&pin=${PIN}`);
    await expect.poll(() => page.getByTestId('teach-reading').getAttribute('data-kind')).toBe('shipped');
    expect(await page.getByTestId('teach-reading').textContent()).toMatch(/^The camera reads with the dice model \d+\.\d+\.\d+\.$/);
    expect(await page.getByTestId('teach-start').isDisabled()).toBe(true);
    expect(await page.getByTestId('teach-need').textContent()).toBe('Save at least 6 photos first (30 or more teach best).');

    await writeSyntheticSet(server.samplesDir, 7, 11, undefined, 'table', 'marbled');
    await page.reload();
    await expect.poll(() => page.getByTestId('samples-count').textContent()).toBe('Saved so far: 7 photos');
    await page.getByTestId('teach-start').click();
    await expect.poll(() => page.getByTestId('teach-running').count()).toBe(1);
    expect(await page.getByTestId('teach-running').textContent()).toMatch(/^Teaching: /);
    await shot(page, 'dice-samples-teaching');
    await expect.poll(() => page.getByTestId('teach-result').getAttribute('data-written'), { timeout: 180_000, interval: 500 }).toBe('true');
    expect(await page.getByTestId('teach-result').textContent()).toMatch(/^Taught 4 of the 7 saved photos\. On the 3 kept back: right face \d+\.\d % → \d+\.\d %, .*The camera reads with it now\.$/);
    expect(await page.getByTestId('teach-reading').getAttribute('data-kind')).toBe('taught');
    expect(await page.getByTestId('teach-reading').textContent()).toContain("taught 4 photos of a table's dice");
    expect(((await (await fetch(`${server.url}/api/health`)).json()) as { vision: { model: string } }).vision.model).toContain("taught 4 photos of a table's dice");
    await shot(page, 'dice-samples-taught');

    await page.getByTestId('teach-use-base').click();
    await expect.poll(() => page.getByTestId('teach-reading').getAttribute('data-kind')).toBe('shipped');
    // the teaching's result no longer says the camera reads with it
    expect(await page.getByTestId('teach-result').textContent()).toMatch(/It is set aside now: the camera reads with the dice model \d+\.\d+\.\d+\.$/);
    expect(existsSync(server.models.setAsideDir)).toBe(true);
    await page.getByTestId('teach-use-taught').click();
    await expect.poll(() => page.getByTestId('teach-reading').getAttribute('data-kind')).toBe('taught');
    // in Spanish
    await page.getByTestId('lang').selectOption('es');
    await expect.poll(() => page.getByTestId('teach-start').textContent()).toBe('Enseñar estos dados a la cámara');
    expect(await page.getByTestId('teach-kept-check').count()).toBe(0);

    // another service given that taught model (as after a restart, the teaching gone from its memory): the check it passed comes with it
    const other = await startServer();
    try {
      cpSync(server.models.taughtDir, other.models.taughtDir, { recursive: true });
      await page.goto(`${other.url}/?view=samples&lang=en&pin=${PIN}`);
      await expect.poll(() => page.getByTestId('teach-kept-check').count()).toBe(1);
      expect(await page.getByTestId('teach-kept-check').textContent()).toMatch(/^When it was taught, on the 3 photos kept back: right face \d+\.\d % → \d+\.\d %, dice found \d+\.\d % → \d+\.\d %\.$/);
      await page.getByTestId('teach-use-taught').click();
      await expect.poll(() => page.getByTestId('teach-reading').getAttribute('data-kind')).toBe('taught');
      expect(await page.getByTestId('teach-kept-check').count()).toBe(1);
    } finally {
      await other.close();
    }
    expect(errors).toEqual([]);
  }, 240_000);
});
