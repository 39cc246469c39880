/** A tiny element builder: no HTML strings, so the page works under a strict CSP. */
export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
    return;
  }
  parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
}

function setAttrs(el: Element, attrs: Attrs | undefined): void {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'value' && (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)) {
      el.value = String(value);
    } else if (key === 'checked' && el instanceof HTMLInputElement) {
      el.checked = value === true;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

/** HTML element: h('div', {class: 'x'}, 'text', child...) */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs ?? undefined);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** SVG element */
export function s(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttrs(el, attrs ?? undefined);
  append(el, children);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/**
 * Keeps a <details>' open state across re-renders. A click on its summary records the state it is
 * about to take at once: the toggle event comes a task later, when a state push may already have
 * rebuilt the view from the old state. A detached (replaced) element's late toggle is ignored.
 */
export function keepOpenState(details: HTMLDetailsElement, record: (open: boolean) => void): void {
  details.querySelector(':scope > summary')?.addEventListener('click', () => record(!details.open));
  details.addEventListener('toggle', () => {
    if (details.isConnected) record(details.open);
  });
}

/**
 * Makes `old` show what `next` shows, changing only what differs: a text changed in place, an element
 * with the same tag and attributes kept (with its focus and listeners) and its children compared the
 * same way, anything else replaced. For a block redrawn several times a second whose listeners depend on
 * nothing but the app (the roll panel's camera block). Returns the node now shown.
 */
export function redrawInPlace(old: Node, next: Node): Node {
  if (old.isEqualNode(next)) return old;
  if (old.nodeType === Node.TEXT_NODE && next.nodeType === Node.TEXT_NODE) {
    old.textContent = next.textContent;
    return old;
  }
  if (!(old instanceof Element) || !(next instanceof Element) || !sameShell(old, next) || old.childNodes.length !== next.childNodes.length) {
    old.parentNode?.replaceChild(next, old);
    return next;
  }
  const before = Array.from(old.childNodes);
  Array.from(next.childNodes).forEach((child, i) => redrawInPlace(before[i]!, child));
  return old;
}

/** Same tag, namespace and attributes. */
function sameShell(a: Element, b: Element): boolean {
  if (a.namespaceURI !== b.namespaceURI || a.tagName !== b.tagName || a.attributes.length !== b.attributes.length) return false;
  return Array.from(a.attributes).every((at) => b.getAttributeNS(at.namespaceURI, at.localName) === at.value);
}
