import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import { checkPdfA } from '../../../src/finishing/pdfa-check.js';
import { pdfObjects, pdfTool, qpdfCheck } from '../../helpers/pdf.js';

/**
 * The finishing checks, each run with the tools that read PDFs (poppler, qpdf) and the project's own
 * structural PDF/A checker. Shared by the example tests and the property test over mixed options.
 */

/** Two pages, three headings, a link, a language and a title. */
export const REPORT_HTML = `<!doctype html><html lang="en"><head><title>Quarterly report</title></head><body>
<h1>Overview</h1><p>Revenue grew. <a href="https://example.com/">Source</a></p>
<h2>Details</h2><p>Costs fell.</p>
<div style="break-before:page"><h1>Appendix</h1><p>Tables follow.</p></div></body></html>`;
export const REPORT_HEADINGS = ['Overview', 'Details', 'Appendix'];
/** The same document without a language. */
export const NO_LANG_HTML = REPORT_HTML.replace('<html lang="en">', '<html>');

export interface FinishingBody {
  tagged?: boolean;
  outline?: boolean;
  pdf_ua?: boolean;
  pdf_a?: '2b' | '2u' | '3b' | '3u' | '2a' | '3a';
  pdf_metadata?: {
    title?: string;
    author?: string;
    subject?: string;
    keywords?: string[];
    language?: string;
    creator?: string;
  };
  attachments?: Array<{
    filename: string;
    content_base64: string;
    mime_type: string;
    description?: string;
    relationship?: string;
  }>;
  protect?: {
    owner_password: string;
    user_password?: string;
    permissions?: Record<string, unknown>;
  };
  stamp?: { text: string; pages?: 'all' | 'first' | 'rest'; angle?: number; opacity?: number };
}

/** XML character references and the five entities as text. */
function xmlText(xml: string): string {
  return xml
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The password that opens the file for reading (qpdf/poppler accept the owner password too). */
function openWith(body: FinishingBody): string | undefined {
  return body.protect ? body.protect.owner_password : undefined;
}

export async function checkTagged(
  pdf: Buffer,
  body: FinishingBody,
  headings: string[] = ['H1', 'H2'],
): Promise<void> {
  const pw = openWith(body);
  const objects = await pdfObjects(pdf, pw);
  assert.ok(objects.catalog['/StructTreeRoot'], 'a StructTreeRoot');
  const markInfo = objects.get(objects.catalog['/MarkInfo']) ?? objects.catalog['/MarkInfo'];
  assert.equal((markInfo as Record<string, unknown> | undefined)?.['/Marked'], true, 'MarkInfo /Marked true');
  assert.ok(objects.catalog['/Lang'], 'a /Lang');
  const { stdout } = await pdfTool('pdfinfo', ['-struct', ...(pw ? ['-opw', pw] : [])], pdf);
  for (const h of headings) assert.match(stdout, new RegExp(`^\\s*${h}\\b`, 'm'), `${h} structure elements`);
}

export async function checkOutline(pdf: Buffer, body: FinishingBody): Promise<void> {
  const pw = openWith(body);
  const { stdout } = await pdfTool(
    'qpdf',
    ['--json', '--json-key=outlines', ...(pw ? [`--password=${pw}`] : [])],
    pdf,
  );
  const titles: string[] = [];
  const walk = (items: Array<{ title: string; kids: unknown[] }>) => {
    for (const item of items) {
      titles.push(item.title);
      walk(item.kids as Array<{ title: string; kids: unknown[] }>);
    }
  };
  walk(JSON.parse(stdout).outlines);
  assert.deepEqual(titles, REPORT_HEADINGS);
}

/** The project's structural checker finds nothing, and qpdf finds no syntax or stream error. */
export async function checkPdfAConformance(pdf: Buffer, level: NonNullable<FinishingBody['pdf_a']>) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  assert.deepEqual(checkPdfA(doc, level), []);
  await qpdfCheck(pdf);
  const { stdout } = await pdfTool('pdfinfo', ['-meta'], pdf);
  assert.match(stdout, new RegExp(`<pdfaid:part>${level[0]}</pdfaid:part>`));
  assert.match(stdout, new RegExp(`<pdfaid:conformance>${level[1]?.toUpperCase()}</pdfaid:conformance>`));
  const fonts = await pdfTool('pdffonts', [], pdf);
  for (const line of fonts.stdout.split('\n').slice(2).filter(Boolean)) {
    const [emb, , uni] = line.trim().split(/\s+/).slice(-5, -2);
    assert.equal(emb, 'yes', `embedded: ${line}`);
    if (!level.endsWith('b')) assert.equal(uni, 'yes', `ToUnicode: ${line}`);
  }
}

export async function checkMetadata(pdf: Buffer, body: FinishingBody): Promise<void> {
  const md = body.pdf_metadata ?? {};
  const pw = openWith(body);
  const pwArgs = pw ? ['-opw', pw] : [];
  const info = (await pdfTool('pdfinfo', pwArgs, pdf)).stdout;
  const field = (name: string) => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(info)?.[1];
  assert.equal(field('Title'), md.title ?? 'Quarterly report');
  if (md.author) assert.equal(field('Author'), md.author);
  if (md.subject) assert.equal(field('Subject'), md.subject);
  if (md.keywords) assert.equal(field('Keywords'), md.keywords.join(' '));
  if (md.creator) assert.equal(field('Creator'), md.creator);
  if (Object.keys(md).length > 0 || body.pdf_ua || body.pdf_a) {
    const xmp = xmlText((await pdfTool('pdfinfo', ['-meta', ...pwArgs], pdf)).stdout);
    const title = md.title ?? 'Quarterly report';
    assert.ok(xmp.includes(`>${title}</rdf:li>`), `XMP dc:title "${title}" in ${xmp.slice(0, 400)}`);
    if (md.author) assert.ok(xmp.includes(`<rdf:li>${md.author}</rdf:li>`), 'XMP dc:creator');
  }
  if (md.language) {
    const objects = await pdfObjects(pdf, pw);
    assert.equal(objects.catalog['/Lang'], `u:${md.language}`);
  }
}

export async function checkPdfUa(pdf: Buffer, body: FinishingBody): Promise<void> {
  const pw = openWith(body);
  const objects = await pdfObjects(pdf, pw);
  const prefs = objects.get(objects.catalog['/ViewerPreferences']) ?? objects.catalog['/ViewerPreferences'];
  assert.equal((prefs as Record<string, unknown> | undefined)?.['/DisplayDocTitle'], true, 'DisplayDocTitle');
  assert.ok(objects.catalog['/Lang'], 'a natural language');
  const xmp = (await pdfTool('pdfinfo', ['-meta', ...(pw ? ['-opw', pw] : [])], pdf)).stdout;
  assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
  await checkTagged(pdf, body);
}

export async function checkAttachments(pdf: Buffer, body: FinishingBody): Promise<void> {
  const files = body.attachments ?? [];
  const pw = openWith(body);
  const list = (await pdfTool('pdfdetach', ['-list', ...(pw ? ['-opw', pw] : [])], pdf)).stdout;
  assert.match(list, new RegExp(`^${files.length} embedded files`, 'm'));
  const objects = await pdfObjects(pdf, pw);
  const specs = objects.all().filter((o) => o['/Type'] === '/Filespec');
  for (const file of files) {
    assert.ok(list.includes(`: ${file.filename}`), `${file.filename} listed`);
    const spec = specs.find((s) => s['/UF'] === `u:${file.filename}`);
    assert.equal(spec?.['/AFRelationship'], `/${file.relationship ?? 'Unspecified'}`);
    const shown = await pdfTool(
      'qpdf',
      [`--show-attachment=${file.filename}`, ...(pw ? [`--password=${pw}`] : [])],
      pdf,
    );
    assert.equal(shown.stdout, Buffer.from(file.content_base64, 'base64').toString('utf8'));
  }
  const af = objects.catalog['/AF'];
  if (files.length > 0) assert.ok(af, 'the catalog lists the associated files (/AF)');
}

export async function checkProtect(pdf: Buffer, body: FinishingBody): Promise<void> {
  const protect = body.protect;
  assert.ok(protect);
  const shown = await pdfTool('qpdf', ['--show-encryption', `--password=${protect.owner_password}`], pdf);
  assert.match(shown.stdout, /^R = 6$/m, 'revision 6: AES-256');
  assert.match(shown.stdout, /stream encryption method: AESv3/);
  const p = protect.permissions ?? {};
  const allowed = (v: unknown) => (v === false ? 'not allowed' : 'allowed');
  assert.match(shown.stdout, new RegExp(`extract for any purpose: ${allowed(p.copy)}$`, 'm'));
  assert.match(shown.stdout, new RegExp(`modify other: ${allowed(p.modify)}$`, 'm'));
  assert.match(shown.stdout, new RegExp(`modify annotations: ${allowed(p.annotate)}$`, 'm'));
  assert.match(shown.stdout, new RegExp(`modify forms: ${allowed(p.fill_forms)}$`, 'm'));
  assert.match(shown.stdout, new RegExp(`modify document assembly: ${allowed(p.assemble)}$`, 'm'));
  const print = p.print ?? 'high';
  assert.match(shown.stdout, new RegExp(`print high resolution: ${allowed(print === 'high')}$`, 'm'));
  assert.match(shown.stdout, new RegExp(`print low resolution: ${allowed(print !== 'none')}$`, 'm'));
  await qpdfCheck(pdf, protect.owner_password);
  if (protect.user_password) {
    const right = await pdfTool('pdftotext', ['-upw', protect.user_password], pdf);
    assert.equal(right.code, 0, 'the user password opens it');
    const wrong = await pdfTool('pdftotext', ['-upw', `${protect.user_password}x`], pdf);
    assert.notEqual(wrong.code, 0, 'a wrong password does not');
    const none = await pdfTool('pdftotext', [], pdf);
    assert.notEqual(none.code, 0, 'nor no password');
  }
}

/** The stamp's text (rotated text comes out a few letters a line) on the chosen pages only. */
export async function checkStamp(pdf: Buffer, body: FinishingBody, pages: number): Promise<void> {
  const stamp = body.stamp;
  assert.ok(stamp);
  const pw = openWith(body);
  const wanted = stamp.pages ?? 'all';
  for (let page = 1; page <= pages; page++) {
    const { stdout } = await pdfTool(
      'pdftotext',
      ['-raw', '-f', String(page), '-l', String(page), ...(pw ? ['-opw', pw] : [])],
      pdf,
      ['-'],
    );
    const text = stdout.replace(/\s+/g, '');
    const expected = wanted === 'all' || (wanted === 'first' ? page === 1 : page > 1);
    assert.equal(text.includes(stamp.text.replace(/\s+/g, '')), expected, `stamp on page ${page}: ${text}`);
  }
}
