/**
 * Runs inside the page (serialised with Function#toString, so it must not use imports).
 * Spec "Warning": `selector` is the element tag and up to two classes — never user text.
 */
export function selectorOf(el: Element): string {
  const classes = Array.from(el.classList)
    .slice(0, 2)
    .map((c) => `.${CSS.escape(c)}`)
    .join('');
  return el.localName + classes;
}
