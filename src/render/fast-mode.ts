import { composeDocument } from './html-document.js';
import { pageOptionsToPdfOptions } from './paper.js';
import type { ModeStrategy } from './types.js';

/**
 * `fast` mode: Chromium's own print path, no layout analysis.
 *
 * preferCSSPageSize is false on purpose: the page options of the request (or the template, or the
 * defaults A4/portrait) are the contract of POST /pdf, so a document's `@page { size }` must not
 * silently print a different paper than the caller asked for; Chromium scales such content to the
 * requested paper instead. `@page` margins in the document still apply (Chromium treats the margins
 * it is given as defaults), which lets a document fine-tune its own margins.
 */
export const fastMode: ModeStrategy = {
  mode: 'fast',
  prepareHtml: (job) => composeDocument(job.html, job.css),
  analyze: async () => ({ warnings: [] }),
  pdfOptions: (job) => pageOptionsToPdfOptions(job.page, false),
};
