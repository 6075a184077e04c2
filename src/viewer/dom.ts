// Building the page's elements: attributes given as an object, null and undefined ones left out.

const SVG_NS = 'http://www.w3.org/2000/svg';

type Attributes = Record<string, string | number | null | undefined>;
type Child = Node | string | null | undefined;

export function svg(tag: string, attributes: Attributes = {}, children: Child[] = []): SVGElement {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

/** An HTML element; the attribute `text` is its text content. */
export function html(tag: string, attributes: Attributes = {}, children: Child[] = []): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function svgText(x: number, y: number, text: string, attributes: Attributes = {}): SVGElement {
  const node = svg('text', { x, y, ...attributes });
  node.textContent = text;
  return node;
}

export function tooltip(text: string): SVGElement {
  const node = svg('title');
  node.textContent = text;
  return node;
}

/** The page's element of that id, which index.html holds. */
export function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element;
}
