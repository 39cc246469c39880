/**
 * The camera set-up page: the tray and kept zone drawn over the live image, a tray drawn by dragging
 * across it and saved (used by the service at once, shown again after a reload), adjusted by dragging a
 * corner, the tray found in a
 * frame of the empty tray, back to the tables file's; the dice sizes under the image.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, api, command, leavingIsHeld, shot, unlock, useBrowserTable } from './harness.ts';

type Calibration = { source: string; tray: { x: number; y: number; w: number; h: number } | null; keptZone: unknown };
const URL = '/api/tables/default/camera/calibration';

describe.skipIf(!HAVE_CHROMIUM)('camera set-up', () => {
  const table = useBrowserTable({ tables: [{ id: 'default', camera: { source: 'synthetic', seed: 7 } }] });
  const page = () => table.page;

  const calibration = async () => (await api(table.server, 'GET', URL)).data as unknown as Calibration;

  /** Drags across the camera image between two points given as shares of it. */
  async function drag(from: [number, number], to: [number, number]): Promise<void> {
    await page().getByTestId('setup-wrap').scrollIntoViewIfNeeded();
    const box = (await page().getByTestId('setup-wrap').boundingBox())!;
    await page().mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
    await page().mouse.down();
    await page().mouse.move(box.x + ((from[0] + to[0]) / 2) * box.width, box.y + ((from[1] + to[1]) / 2) * box.height, { steps: 4 });
    await page().mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 4 });
    await page().mouse.up();
  }

  it('shows the tables file\'s tray and kept zone over the live image, and asks for the PIN to change them', async () => {
    await page().goto(`${table.server.url}/?view=camera&lang=en`);
    await expect.poll(() => page().getByTestId('calibration-source').textContent()).toBe('In use: the tables file\'s.');
    expect(await page().getByTestId('area-tray').count()).toBe(1);
    expect(await page().getByTestId('area-kept').count()).toBe(1);
    await expect.poll(() => page().getByTestId('setup-frame').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(640);
    expect(await page().getByTestId('camera-unlock').count()).toBe(1);
    expect(await page().getByTestId('draw-tray').count()).toBe(0);
  });

  it('draws the tray by dragging across the image and saves it, kept by the service', async () => {
    await unlock(page());
    await page().getByTestId('draw-tray').click();
    expect(await page().getByTestId('draw-hint').textContent()).toBe(
      'Drag across the image from one corner of the area to the opposite corner, or tap its four corners (a camera looking at the tray at an angle).',
    );
    // too small a drag is refused in words, nothing changes
    await drag([0.3, 0.3], [0.315, 0.31]);
    expect(await page().getByTestId('calibration-message').textContent()).toBe('Too small for a tray: drag a larger rectangle.');
    expect(await page().getByTestId('calibration-draft').count()).toBe(0);
    // a tray narrower than three dice is taken, with a word of warning
    await drag([0.3, 0.3], [0.38, 0.36]);
    await page().getByTestId('calibration-draft').waitFor();
    expect(await page().getByTestId('tray-small').textContent()).toMatch(/^This tray is \d+ px across at its narrowest, under 3 dice of \d+ px: thrown dice will often land over its line/);
    await page().getByTestId('draw-tray').click();
    await drag([0.6, 0.8], [0.1, 0.1]);
    await expect.poll(() => page().getByTestId('tray-small').count()).toBe(0);
    await page().getByTestId('calibration-draft').waitFor();
    expect((await calibration()).source).toBe('config'); // not saved yet
    await page().getByTestId('no-kept').click();
    expect(await page().getByTestId('area-kept').count()).toBe(0);
    await shot(page(), 'camera-setup-drawn');
    // drawn and not saved: closing the tab asks first
    expect(await leavingIsHeld(page())).toBe(true);
    await page().getByTestId('save-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-message').textContent()).toBe('Saved: the camera reads within it now.');
    expect(await leavingIsHeld(page())).toBe(false);
    const saved = await calibration();
    expect(saved.source).toBe('saved');
    expect(saved.keptZone).toBeNull();
    expect(saved.tray!.x).toBeCloseTo(0.1, 1);
    expect(saved.tray!.y).toBeCloseTo(0.1, 1);
    expect(saved.tray!.w).toBeCloseTo(0.5, 1);
    expect(saved.tray!.h).toBeCloseTo(0.7, 1);
    await page().reload();
    await expect.poll(() => page().getByTestId('calibration-source').textContent()).toMatch(/^In use: set on this page \(.+\)\.$/);
    expect(await page().getByTestId('area-kept').count()).toBe(0);
  });

  it('adjusts the saved tray by dragging one of its corners', async () => {
    expect(await page().getByTestId('adjust-hint').textContent()).toBe('To adjust an area, drag one of its round corner marks (or focus one and use the arrow keys); save when it fits.');
    // a drag away from every corner changes nothing
    await drag([0.3, 0.4], [0.35, 0.5]);
    expect(await page().getByTestId('calibration-draft').count()).toBe(0);
    // the bottom right corner (0.6, 0.8) dragged out to (0.7, 0.85); the top left stays
    const corner = (await page().getByTestId('handle-tray-2').boundingBox())!;
    const box = (await page().getByTestId('setup-wrap').boundingBox())!;
    expect((corner.x + corner.width / 2 - box.x) / box.width).toBeCloseTo(0.6, 1);
    await drag([(corner.x + corner.width / 2 - box.x) / box.width, (corner.y + corner.height / 2 - box.y) / box.height], [0.7, 0.85]);
    await page().getByTestId('calibration-draft').waitFor();
    await page().getByTestId('save-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-message').textContent()).toBe('Saved: the camera reads within it now.');
    const tray = (await calibration()).tray!;
    expect(tray.x).toBeCloseTo(0.1, 1);
    expect(tray.y).toBeCloseTo(0.1, 1);
    expect(tray.x + tray.w).toBeCloseTo(0.7, 1);
    expect(tray.y + tray.h).toBeCloseTo(0.85, 1);
  });

  it('moves a corner from the keyboard: focused, the arrow keys move it, further with Shift', async () => {
    const before = (await calibration()).tray!;
    await page().getByTestId('handle-tray-0').focus();
    expect(await page().getByTestId('handle-tray-0').getAttribute('aria-label')).toBe('tray corner 1: the arrow keys move it, further with Shift');
    await page().keyboard.press('Shift+ArrowRight');
    await page().keyboard.press('Shift+ArrowRight');
    await page().keyboard.press('ArrowDown');
    // the mark keeps the focus as the page is drawn again after each key
    expect(await page().evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('handle-tray-0');
    await page().getByTestId('save-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-message').textContent()).toBe('Saved: the camera reads within it now.');
    const tray = (await calibration()).tray!;
    expect(tray.x).toBeCloseTo(before.x + 0.04, 3);
    expect(tray.y).toBeCloseTo(before.y + 0.005, 3);
    // the opposite corner stayed
    expect(tray.x + tray.w).toBeCloseTo(before.x + before.w, 3);
    expect(tray.y + tray.h).toBeCloseTo(before.y + before.h, 3);
  });

  it('keeps a corner drag going while the table changes under it', async () => {
    await page().getByTestId('setup-wrap').scrollIntoViewIfNeeded();
    const box = (await page().getByTestId('setup-wrap').boundingBox())!;
    const corner = (await page().getByTestId('handle-tray-0').boundingBox())!;
    await page().mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await page().mouse.down();
    await page().mouse.move(box.x + 0.15 * box.width, box.y + 0.15 * box.height, { steps: 3 });
    // a game starts meanwhile: the page gets a new state of the table
    const seq = await page().locator('#app').getAttribute('data-seq');
    await command(table.server, { type: 'newGame', players: 1, deck: 'physical', seed: 1 });
    await expect.poll(() => page().locator('#app').getAttribute('data-seq')).not.toBe(seq);
    await page().mouse.move(box.x + 0.2 * box.width, box.y + 0.2 * box.height, { steps: 3 });
    await page().mouse.up();
    await page().getByTestId('calibration-draft').waitFor();
    await page().getByTestId('cancel-calibration').click();
  });

  it('takes four tapped corners as the tray of a camera looking at it at an angle', async () => {
    await page().getByTestId('draw-tray').click();
    await page().getByTestId('setup-wrap').scrollIntoViewIfNeeded();
    const box = (await page().getByTestId('setup-wrap').boundingBox())!;
    const tap = (x: number, y: number) => page().mouse.click(box.x + x * box.width, box.y + y * box.height);
    // tapped in no particular order
    await tap(0.1, 0.12);
    await tap(0.75, 0.9);
    await expect.poll(() => page().getByTestId('draw-hint').textContent()).toMatch(/Corners to tap: 2 more\.$/);
    // the page stays where it was under the finger
    expect((await page().getByTestId('setup-wrap').boundingBox())!.y).toBe(box.y);
    await tap(0.8, 0.1);
    await tap(0.15, 0.85);
    await page().getByTestId('calibration-draft').waitFor();
    await page().getByTestId('save-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-message').textContent()).toBe('Saved: the camera reads within it now.');
    const quad = (await calibration()).tray as unknown as { quad: [number, number][] };
    expect(quad.quad).toHaveLength(4);
    // the service took it: its corners go round the tray, and it is drawn as one shape
    expect(await page().getByTestId('area-tray').evaluate((el) => el.tagName)).toBe('polygon');
    expect(await page().getByTestId('corner').count()).toBe(0);
  });

  it('finds the tray in a frame of the empty tray, to check and save', async () => {
    await page().getByTestId('find-tray').click();
    await expect.poll(() => page().getByTestId('calibration-message').textContent()).toMatch(/^Found: an even surface covering \d+ % of the image\. Check it, then save\.$/);
    await page().getByTestId('calibration-draft').waitFor();
    // drawn in the frame's pixels: as shares of it, the synthetic tray's 4 % margins and its floor the left
    // 68 % (server/hardware/camera/synthetic-calibration.ts)
    const drawn = await page().getByTestId('area-tray').evaluate((r) => {
      const [, , w, h] = (r as SVGGraphicsElement).ownerSVGElement!.getAttribute('viewBox')!.split(' ').map(Number);
      return [Number(r.getAttribute('x')) / w!, Number(r.getAttribute('y')) / h!, Number(r.getAttribute('width')) / w!];
    });
    expect(Math.abs(drawn[0]! - 0.04)).toBeLessThan(0.04);
    expect(Math.abs(drawn[1]! - 0.04)).toBeLessThan(0.04);
    expect(Math.abs(drawn[2]! - 0.68)).toBeLessThan(0.06);
    await page().getByTestId('cancel-calibration').click();
    expect(await page().getByTestId('calibration-draft').count()).toBe(0);
    expect((await calibration()).source).toBe('saved');
  });

  it('goes back to the tables file\'s', async () => {
    await page().getByTestId('reset-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-source').textContent()).toBe('In use: the tables file\'s.');
    expect((await calibration()).source).toBe('config');
    expect(await page().getByTestId('area-kept').count()).toBe(1);
  });

  it('sets a kept zone with the keyboard alone: a first rectangle, its corners moved with the arrow keys', async () => {
    const tray = (await calibration()).tray!;
    await page().getByTestId('no-kept').click();
    await page().getByTestId('draw-keptZone').focus();
    await page().keyboard.press('Enter');
    await page().getByTestId('draw-start').focus();
    await page().keyboard.press('Enter');
    // the right fifth of the tray, its first corner mark focused for the arrow keys
    await page().getByTestId('area-kept').waitFor();
    expect(await page().evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('handle-kept-0');
    expect(await page().getByTestId('draw-hint').count()).toBe(0);
    await page().keyboard.press('Shift+ArrowLeft');
    await page().getByTestId('save-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-message').textContent()).toBe('Saved: the camera reads within it now.');
    const kept = (await calibration()).keptZone as { x: number; y: number; w: number; h: number };
    expect(kept.x + kept.w).toBeCloseTo(tray.x + tray.w, 3);
    expect(kept.w).toBeCloseTo(Math.round((tray.w / 5) * 1000) / 1000 + 0.02, 3);
    expect(kept.y).toBeCloseTo(tray.y, 3);
    expect(kept.h).toBeCloseTo(tray.h, 3);
    await page().getByTestId('reset-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-source').textContent()).toBe('In use: the tables file\'s.');
  });

  it('says how large the camera sees the dice at rest', async (ctx) => {
    const health = (await (await fetch(`${table.server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) {
      ctx.skip('no dice model to read the simulated camera');
      return;
    }
    await api(table.server, 'POST', '/api/tables/default/simulator/throw', { faces: [2, 4, 6] });
    await expect.poll(() => page().getByTestId('camera-sizes').textContent(), { timeout: 30_000 }).toMatch(/^3 dice at rest, \d+–\d+ px across\. Good: the dice reader reads 20–70 px best\.$/);
    // each boxed on the image with its size
    await expect.poll(() => page().locator('.seen-dice rect').count()).toBe(3);
    expect(await page().locator('.seen-dice text').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+ px$/)]));
    await shot(page(), 'camera-setup');
    expect(table.errors).toEqual([]);
  });

  it('shows a die lying over the tray\'s line, never counted, here and on the roll panel', async (ctx) => {
    const health = (await (await fetch(`${table.server.url}/api/health`)).json()) as { vision?: { ready?: boolean } };
    if (!health.vision?.ready) {
      ctx.skip('no dice model to read the simulated camera');
      return;
    }
    // the three dice at rest from the test before, in pixels of the 640-wide frame
    const centres = await page().locator('.seen-dice rect').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2));
    expect(centres).toHaveLength(3);
    const [last, next] = [...centres].sort((a, b) => b - a) as [number, number];
    const { tray } = await calibration();
    // the tray's right side just left of the rightmost die's centre, the others well inside
    const right = last / 640 - 0.005;
    expect(next / 640).toBeLessThan(right - 0.02);
    const saved = await api(table.server, 'PUT', URL, { tray: { x: tray!.x, y: tray!.y, w: Math.round((right - tray!.x) * 1000) / 1000, h: tray!.h }, keptZone: null });
    expect(saved.status).toBe(200);
    await expect.poll(() => page().getByTestId('camera-sizes').textContent(), { timeout: 30_000 }).toMatch(/^2 dice at rest, .* Dice over the tray's line \(marked ×\): 1\. The camera does not read them/);
    expect(await page().locator('.seen-dice rect.outside').count()).toBe(1);
    await page().getByTestId('nav-roll').click();
    await expect.poll(() => page().getByTestId('vision-outside').textContent()).toContain('A die lies over the tray\'s line (marked ×): it is not read.');
    expect(await page().locator('.die-box.outside').count()).toBe(1);
    expect(await page().locator('.die-box:not(.outside)').count()).toBe(2);
    await shot(page(), 'roll-die-over-the-line');
    await page().goBack();
    await page().getByTestId('reset-calibration').click();
    await expect.poll(() => page().getByTestId('calibration-source').textContent()).toBe('In use: the tables file\'s.');
    expect(table.errors).toEqual([]);
  });
});
