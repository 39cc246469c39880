/**
 * While the connection to the table is lost nothing sent reaches it: the controls that send commands
 * (marked `SENDS`: a button, or a block whose buttons all send) are disabled until it is back.
 */
import type { Attrs } from './dom.ts';

export const SENDS: Attrs = { 'data-sends': true };

/** Disables the marked controls while `offline`; gives back those it disabled once online again. */
export function holdSendsWhileOffline(root: ParentNode, offline: boolean): void {
  for (const marked of Array.from(root.querySelectorAll<HTMLElement>('[data-sends]'))) {
    const buttons = marked instanceof HTMLButtonElement ? [marked] : Array.from(marked.querySelectorAll('button'));
    for (const button of buttons) {
      if (offline && !button.disabled) {
        button.disabled = true;
        button.dataset.offline = '';
      } else if (!offline && button.dataset.offline !== undefined) {
        button.disabled = false;
        delete button.dataset.offline;
      }
    }
  }
}
