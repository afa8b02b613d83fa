/**
 * SVG elements for the simulation's pictures (sections/simulation.ts, sections/histogram.ts): attributes are
 * numbers and our own class names; text goes in as text (`<title>`, `textContent`), never as markup.
 */
const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with its attributes set as data (numbers and our own class names only). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  children: Node[] = [],
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** A `<title>` (a tooltip and an accessible name) whose text is set as text. */
export function svgTitle(text: string): SVGTitleElement {
  const title = svg('title');
  title.textContent = text;
  return title;
}
