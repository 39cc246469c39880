/**
 * What the user is in the middle of on the page, which rebuilding it would take from under them: a
 * press or drag under way (a button rebuilt between press and release never gets its click; a drag
 * loses its path), or a list or text field they are in and have not chosen from yet (an open list
 * closes when rebuilt). A region holding one is left alone (`holds`); `release` is called once the
 * user lets go, chooses or leaves, or after a limit, so that the rebuild that waited can happen. A
 * rebuild that does happen gives a button's focus back (`keepingFocus`).
 */

/** How long a list or field the user is in, without choosing, holds its region. */
export const CONTROL_HOLD_MS = 8000;
/** How long a press or drag holds its region (a release the page never heard of ends it too). */
export const PRESS_HOLD_MS = 30_000;

/** A list or text field: the user stays in it for a while (buttons and boxes are one click). */
export function isListOrField(el: Element): boolean {
  if (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file'].includes(el.type);
}

/** The list or text field of `region` the user is in, if any. */
export function controlInUse(region: HTMLElement, doc: Document = document): HTMLElement | null {
  const el = doc.activeElement;
  return el instanceof HTMLElement && region.contains(el) && isListOrField(el) ? el : null;
}

export class UserHold {
  /** where a press or drag under way started */
  private pressed: Node | null = null;
  private pressTimer: ReturnType<typeof setTimeout> | null = null;
  /** controls chosen from (or held too long) since the user last came into them: not held again */
  private readonly letGo = new WeakSet<EventTarget>();
  /** the control a hold waits on, and its limit */
  private watched: { control: HTMLElement; timer: ReturnType<typeof setTimeout> } | null = null;
  /** a region was left alone: `release` is owed when the user lets go */
  private waited = false;

  constructor(private readonly release: () => void, private readonly doc: Document = document) {
    doc.addEventListener('pointerdown', (e) => this.press(e.target), true);
    doc.addEventListener('pointerup', () => this.unpress(), true);
    // the click a press ends in is the user's own action: what its handler renders is not held
    doc.addEventListener('click', () => this.clicked(), true);
    doc.addEventListener('pointercancel', () => this.unpress(), true);
    doc.defaultView?.addEventListener('blur', () => this.unpress());
    doc.addEventListener('change', (e) => {
      if (e.target) this.letGo.add(e.target);
      if (this.watched?.control === e.target) this.unwatch();
    }, true);
    doc.addEventListener('focusin', (e) => e.target && this.letGo.delete(e.target), true);
    doc.addEventListener('focusout', (e) => this.watched?.control === e.target && this.unwatch(), true);
  }

  /** True when the user is in the middle of something in `region`: leave it as it is for now. */
  holds(region: HTMLElement): boolean {
    if (this.pressed && region.contains(this.pressed)) return this.wait();
    const control = controlInUse(region, this.doc);
    if (!control || this.letGo.has(control)) return false;
    if (this.watched?.control !== control) {
      if (this.watched) clearTimeout(this.watched.timer);
      this.watched = {
        control,
        timer: setTimeout(() => {
          this.letGo.add(control);
          this.unwatch();
        }, CONTROL_HOLD_MS),
      };
    }
    return this.wait();
  }

  private wait(): true {
    this.waited = true;
    return true;
  }

  private press(target: EventTarget | null): void {
    this.pressed = target instanceof Node ? target : null;
    if (this.pressTimer) clearTimeout(this.pressTimer);
    this.pressTimer = setTimeout(() => this.unpress(), PRESS_HOLD_MS);
  }

  private unpress(): void {
    const pressed = this.pressed;
    if (!pressed) return;
    if (this.pressTimer) clearTimeout(this.pressTimer);
    this.pressTimer = null;
    // after the click that follows the release, which the element pressed must still be there to get
    setTimeout(() => {
      if (this.pressed === pressed) this.pressed = null;
      this.owe();
    }, 0);
  }

  private clicked(): void {
    if (this.pressTimer) clearTimeout(this.pressTimer);
    this.pressTimer = null;
    this.pressed = null;
    this.owe();
  }

  private unwatch(): void {
    if (this.watched) clearTimeout(this.watched.timer);
    this.watched = null;
    this.owe();
  }

  /** The rebuild that waited, after the event that let go has reached its own handlers (a list's choice). */
  private owe(): void {
    if (!this.waited) return;
    setTimeout(() => {
      if (!this.waited) return;
      this.waited = false;
      this.release();
    }, 0);
  }
}

/**
 * Rebuilds `region` (`rebuild` returns where the new content is: the region itself, or what replaced
 * it), then gives the focus back to the button, box or mark that had it (the same `data-testid` or `id`), so
 * that a keyboard user is not sent back to the top of the page by a state push. A list or field rebuilt
 * had been let go of (UserHold): it is not taken back into.
 */
export function keepingFocus(region: HTMLElement, rebuild: () => HTMLElement, doc: Document = document): void {
  const had = doc.activeElement;
  const inside = (had instanceof HTMLElement || had instanceof SVGElement) && had !== region && region.contains(had) ? had : null;
  const kept = inside && !isListOrField(inside) ? inside : null;
  const key = kept ? (kept.dataset.testid ? ['data-testid', kept.dataset.testid] : kept.id ? ['id', kept.id] : null) : null;
  const view = doc.defaultView;
  const scrolled = view ? { x: view.scrollX, y: view.scrollY } : null;
  const rebuilt = rebuild();
  // the page can jump to the top when the focused element goes (seen in Chromium on the camera page): it stays where it was
  if (inside && view && scrolled && (view.scrollX !== scrolled.x || view.scrollY !== scrolled.y)) view.scrollTo(scrolled.x, scrolled.y);
  if (!key || (doc.activeElement && doc.activeElement !== doc.body)) return;
  rebuilt.querySelector<HTMLElement | SVGElement>(`[${key[0]}="${CSS.escape(key[1]!)}"]`)?.focus({ preventScroll: true });
}
