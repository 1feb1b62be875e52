/**
 * The few DOM members the FA(3) reader needs: the received-invoice side (src/einvoice-inbound) hands in its
 * parsed tree, which has them, without this folder depending on it.
 */
export interface FaNode {
  nodeType: number;
  localName: string | null;
  textContent: string | null;
  childNodes: ArrayLike<FaNode>;
}

const ELEMENT = 1;

function children(node: FaNode | undefined, name: string): FaNode[] {
  const out: FaNode[] = [];
  if (!node) return out;
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i] as FaNode;
    if (child.nodeType === ELEMENT && child.localName === name) out.push(child);
  }
  return out;
}

/** The first element down a path of local names. */
export function at(node: FaNode | undefined, ...names: string[]): FaNode | undefined {
  let current = node;
  for (const name of names) current = children(current, name)[0];
  return current;
}

/** Every child element named `name`. */
export function all(node: FaNode | undefined, name: string): FaNode[] {
  return children(node, name);
}

/** The trimmed text down a path, or undefined when absent or blank. */
export function text(node: FaNode | undefined, ...names: string[]): string | undefined {
  const value = at(node, ...names)
    ?.textContent?.replace(/\s+/g, ' ')
    .trim();
  return value ? value : undefined;
}
