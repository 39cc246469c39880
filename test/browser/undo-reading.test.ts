/**
 * A dice reading taken back with Undo while its dice still lie in the tray (the simulated camera, a fixed
 * seed, read by the real model): the roll panel draws the camera's boxes faded and says they are not the
 * roll's, "Read the tray again" takes them back in one tap, and dice thrown again landing on the same
 * faces are read (the service no longer ignores them as unchanged).
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, api, command, shot, tableState, unlock, useBrowserTable } from './harness.ts';
import { ATTACK_ROLL } from '../service/helpers.ts';

type State = { roll: null | { tracker: { faces: number[] | null; readings: number; spec: { dice: number } } } };

describe.skipIf(!HAVE_CHROMIUM)('a dice reading taken back with Undo', () => {
  // a fixed seed: the dice land the same way every run, so the test checks the camera path, not the model's luck
  const t = useBrowserTable({ tables: [{ id: 'default', camera: { source: 'synthetic', seed: 1942 }, serial: 'virtual' }] }, { width: 1600, height: 1000 });
  const state = async () => (await tableState(t.server)) as unknown as State;
  const faces = async () => [...((await state()).roll?.tracker.faces ?? [])].sort().join(',') || null;
  const THROWN = [2, 3, 4, 6];
  const throwDice = async (faces = THROWN) => expect((await api(t.server, 'POST', '/api/tables/default/simulator/throw', { faces })).status).toBe(200);
  /** Skips the test (false) where no dice model reads the simulated camera. */
  const visionReady = async (ctx: { skip(note: string): void }): Promise<boolean> => {
    const health = (await (await fetch(`${t.server.url}/api/health`)).json()) as { vision?: { ready?: boolean; error?: string } };
    if (!health.vision?.ready) ctx.skip(`no dice model to read the simulated camera (${health.vision?.error ?? 'vision not ready'})`);
    return !!health.vision?.ready;
  };

  it('says the dice in the tray are not the roll\'s, reads them again in one tap, and reads a re-throw landing the same', { timeout: 180_000 }, async (ctx) => {
    const { server, page } = t;
    if (!(await visionReady(ctx))) return;
    // plane 4 attacks the planes on island 9: a roll of 4 dice
    for (const c of ATTACK_ROLL) await command(server, { ...c });
    expect((await state()).roll?.tracker.spec.dice).toBe(4);
    await page.goto(`${server.url}/?view=roll&lang=en`);
    await unlock(page);
    const panel = page.getByTestId('roll-panel');
    const showing = () => panel.locator('.faces-row').innerText();

    await throwDice();
    await expect.poll(faces, { timeout: 60_000 }).toBe('2,3,4,6');
    await expect.poll(() => page.locator('.die-box').count(), { timeout: 10_000 }).toBe(4);
    expect(await page.locator('.die-box.not-taken').count()).toBe(0);

    // the reading taken back with the roll panel's Undo: "Dice showing —", and the boxes still on the frame say why
    await page.getByTestId('undo-roll').click();
    await expect.poll(faces).toBe(null);
    await expect.poll(showing).toMatch(/—/);
    const note = page.getByTestId('reading-undone');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.innerText()).toMatch(/^Reading taken back: the dice in the tray \(drawn faded\) are not read into the roll\./);
    expect(await page.locator('.die-box').count()).toBe(4);
    expect(await page.locator('.die-box.not-taken').count()).toBe(4);
    await shot(page, 'roll-reading-undone');
    // the camera does not take the same dice back on its own
    await page.waitForTimeout(2000);
    expect(await faces()).toBe(null);

    // in Spanish too
    await page.goto(`${server.url}/?view=roll&lang=es`);
    await expect.poll(() => page.getByTestId('reading-undone').count()).toBe(1);
    expect(await page.getByTestId('reading-undone').innerText()).toMatch(/^Lectura deshecha/);
    expect(await page.getByTestId('read-tray').innerText()).toBe('Volver a leer la bandeja');
    await page.goto(`${server.url}/?view=roll&lang=en`);

    // one tap takes the camera's view of the tray back into the roll, as the camera's reading
    const again = page.getByTestId('read-tray');
    await expect.poll(() => again.innerText()).toBe('Read the tray again');
    await again.click();
    await expect.poll(faces).toBe('2,3,4,6');
    expect(server.service.journal.load('default').at(-1)).toMatchObject({ origin: 'camera', command: { type: 'dice', faces: [2, 3, 4, 6] } });
    await expect.poll(() => page.getByTestId('reading-undone').count()).toBe(0);
    expect(await page.locator('.die-box.not-taken').count()).toBe(0);
    expect(await page.locator('.toast-error').count()).toBe(0);

    // taken back again with the box's Undo; the dice thrown again land on the same faces: read, not ignored as unchanged
    expect((await api(server, 'POST', '/api/tables/default/box/press', { button: 'undo' })).data).toMatchObject({ ok: true, refused: false });
    await expect.poll(faces).toBe(null);
    await expect.poll(() => page.getByTestId('reading-undone').count()).toBe(1);
    await throwDice();
    await expect.poll(faces, { timeout: 60_000 }).toBe('2,3,4,6');
    await expect.poll(() => page.getByTestId('reading-undone').count()).toBe(0);
    expect(await page.locator('.die-box.not-taken').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });

  it('a refused reading (a die too many) taken back: the toast names it, the warning stays while the die is in the tray, Confirm stays refused; a second Undo goes back', { timeout: 180_000 }, async (ctx) => {
    const { server, page } = t;
    if (!(await visionReady(ctx))) return;
    for (const c of ATTACK_ROLL) await command(server, { ...c });
    await page.goto(`${server.url}/?view=roll&lang=en`);
    await page.getByTestId('roll-panel').waitFor();
    // the page keeps the PIN given in the test before
    if (await page.getByTestId('unlock').isVisible()) await unlock(page);
    const refused = async () => ((await state()).roll?.tracker as unknown as { flags: { type: string }[] }).flags.map((f) => f.type).join(',');
    const warning = page.getByTestId('flag-dice-count');
    const confirm = page.getByTestId('confirm-roll');
    const toast = page.locator('.toast-ok');
    // not the faces the tray was left on (the camera passes on no reading of dice landing as its last)
    const fourDice = () => throwDice([2, 3, 5, 6]);
    await fourDice();
    await expect.poll(faces, { timeout: 60_000 }).toBe('2,3,5,6');
    await throwDice([2, 3, 5, 6, 4]);
    await expect.poll(refused, { timeout: 60_000 }).toBe('wrongDiceCount');
    await expect.poll(() => warning.count()).toBe(1);
    expect(await warning.innerText()).toMatch(/^Expected 4 dice, saw 5\. Take the dice that are not in this roll out of the tray/);
    expect(await confirm.isDisabled()).toBe(true);

    // the roll panel's Undo: named in the toast; the die still in the tray, the warning and the refusal stay
    await page.getByTestId('undo-roll').click();
    await expect.poll(() => toast.textContent()).toBe("Undone: the camera's reading 2 3 4 5 6 (5 dice for a 4-dice roll).");
    // read again from the tray after the Undo's own push
    await expect.poll(refused).toBe('wrongDiceCount');
    await expect.poll(() => warning.count()).toBe(1);
    expect(await warning.innerText()).toMatch(/^Expected 4 dice, saw 5\./);
    expect(await confirm.isDisabled()).toBe(true);
    expect(await faces()).toBe('2,3,5,6');
    expect((await api(server, 'POST', '/api/tables/default/commands', { type: 'confirmRoll' })).data).toMatchObject({ error: { code: 'readingFlagged' } });

    // the box's Undo, told on this page as news, in its words: a second Undo in a row, those dice lying still,
    // goes back to the dice read before the extra one (no third reading of the same tray), the tray's dice taken back
    await page.goto(`${server.url}/?view=roll&lang=es`);
    await expect.poll(() => warning.count()).toBe(1);
    await expect.poll(() => page.locator('.die-box').count()).toBe(5);
    expect((await api(server, 'POST', '/api/tables/default/box/press', { button: 'undo' })).data).toMatchObject({ ok: true, refused: false });
    await expect.poll(() => toast.textContent()).toBe('Deshecho: la lectura de la cámara 2 3 4 5 6 (5 dados para una tirada de 4).');
    await expect.poll(refused).toBe('');
    await expect.poll(() => warning.count()).toBe(0);
    expect(await faces()).toBe('2,3,5,6');
    expect((await api(server, 'GET', '/api/tables/default/state')).data).toMatchObject({ readingUndone: { faces: [2, 3, 4, 5, 6] } });

    // the extra die taken out and the dice thrown: the roll is on the dice in the tray, and Confirm is offered
    await throwDice([2, 4, 5, 6]);
    await expect.poll(faces, { timeout: 60_000 }).toBe('2,4,5,6');
    await expect.poll(refused).toBe('');
    await expect.poll(() => warning.count()).toBe(0);
    expect(await confirm.isDisabled()).toBe(false);
    expect(t.errors).toEqual([]);
  });
});
