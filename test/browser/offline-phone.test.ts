/** A phone that loses its connection to the table: its controls that send are held, and it says so in its own language. */
import { describe, expect, it } from 'vitest';
import { refusalText } from '../../web/src/refusals.ts';
import { setLang } from '../../web/src/i18n.ts';
import { HAVE_CHROMIUM, command, unlock, useBrowserTable } from './harness.ts';

describe('a connection problem in Spanish', () => {
  it('is said in Spanish alone, not as a refusal with English words under it', () => {
    setLang('es', null);
    try {
      expect(refusalText({ code: 'offline', message: 'Not connected to the table.' })).toEqual({ text: 'No hay conexión con la mesa.', detail: null });
      expect(refusalText({ code: 'timeout', message: 'The table did not answer in time.' })).toEqual({ text: 'La mesa no ha respondido a tiempo.', detail: null });
      expect(refusalText({ code: 'noReply', message: 'The table gave no answer.' }).detail).toBeNull();
      expect(refusalText({ code: 'network', message: 'Failed to fetch' }).detail).toBeNull();
    } finally {
      setLang('en', null);
    }
  });
});

describe.skipIf(!HAVE_CHROMIUM)('a phone offline', () => {
  const tb = useBrowserTable(undefined, { width: 390, height: 844 }, { isMobile: true, hasTouch: true });

  /** The controls that send a command now, and whether each is disabled. */
  const sending = () => tb.page.evaluate(() => Array.from(document.querySelectorAll<HTMLButtonElement>('[data-sends] button, button[data-sends]'))
    .map((b) => ({ what: b.dataset.testid ?? b.textContent, disabled: b.disabled })));

  it('holds its controls that send while the connection is lost, says so in Spanish, and gives them back once it is back', async () => {
    const { page, server } = tb;
    await command(server, { type: 'newGame', players: 2, seed: 11, difficulty: 30 });
    await command(server, { type: 'drawCard' });
    await page.goto(`${server.url}/?view=phone&seat=1&lang=es`);
    await unlock(page);
    await page.getByTestId('choose-1-move').waitFor();
    const online = await sending();
    expect(online.map((b) => b.what)).toEqual(expect.arrayContaining(['choose-1-move', 'phone-undo']));
    expect(online.find((b) => b.what === 'choose-1-move')!.disabled).toBe(false);

    await page.context().setOffline(true);
    await page.getByTestId('offline').waitFor();
    expect(await page.getByTestId('offline').textContent()).toBe('Conexión con la mesa perdida — reconectando…');
    const offline = await sending();
    expect(offline.filter((b) => !b.disabled)).toEqual([]);
    expect(offline.length).toBe(online.length);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/\b(connect\w*|table|answer|not allowed)\b/i);

    await page.context().setOffline(false);
    await page.getByTestId('offline').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(async () => (await sending()).find((b) => b.what === 'choose-1-move')?.disabled).toBe(false);
    await page.getByTestId('choose-1-move').click();
    await expect.poll(() => page.getByTestId('action-1').textContent()).toBe('Mover');
    expect(tb.errors).toEqual([]);
  });
});
