import { Parser } from 'saxen';
import { AppError } from '../shared/errors.js';
import { decodeDataUrl, isDataUrl } from './data-url.js';
import { largestSize, readRasterHeader } from './raster-header.js';

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

/**
 * Pixels of the raster images an SVG embeds as data: URLs, bounded before resvg sees them. resvg decodes
 * an `<image>`'s or `<feImage>`'s image whole, in native memory outside the worker's heap cap and while
 * the worker cannot be stopped, and holds one decoded copy for every copy of the element in its tree: a
 * 65 KB SVG embedding a 20000×20000 1-bit PNG took 27 s and 2 GB. So every image's size is read from its
 * header (raster-header.ts) and the file refused when one image has more than MAX_SVG_IMAGE_PIXELS, all
 * of them in the expanded tree together more than MAX_SVG_IMAGE_PIXELS_TOTAL, or a data: image is not a
 * PNG, JPEG, GIF or WebP whose size can be read. 4096×4096 is more than a logo rasterised at
 * SVG_RASTER_PX needs; the total is 128 MB decoded (4 bytes a pixel) and about a second of decoding.
 */
export const MAX_SVG_IMAGE_SIDE_PX = 4096;
export const MAX_SVG_IMAGE_PIXELS = MAX_SVG_IMAGE_SIDE_PX * MAX_SVG_IMAGE_SIDE_PX;
export const MAX_SVG_IMAGE_PIXELS_TOTAL = 2 * MAX_SVG_IMAGE_PIXELS;

/** Paint servers that only hold colour stops: a reference to one adds no elements. */
const GRADIENT = /(^|:)(linear|radial)Gradient$/;
const URL_REF = /url\(\s*["']?#([^"')\s]+)["']?\s*\)/g;
const CSS_URL = /url\(\s*(["']?)([\s\S]*?)\1\s*\)/gi;

interface SvgElement {
  name: string;
  children: SvgElement[];
  /** ids this element references (`href`, `xlink:href`, `url(#id)` in attributes). */
  refs: string[];
  /** Pixels of the raster images the element embeds, decoded again for every copy of it. */
  pixels: number;
}

/** What an element costs once expanded. */
interface Cost {
  nodes: number;
  depth: number;
  pixels: number;
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

function unreadableImage(): AppError {
  return refuse(
    'The SVG embeds a data: image that is not a PNG, JPEG, GIF or WebP file whose size can be read; embed PNG or JPEG images, or upload the logo as PNG.',
    { limit: 'svg_image_format' },
  );
}

function tooManyImagePixels(pixels: number): AppError {
  return refuse(
    `The SVG's embedded images come to ${pixels} pixels once its <use> and other references are resolved; embed at most ${MAX_SVG_IMAGE_PIXELS_TOTAL} pixels of images in all (two ${MAX_SVG_IMAGE_SIDE_PX}×${MAX_SVG_IMAGE_SIDE_PX}), or upload the logo as PNG.`,
    { limit: 'svg_image_pixels_total', max: MAX_SVG_IMAGE_PIXELS_TOTAL },
  );
}

/** The pixels one data: image decodes to, refused when too many or when its header cannot be read. */
function embeddedImagePixels(url: string): number {
  const bytes = decodeDataUrl(url);
  const header = bytes && readRasterHeader(bytes);
  if (!header) throw unreadableImage();
  const { width, height } = largestSize(header.sizes);
  if (width * height > MAX_SVG_IMAGE_PIXELS)
    throw refuse(
      `The SVG embeds a ${width}×${height} image; embed images of at most ${MAX_SVG_IMAGE_PIXELS} pixels (${MAX_SVG_IMAGE_SIDE_PX}×${MAX_SVG_IMAGE_SIDE_PX}), or upload the logo as PNG.`,
      { limit: 'svg_image_pixels', max: MAX_SVG_IMAGE_PIXELS },
    );
  return width * height;
}

/**
 * Images in CSS `url(data:…)` (style attributes, presentation attributes, `<style>` sheets). resvg 2.6
 * draws none of them (`fill` and the like only name elements); they are bounded all the same, so a resvg
 * that starts drawing them finds them bounded.
 */
function cssImagePixels(css: string): number {
  let pixels = 0;
  for (const match of css.matchAll(CSS_URL)) {
    const target = match[2] ?? '';
    if (isDataUrl(target)) pixels += embeddedImagePixels(target);
  }
  return pixels;
}

/**
 * XML attribute-value normalisation (XML 1.0 3.3.3), as resvg's parser applies it: a literal tab or line
 * break becomes a space, one written as a character reference stays what it is.
 */
function attributeValue(raw: string, decode: (s: string) => string): string {
  return decode(raw.replace(/\r\n?/g, '\n').replace(/[\t\n]/g, ' '));
}

/**
 * An `href`: a reference to an element, or an embedded image. Anything else is refused, a second check
 * behind svg.ts's assertSelfContainedSvg that sees the value as resvg does, entities decoded: resvg would
 * read it as a path and load that file from the server's disk.
 */
function addHref(element: SvgElement, value: string): void {
  const target = value.trim();
  if (target.startsWith('#')) element.refs.push(target.slice(1));
  else if (isDataUrl(value)) element.pixels += embeddedImagePixels(value);
  else
    throw refuse(
      `SVG logos may not reference external resources (found "${target.slice(0, 80)}"); embed images as data:image/png or data:image/jpeg URIs.`,
      {},
    );
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
    const element: SvgElement = { name, children: [], refs: [], pixels: 0 };
    for (const [key, raw] of Object.entries(attrs())) {
      const value = decode(raw);
      if (key === 'id' && !byId.has(value)) byId.set(value, element);
      else if (key === 'href' || key.endsWith(':href')) addHref(element, attributeValue(raw, decode));
      else {
        element.refs.push(...urlRefs(value));
        element.pixels += cssImagePixels(value);
      }
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
    if (top && /(^|:)style$/.test(top.name)) {
      styleRefs.push(...urlRefs(text));
      top.pixels += cssImagePixels(text);
    }
  };
  parser.on('text', (text, decode) => styleText(decode(text)));
  parser.on('cdata', styleText);
  parser.on('error', (err) => {
    throw refuse(`The SVG is not well-formed XML (${err.message}); export it again.`, {});
  });
  parser.parse(text);
  return { roots, byId, styleRefs };
}

/**
 * Elements, depth and embedded-image pixels of the fully expanded tree; refuses as soon as one passes its
 * limit (or an embedded image is too big or unreadable on its own).
 */
export function assertBoundedSvgTree(text: string): Cost {
  const { roots, byId, styleRefs: allStyleRefs } = parseTree(text);
  // Each element pays for every sheet reference: only distinct ones that name elements can add any.
  const styleRefs = [...new Set(allStyleRefs)].filter((id) => {
    const target = byId.get(id);
    return target !== undefined && !GRADIENT.test(target.name);
  });
  const memo = new Map<SvgElement, Cost>();
  const inProgress = new Set<SvgElement>();
  const refCost = (id: string, level: number): Cost => {
    const target = byId.get(id);
    // resvg skips a reference to an unknown id, a gradient is a paint, and a reference to an element
    // being expanded is a cycle resvg breaks: none of them adds elements.
    if (!target || GRADIENT.test(target.name) || inProgress.has(target))
      return { nodes: 0, depth: 0, pixels: 0 };
    return expand(target, level);
  };
  const expand = (element: SvgElement, level: number): Cost => {
    const known = memo.get(element);
    if (known) return known;
    if (level > MAX_SVG_DEPTH) throw tooDeep();
    inProgress.add(element);
    const cost = { nodes: 1, depth: 1, pixels: element.pixels };
    assertWithinLimits(cost);
    for (const part of [
      ...element.children.map((child) => expand(child, level + 1)),
      ...[...element.refs, ...styleRefs].map((id) => refCost(id, level + 1)),
    ]) {
      cost.nodes += part.nodes;
      cost.depth = Math.max(cost.depth, part.depth + 1);
      cost.pixels += part.pixels;
      assertWithinLimits(cost);
    }
    inProgress.delete(element);
    memo.set(element, cost);
    return cost;
  };
  const total = { nodes: 0, depth: 0, pixels: 0 };
  for (const root of roots) {
    const part = expand(root, 1);
    total.nodes += part.nodes;
    total.depth = Math.max(total.depth, part.depth);
    total.pixels += part.pixels;
    assertWithinLimits(total);
  }
  return total;
}

function assertWithinLimits(cost: Cost): void {
  if (cost.nodes > MAX_SVG_NODES)
    throw refuse(
      `The SVG expands to more than ${MAX_SVG_NODES} elements once its <use> and other references are resolved; simplify the logo or export it as plain paths.`,
      { limit: 'svg_nodes', max: MAX_SVG_NODES },
    );
  if (cost.depth > MAX_SVG_DEPTH) throw tooDeep();
  if (cost.pixels > MAX_SVG_IMAGE_PIXELS_TOTAL) throw tooManyImagePixels(cost.pixels);
}
