/**
 * A folded form (<details>) opened by a player stays open when a state push rebuilds the view in the
 * same task as the click, before the browser's toggle event arrives: the race that once closed the
 * "card not in the list" form under the players' fingers.
 */
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HAVE_CHROMIUM, ROOT, launch } from './harness.ts';
import { join } from 'node:path';

describe.skipIf(!HAVE_CHROMIUM)('keepOpenState (real Chromium)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(ROOT, 'web', 'src', 'dom.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'dom',
      write: false,
      platform: 'browser',
    });
    browser = await launch();
    page = await browser.newPage();
    await page.setContent('<!doctype html><body><main id="view"></main></body>');
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Renders a details from `ui.open`, clicks its summary and, in the same task, renders again. */
  async function clickThenRebuild(startOpen: boolean): Promise<{ recorded: boolean; rebuiltOpen: boolean; afterToggle: boolean }> {
    return page.evaluate(async (startOpen) => {
      const { h, keepOpenState } = (window as unknown as { dom: typeof import('../../web/src/dom.ts') }).dom;
      const ui = { open: startOpen };
      const view = document.getElementById('view')!;
      const render = (): HTMLDetailsElement => {
        const details = h('details', { open: ui.open }, h('summary', null, 'other card'), h('p', null, 'form'));
        keepOpenState(details, (open) => (ui.open = open));
        view.replaceChildren(details);
        return details;
      };
      render();
      await new Promise((r) => setTimeout(r, 20)); // the first render's own toggle event, if any
      view.querySelector('summary')!.click();
      const recorded = ui.open;
      const rebuilt = render();
      await new Promise((r) => setTimeout(r, 20)); // the toggle events of both elements
      return { recorded, rebuiltOpen: rebuilt.open, afterToggle: ui.open };
    }, startOpen);
  }

  it('keeps a form opened just before a re-render open', async () => {
    expect(await clickThenRebuild(false)).toEqual({ recorded: true, rebuiltOpen: true, afterToggle: true });
  });

  it('keeps a form folded just before a re-render folded', async () => {
    expect(await clickThenRebuild(true)).toEqual({ recorded: false, rebuiltOpen: false, afterToggle: false });
  });
});
