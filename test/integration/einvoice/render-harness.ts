import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config/config.js';
import type { PreparedEInvoice, Profile } from '../../../src/einvoice/model.js';
import { facturXFinishing } from '../../../src/einvoice/pdfa/facturx-pdf.js';
import { BUILT_IN_INVOICE_TEMPLATE } from '../../../src/einvoice/template/built-in-template.js';
import { invoiceTemplateData } from '../../../src/einvoice/template/data.js';
import { buildCii } from '../../../src/einvoice/xml/cii.js';
import { embeddedXmlName } from '../../../src/einvoice/xml/filenames.js';
import { finishPdf, planFinishing } from '../../../src/finishing/index.js';
import { LiquidEngine } from '../../../src/liquid/index.js';
import { Renderer, resolvePageOptions } from '../../../src/render/index.js';
import type { Warning } from '../../../src/shared/warnings.js';
import type { Word } from '../../helpers/pdf.js';

/** The production path for a Factur-X/ZUGFeRD PDF: Liquid → Chromium (Renderer) → finishing (PDF/A-3b with CII). */
export class InvoicePdfHarness {
  private constructor(
    private readonly renderer: Renderer,
    private readonly liquid: LiquidEngine,
  ) {}

  static async start(): Promise<InvoicePdfHarness> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-einvoice-'));
    const config = loadConfig({}, { dataDir, logLevel: 'silent' });
    return new InvoicePdfHarness(await Renderer.start(config), new LiquidEngine());
  }

  async facturX(
    prepared: PreparedEInvoice,
    profile: Profile,
    watermark: boolean,
  ): Promise<{ pdf: Buffer; xml: string; liquidWarnings: Warning[]; pages: number }> {
    const { html, warnings } = await this.liquid.renderSource(
      BUILT_IN_INVOICE_TEMPLATE,
      invoiceTemplateData(prepared),
    );
    const rendered = await this.renderer.render({ html, page: resolvePageOptions({}), watermark });
    if (profile === 'fa3') throw new Error('KSeF FA(3) is XML only: no Factur-X PDF');
    const xml = buildCii(prepared, profile);
    const contribution = facturXFinishing(xml, {
      profile,
      attachmentName: embeddedXmlName(profile),
      title: `Rechnung ${prepared.invoice.number}`,
      author: prepared.invoice.seller.name,
      invoiceNumber: prepared.invoice.number,
    });
    const pdf = await finishPdf(rendered.pdf, planFinishing({}, contribution), {
      createdAt: new Date('2025-06-05T08:00:00Z'),
    });
    return { pdf, xml, liquidWarnings: warnings, pages: rendered.pages };
  }

  async close(): Promise<void> {
    await this.renderer.close();
    await this.liquid.close();
  }
}

/**
 * The amount (number and currency code) printed to the right of each occurrence of `label` on the same
 * row: words whose vertical middle lies within the label's box, in reading order. Other words (letters
 * of a diagonal test watermark crossing the row) are ignored.
 */
export function rowValues(words: Word[], label: string, currency: string): string[] {
  const [first, ...rest] = label.split(' ');
  const rows: string[] = [];
  words.forEach((w, i) => {
    if (w.text !== first || !rest.every((r, k) => words[i + k + 1]?.text === r)) return;
    const last = words[i + rest.length] ?? w;
    const right = words.filter((o) => {
      const mid = (o.yMin + o.yMax) / 2;
      const amountWord = /^-?[\d.,]+$/.test(o.text) || o.text === currency;
      return amountWord && o.page === w.page && o.xMin >= last.xMax && mid > w.yMin && mid < w.yMax;
    });
    rows.push(
      right
        .sort((a, b) => a.xMin - b.xMin)
        .map((o) => o.text)
        .join(' '),
    );
  });
  return rows;
}
