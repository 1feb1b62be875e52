import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { ModeStrategy, PageOptions, RenderJob } from '../../../src/render/types.js';
import type { Warning } from '../../../src/shared/warnings.js';

/**
 * A stand-in for the render pipeline (src/render/renderer.ts is written in parallel): load the
 * strategy's HTML into a warm page, wait for fonts and images, analyze, print. Same order as
 * ModeStrategy documents.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export const FIXTURES = new URL('../../fixtures/print/', import.meta.url);

/** A web font for the data-URI fixture: Liberation Mono Italic (fonts-liberation2, installed by bootstrap). */
export const WEB_FONT_FILE = '/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf';

/** A fixture's HTML; FONT_DATA_URI is replaced by a data: URI of WEB_FONT_FILE (kept out of the repo). */
export function fixture(name: string): string {
  const html = readFileSync(new URL(name, FIXTURES), 'utf8');
  if (!html.includes('FONT_DATA_URI')) return html;
  const uri = `data:font/ttf;base64,${readFileSync(WEB_FONT_FILE).toString('base64')}`;
  return html.replace('FONT_DATA_URI', uri);
}

export function job(html: string, page: Partial<PageOptions> = {}, css: string | null = null): RenderJob {
  return {
    html,
    css,
    page: { mode: 'print', format: 'A4', orientation: 'portrait', margins: '20mm', ...page },
    watermark: false,
  };
}

export interface Rendered {
  pdf: Buffer;
  file: string;
  warnings: Warning[];
}

export class Harness {
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly dir: string,
  ) {}

  static async start(): Promise<Harness> {
    const browser = await chromium.launch({
      executablePath: '/usr/lib/chromium/chromium',
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    // Nothing in the fixtures may reach the network (web fonts come as data: URIs).
    await page.route(/^https?:/, (route) => route.abort());
    return new Harness(browser, page, mkdtempSync(join(tmpdir(), 'quire-print-')));
  }

  async render(strategy: ModeStrategy, renderJob: RenderJob): Promise<Rendered> {
    await this.page.goto('about:blank');
    await this.page.setContent(strategy.prepareHtml(renderJob), { waitUntil: 'load' });
    await this.page.evaluate('document.fonts.ready.then(() => undefined)');
    const { warnings } = await strategy.analyze(this.page, renderJob);
    const pdf = await this.page.pdf(strategy.pdfOptions(renderJob));
    const file = join(this.dir, `${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, pdf);
    return { pdf, file, warnings };
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export function pageCount(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** Page sizes in points, rounded to whole points. */
export function pageSizes(file: string): string[] {
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '999', file], { encoding: 'utf8' });
  return [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/gm)].map(
    (m) => `${Math.round(Number(m[1]))}x${Math.round(Number(m[2]))}`,
  );
}

export function pageText(file: string, page: number): string {
  return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], {
    encoding: 'utf8',
  });
}

/** Names of the fonts embedded in the PDF (pdffonts, subset prefix removed). */
export function fontNames(file: string): string[] {
  const out = execFileSync('pdffonts', [file], { encoding: 'utf8' });
  return out
    .split('\n')
    .slice(2)
    .map((line) => line.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, '') ?? '')
    .filter((name) => name !== '');
}
