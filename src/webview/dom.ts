// The only way the page makes DOM: elements with text set through textContent and attributes from a fixed allow-list.
// No innerHTML anywhere, so untrusted trace text cannot become markup, script, style or a link.

type Child = Node | string | null | undefined | false;

const ALLOWED_ATTRIBUTES = new Set(['class', 'id', 'role', 'tabindex', 'title', 'type', 'min', 'max', 'step', 'value', 'placeholder', 'for', 'dir', 'viewBox', 'width', 'height', 'x', 'y', 'rx', 'x1', 'x2', 'y1', 'y2', 'cx', 'cy', 'r', 'd', 'points', 'fill', 'stroke', 'stroke-width', 'hidden', 'dx']);

/** Creates an element; attributes named `aria-*` / `data-*` or on the allow-list, children appended as text nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  setAttributes(node, attributes);
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element the same way. */
export function svg(tag: string, attributes: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): SVGElement {
  const node = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttributes(node, attributes);
  append(node, children);
  return node;
}

function setAttributes(node: Element, attributes: Record<string, string | number | boolean | undefined>): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (!ALLOWED_ATTRIBUTES.has(name) && !/^(aria|data)-[a-z-]+$/.test(name)) throw new Error(`dom: attribute ${name} is not allowed`);
    node.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces an element's children. */
export function replaceChildren(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, children);
}
