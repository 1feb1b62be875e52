import { Parser } from 'saxen';
import { AppError } from '../shared/errors.js';

/**
 * How big an SVG becomes once resvg has expanded it, bounded before resvg sees it.
 * resvg copies the target of every `<use>` (and of `url(#id)` references to patterns, clip paths,
 * masks, markers and filters) into its tree, so ten `<use>`s of ten `<use>`s … of a shape are a
 * billion shapes from 1 KB, and a chain of references nests as deep as it is long (deep enough to
 * overflow a native stack). So the tree is rebuilt here with saxen, each reference counted as the
 * subtree it names, and the file is refused when the expanded tree has more than MAX_SVG_NODES
 * elements or is nested deeper than MAX_SVG_DEPTH (element nesting and reference hops together).
 */
export const MAX_SVG_NODES = 50_000;
export const MAX_SVG_DEPTH = 100;

/** Paint servers that only hold colour stops: a reference to one adds no elements. */
const GRADIENT = /(^|:)(linear|radial)Gradient$/;
const URL_REF = /url\(\s*["']?#([^"')\s]+)["']?\s*\)/g;

interface SvgElement {
  name: string;
  children: SvgElement[];
  /** ids this element references (`href`, `xlink:href`, `url(#id)` in attributes). */
  refs: string[];
}

function refuse(message: string, details: Record<string, unknown>): AppError {
  return new AppError('invalid_request', message, { field: 'content_base64', ...details });
}

function tooDeep(): AppError {
  return refuse(
    `The SVG nests elements and references deeper than ${MAX_SVG_DEPTH} levels; flatten the logo (for example, export it again as plain paths).`,
    { limit: 'svg_depth', max: MAX_SVG_DEPTH },
  );
}

function urlRefs(value: string): string[] {
  return Array.from(value.matchAll(URL_REF), (m) => m[1] as string);
}

interface ParsedSvg {
  roots: SvgElement[];
  byId: Map<string, SvgElement>;
  /** `url(#id)` references in `<style>` sheets: any element may match their selectors. */
  styleRefs: string[];
}

function parseTree(text: string): ParsedSvg {
  const roots: SvgElement[] = [];
  const byId = new Map<string, SvgElement>();
  const styleRefs: string[] = [];
  const stack: SvgElement[] = [];
  const parser = new Parser();
  parser.on('openTag', (name, attrs, decode) => {
    const element: SvgElement = { name, children: [], refs: [] };
    for (const [key, raw] of Object.entries(attrs())) {
      const value = decode(raw);
      if (key === 'id' && !byId.has(value)) byId.set(value, element);
      else if ((key === 'href' || key.endsWith(':href')) && value.trim().startsWith('#'))
        element.refs.push(value.trim().slice(1));
      else element.refs.push(...urlRefs(value));
    }
    (stack[stack.length - 1]?.children ?? roots).push(element);
    stack.push(element);
    if (stack.length > MAX_SVG_DEPTH) throw tooDeep();
  });
  parser.on('closeTag', () => {
    stack.pop();
  });
  const styleText = (text: string) => {
    const top = stack[stack.length - 1];
    if (top && /(^|:)style$/.test(top.name)) styleRefs.push(...urlRefs(text));
  };
  parser.on('text', styleText);
  parser.on('cdata', styleText);
  parser.on('error', (err) => {
    throw refuse(`The SVG is not well-formed XML (${err.message}); export it again.`, {});
  });
  parser.parse(text);
  return { roots, byId, styleRefs };
}

/** Elements and depth of the fully expanded tree; refuses as soon as either passes its limit. */
export function assertBoundedSvgTree(text: string): { nodes: number; depth: number } {
  const { roots, byId, styleRefs: allStyleRefs } = parseTree(text);
  // Each element pays for every sheet reference: only distinct ones that name elements can add any.
  const styleRefs = [...new Set(allStyleRefs)].filter((id) => {
    const target = byId.get(id);
    return target !== undefined && !GRADIENT.test(target.name);
  });
  const memo = new Map<SvgElement, { nodes: number; depth: number }>();
  const inProgress = new Set<SvgElement>();
  const refCost = (id: string, level: number): { nodes: number; depth: number } => {
    const target = byId.get(id);
    // resvg skips a reference to an unknown id, a gradient is a paint, and a reference to an element
    // being expanded is a cycle resvg breaks: none of them adds elements.
    if (!target || GRADIENT.test(target.name) || inProgress.has(target)) return { nodes: 0, depth: 0 };
    return expand(target, level);
  };
  const expand = (element: SvgElement, level: number): { nodes: number; depth: number } => {
    const known = memo.get(element);
    if (known) return known;
    if (level > MAX_SVG_DEPTH) throw tooDeep();
    inProgress.add(element);
    let nodes = 1;
    let depth = 1;
    for (const part of [
      ...element.children.map((child) => expand(child, level + 1)),
      ...[...element.refs, ...styleRefs].map((id) => refCost(id, level + 1)),
    ]) {
      nodes += part.nodes;
      depth = Math.max(depth, part.depth + 1);
      if (nodes > MAX_SVG_NODES)
        throw refuse(
          `The SVG expands to more than ${MAX_SVG_NODES} elements once its <use> and other references are resolved; simplify the logo or export it as plain paths.`,
          { limit: 'svg_nodes', max: MAX_SVG_NODES },
        );
      if (depth > MAX_SVG_DEPTH) throw tooDeep();
    }
    inProgress.delete(element);
    const result = { nodes, depth };
    memo.set(element, result);
    return result;
  };
  let nodes = 0;
  let depth = 0;
  for (const root of roots) {
    const part = expand(root, 1);
    nodes += part.nodes;
    depth = Math.max(depth, part.depth);
  }
  return { nodes, depth };
}
