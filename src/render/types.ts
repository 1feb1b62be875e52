import type { Warning } from '../shared/warnings.js';

/** A CSS length as the spec allows it: bare `0`, or a non-negative decimal with mm, cm, in, px or pt. */
export type Length = string;

export type RenderMode = 'fast' | 'print';
export type NamedFormat = 'A4' | 'A5' | 'Letter' | 'Legal';

/** Page options after defaults were applied (spec: "Page option values"). */
export interface PageOptions {
  mode: RenderMode;
  format: NamedFormat | { width: Length; height: Length };
  orientation: 'portrait' | 'landscape';
  /** One to four lengths separated by single spaces, as CSS margin. */
  margins: string;
}

/** One document to turn into a PDF. The HTML is final (Liquid already applied). */
export interface RenderJob {
  html: string;
  /** Added as a stylesheet before the HTML. */
  css?: string | null;
  page: PageOptions;
  /** Test documents and previews: a visible diagonal watermark on every page. */
  watermark: boolean;
  /** A tagged PDF: Chromium writes a structure tree (finishing option `tagged`, implied by `pdf_ua`). */
  tagged?: boolean;
  /** Bookmarks from the document's headings (finishing option `outline`). */
  outline?: boolean;
  /** The PDF title when the HTML has no <title>: the template name, else the file name (default `document`). */
  title?: string;
  /** Aborts a render whose caller went away. */
  signal?: AbortSignal;
  /**
   * Who the render is for (the team id). Renders waiting for a pool page are served fairly between
   * tenants, so one team's queue never holds every page while another team waits. Absent: one shared lane.
   */
  tenant?: string;
  /**
   * Resources Quire serves itself (the team's brand assets): asked first for every request of the
   * document. A resource it answers never reaches the network; null leaves the URL to the fetcher's rules.
   */
  localResources?: LocalResources;
  /** Extension: the page to render instead of `html` (fetched under the resource rules; render/source-url.ts). */
  sourceUrl?: string;
  /** Extension: render once the page is ready (render/page-wait.ts). */
  waitFor?: WaitFor;
}

/** Extension `wait_for`: every condition given must hold, in this order; `timeout_ms` ≤ the render limit. */
export interface WaitFor {
  selector?: string;
  expression?: string;
  network_idle?: boolean;
  timeout_ms?: number;
}

/** A resource answered from Quire's own storage, or refused with a reason (listed as a blocked resource). */
export type LocalResource = { ok: true; contentType: string; body: Buffer } | { ok: false; reason: string };

/** Null: not one of Quire's own URLs. */
export type LocalResources = (url: string) => Promise<LocalResource | null>;

export interface RenderResult {
  pdf: Buffer;
  pages: number;
  mode: RenderMode;
  /** Up to 10 refused external requests, each "URL: reason". */
  blockedResources: string[];
  /** Total refused requests (may exceed the 10 listed). */
  blockedCount: number;
  /** Layout warnings (overflow in print mode) and the page's script errors. */
  warnings: Warning[];
  /** The loaded page's title (source_url renders only). */
  title?: string;
  timings: { loadMs: number; analyzeMs: number; pdfMs: number; postMs: number };
}

/** Options Chromium's page.pdf() receives, decided by the mode strategy from the page options. */
export interface PdfOptions {
  width?: string;
  height?: string;
  format?: string;
  landscape?: boolean;
  margin?: { top: string; right: string; bottom: string; left: string };
  preferCSSPageSize: boolean;
  printBackground: boolean;
}

/**
 * What a mode strategy may do in the loaded page, without a browser API: Quire's code runs in an
 * isolated world (its own JS globals over the document's DOM), invisible to the document's script.
 */
export interface InPage {
  /** Evaluates a script in Quire's isolated world; returns its (awaited) JSON-serialisable value. */
  evaluate(expression: string): Promise<unknown>;
  /** Lays the document out with print media from now on (until the page is reset). */
  emulatePrintMedia(): Promise<void>;
  /** Resizes the viewport (CSS pixels) until the page is reset. */
  setViewport(size: { width: number; height: number }): Promise<void>;
}

/**
 * How one mode lays out a document. `fast` is Chromium's own print path; `print` adds paged-media
 * features and layout analysis (overflow warnings, content_lost). The render pipeline calls, in order:
 * prepareHtml → beforeLoad → (load into page, wait for fonts/images) → analyze → page.pdf(pdfOptions).
 */
export interface ModeStrategy {
  readonly mode: RenderMode;
  /** The full HTML document to load (CSS placed before the body's HTML). */
  prepareHtml(job: RenderJob): string;
  /** Runs on the blank pool page before the document is loaded (e.g. to set the emulation it is laid out with). */
  beforeLoad?(page: InPage, job: RenderJob): Promise<void>;
  /** Runs in the loaded page before printing. Throws AppError('content_lost') when content would be cut. */
  analyze(page: InPage, job: RenderJob): Promise<{ warnings: Warning[] }>;
  pdfOptions(job: RenderJob): PdfOptions;
}
