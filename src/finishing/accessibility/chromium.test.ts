import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import { type AccessibilityReport, accessibilityHeader, checkAccessibility } from './index.js';
import { assertFails, assertPasses, assertWellFormed, checkOf } from './report-asserts.js';

// Real Chromium output

const CHROMIUM =
  process.env.QUIRE_CHROMIUM_PATH ||
  (existsSync('/usr/lib/chromium/chromium') ? '/usr/lib/chromium/chromium' : '/usr/bin/chromium');

/** An 8×8 red PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC';
const IMG = `data:image/png;base64,${PNG}`;
const TABLE = '<table><tr><th>Item</th><th>Qty</th></tr><tr><td>Pens</td><td>3</td></tr></table>';
const LIST = '<ul><li>one</li><li>two</li></ul>';

const CHROMIUM_PAGES = {
  /** Everything the brief asks for, a decorative image included. */
  full: `<h1>Report</h1><p>Text.</p><h2>Part</h2>${LIST}${TABLE}<img alt="A red square" src="${IMG}"><img alt="" src="${IMG}">`,
  /** The same without the decorative image. */
  plain: `<h1>Report</h1><p>Text.</p><h2>Part</h2>${LIST}${TABLE}<img alt="A red square" src="${IMG}">`,
  skipped: `<h1>Report</h1><h3>Detail</h3><p>Text.</p>`,
  noAlt: `<h1>Report</h1><img src="${IMG}">`,
};
type ChromiumPage = keyof typeof CHROMIUM_PAGES;

/** Prints `body` with Chromium's command line, which writes a tagged PDF (its outline comes from the tags). */
async function chromiumPdf(dir: string, name: string, body: string): Promise<PDFDocument> {
  const html = path.join(dir, `${name}.html`);
  const pdf = path.join(dir, `${name}.pdf`);
  writeFileSync(
    html,
    `<!doctype html><html lang="en"><head><title>T</title></head><body>${body}</body></html>`,
  );
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    `--user-data-dir=${path.join(dir, `${name}-profile`)}`,
    '--generate-pdf-document-outline',
    `--print-to-pdf=${pdf}`,
    '--no-pdf-header-footer',
    pathToFileURL(html).href,
  ];
  await promisify(execFile)(CHROMIUM, args, { timeout: 60_000 });
  return PDFDocument.load(readFileSync(pdf), { updateMetadata: false });
}

describe("checkAccessibility on Chromium's tagged PDFs", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-a11y-'));
  const reports = new Map<ChromiumPage, AccessibilityReport>();
  const report = (name: ChromiumPage): AccessibilityReport => {
    const found = reports.get(name);
    assert.ok(found, `Chromium printed ${name}`);
    return found;
  };

  before(async () => {
    const names = Object.keys(CHROMIUM_PAGES) as ChromiumPage[];
    const printed = names.map(async (name) => {
      reports.set(name, checkAccessibility(await chromiumPdf(dir, name, CHROMIUM_PAGES[name])));
    });
    await Promise.all(printed);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the structure, figure, table, heading and language checks on a well-written page', () => {
    const full = report('full');
    assertWellFormed(full);
    assert.equal(full.tagged, true, 'the command line writes a tagged PDF');
    for (const id of ['structure_tree', 'figure_alt', 'table_headers', 'heading_levels', 'language'])
      assertPasses(checkOf(full, id));
  });

  it("documents what Chromium's own output passes and fails", () => {
    const full = report('full');
    // Chromium (156) writes /Lang from <html lang>, /ViewerPreferences /DisplayDocTitle true and an Info
    // /Title from <title>, so title_displayed passes on a raw PDF; it writes no XMP, so dc:title (06-003)
    // and the PDF/UA identifier are the finishing step's job (the detail says the title is Info-only).
    assertPasses(checkOf(full, 'title_displayed'));
    assert.match(checkOf(full, 'title_displayed').detail ?? '', /Info dictionary only/);
    // Its fonts are embedded subsets (Type0, Identity-H) with ToUnicode maps.
    assertPasses(checkOf(full, 'fonts_embedded'));
    // It paints a decorative image (alt="") outside any marked content instead of marking it an
    // /Artifact, so a page with one fails content_tagged (01-005); without it, every painted thing is
    // tagged (backgrounds and borders go in their element's MCID sequence).
    assertFails(checkOf(full, 'content_tagged'), 1, /outside marked content/);
    assertPasses(checkOf(report('plain'), 'content_tagged'));
    assert.equal(report('plain').ua1, 'pass');
    assert.equal(accessibilityHeader(full), 'tagged; ua1=fail(1)');
  });

  it('fails heading_levels on h1 then h3', () => {
    assertFails(checkOf(report('skipped'), 'heading_levels'), 1, /H1 → H3/);
  });

  it('fails figure_alt on an img without alt', () => {
    assertFails(checkOf(report('noAlt'), 'figure_alt'), 1);
  });
});
