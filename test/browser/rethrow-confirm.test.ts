/**
 * Confirm pressed right after dice are thrown again (the simulated camera, a fixed seed, read by the real
 * model): the button holds until the camera has read the dice at rest, so the roll is confirmed on the dice
 * of the throw, never on those read before it.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, api, command, tableState, unlock, useBrowserTable } from './harness.ts';
import { ATTACK_ROLL } from '../service/helpers.ts';

type State = { roll: null | { tracker: { faces: number[] | null } } };

describe.skipIf(!HAVE_CHROMIUM)('Confirm right after a re-throw', () => {
  const t = useBrowserTable({ tables: [{ id: 'default', camera: { source: 'synthetic', seed: 1942 }, serial: 'virtual' }] }, { width: 1600, height: 1000 });
  const faces = async () => [...(((await tableState(t.server)) as unknown as State).roll?.tracker.faces ?? [])].sort().join(',') || null;
  const throwDice = async (thrown: number[]) => expect((await api(t.server, 'POST', '/api/tables/default/simulator/throw', { faces: thrown })).status).toBe(200);

  it('waits for the camera to read the dice thrown, then confirms those', { timeout: 180_000 }, async (ctx) => {
    const { server, page } = t;
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { vision?: { ready?: boolean; error?: string } };
    if (!health.vision?.ready) {
      ctx.skip(`no dice model to read the simulated camera (${health.vision?.error ?? 'vision not ready'})`);
      return;
    }
    for (const c of ATTACK_ROLL) await command(server, { ...c });
    await page.goto(`${server.url}/?view=roll&lang=en`);
    await unlock(page);
    const confirm = page.getByTestId('confirm-roll');

    await throwDice([2, 3, 4, 6]);
    await expect.poll(faces, { timeout: 60_000 }).toBe('2,3,4,6');
    await expect.poll(() => confirm.isEnabled()).toBe(true);

    // thrown again: Confirm waits (saying why) while the camera still shows the dice read before
    await throwDice([3, 5, 5, 6]);
    await expect.poll(() => confirm.isDisabled(), { timeout: 2000 }).toBe(true);
    expect(await confirm.getAttribute('title')).toMatch(/^The dice are moving or being read/);
    await confirm.click({ timeout: 60_000 });
    await expect.poll(() => server.service.journal.load('default').at(-1)?.command.type).toBe('confirmRoll');
    const read = server.service.journal.load('default').filter((e) => e.command.type === 'dice').at(-1);
    expect(read).toMatchObject({ origin: 'camera', command: { faces: [3, 5, 5, 6] } });
    expect(t.errors).toEqual([]);
  });
});
