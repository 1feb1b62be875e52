interface PagedApi {
  Handler: new (...args: unknown[]) => object;
  registerHandlers(...handlers: unknown[]): void;
}

/**
 * Registers a Paged.js handler (runs inside the page, serialised) that gives every continuation of a
 * split table a copy of its `<thead>`. It is inserted when the first row lands on the new page, so
 * the layout measures the page with the header already in place.
 */
export function registerRepeatedTableHeaders(): void {
  const paged = (window as unknown as { Paged: PagedApi }).Paged;
  class RepeatTableHeaders extends paged.Handler {
    renderNode(clone: Node, node: Node): void {
      if (!(clone instanceof HTMLTableRowElement) || !(node instanceof Element)) return;
      if (node.parentElement?.localName === 'thead') return;
      const table = clone.closest('table');
      if (!table?.hasAttribute('data-split-from') || table.querySelector(':scope > thead')) return;
      const head = node.closest('table')?.querySelector(':scope > thead');
      if (head) table.insertBefore(head.cloneNode(true), table.firstChild);
    }
  }
  paged.registerHandlers(RepeatTableHeaders);
}
