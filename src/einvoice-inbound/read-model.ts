/**
 * What POST /v1/e-invoices/parse answers: the invoice in the JSON shape POST /v1/pdf's `e_invoice.invoice`
 * accepts (src/docs/einvoice-schema.ts), amounts as exact decimal strings; the document's own totals
 * beside it (not inside `invoice`: Quire computes totals itself and would check sent ones).
 */
export type ParsedInvoice = Record<string, unknown> & {
  number: string;
  issue_date: string;
  currency: string;
  lines: Record<string, unknown>[];
};

export interface ReadResult {
  invoice: ParsedInvoice;
  /** BG-22 as the document states it (decimal strings), keys as in the model's `totals`. */
  totals: Record<string, string>;
  /** What the model cannot hold and was left out or merged, in words. */
  warnings: string[];
}
