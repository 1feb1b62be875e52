import { type BodyExample, EXAMPLE_ID } from '../http/openapi.js';

/** Request examples of POST /pdf for the OpenAPI document; each one is sent to a real server in the tests. */

/**
 * One invoice that the official rules accept without a warning as Factur-X/ZUGFeRD EN 16931, XRechnung (CII
 * and UBL) and plain EN 16931: what /docs shows and what the dashboard's Generate form starts from
 * (GET /e-invoices/example). The delivery date keeps the delivery group from being empty (PEPPOL-EN16931-R008
 * warns otherwise); the buyer reference, electronic addresses and seller contact are XRechnung's.
 */
export const EINVOICE_EXAMPLE = {
  number: 'R-2026-1001',
  issue_date: '2026-01-15',
  delivery_date: '2026-01-14',
  currency: 'EUR',
  buyer_reference: '04011000-12345-03',
  seller: {
    name: 'Musterlieferant GmbH',
    address: { line1: 'Industriestraße 7', city: 'Köln', postal_code: '50667', country_code: 'DE' },
    vat_id: 'DE811569869',
    electronic_address: { value: 'rechnung@musterlieferant.example', scheme: 'EM' },
    contact: {
      name: 'Erika Muster',
      phone: '+49 221 1234567',
      email: 'erika.muster@musterlieferant.example',
    },
  },
  buyer: {
    name: 'Kunde AG',
    address: { line1: 'Hafenstraße 2', city: 'Hamburg', postal_code: '20095', country_code: 'DE' },
    electronic_address: { value: 'einkauf@kunde.example', scheme: 'EM' },
  },
  payment: {
    iban: 'DE75 5121 0800 1245 1261 99',
    terms: 'Payable within 14 days.',
    due_date: '2026-01-29',
  },
  lines: [
    {
      name: 'Consulting',
      quantity: 2,
      unit_code: 'HUR',
      unit_price: '100.00',
      vat: { category: 'S', rate: 19 },
    },
  ],
};

/** A one-page blank A4 PDF (361 bytes), so the merge example can be sent as it is. */
const BLANK_A4_PDF =
  'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgMyAwIFIgXQovQ291bnQgMQo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCj4+CmVuZG9iagoKMyAwIG9iago8PAovVHlwZSAvUGFnZQovUGFyZW50IDEgMCBSCi9SZXNvdXJjZXMgPDwKPj4KL01lZGlhQm94IFsgMCAwIDU5NSA4NDIgXQo+PgplbmRvYmoKCnhyZWYKMCA0CjAwMDAwMDAwMDAgNjU1MzUgZiAKMDAwMDAwMDAxNiAwMDAwMCBuIAowMDAwMDAwMDc2IDAwMDAwIG4gCjAwMDAwMDAxMjYgMDAwMDAgbiAKCnRyYWlsZXIKPDwKL1NpemUgNAovUm9vdCAyIDAgUgo+PgoKc3RhcnR4cmVmCjIxNwolJUVPRg==';

export const PDF_EXAMPLES: Record<string, BodyExample> = {
  html: {
    summary: 'HTML with Liquid data, answered with the PDF',
    value: { html: '<h1>Hello {{ name }}</h1>', data: { name: 'Ada' } },
  },
  html_url: {
    summary: 'HTML and CSS with page options, answered with JSON and a signed link',
    value: {
      html: '<h1>Report</h1><p>Quarterly figures.</p>',
      css: 'h1 { color: #234; }',
      format: 'A4',
      orientation: 'landscape',
      margins: '15mm',
      response: 'url',
    },
  },
  template: {
    summary: 'A stored template with data (put the id of one of your templates)',
    value: { template_id: EXAMPLE_ID, data: { number: '1001' }, filename: 'invoice-1001' },
  },
  async: {
    summary: 'Queued: answered 202 at once, announced by a webhook event',
    value: { html: '<p>Large report</p>', async: true, metadata: { order: '1001' } },
  },
  archival: {
    summary: 'Extension: an archival, accessible PDF (PDF/A-3u, PDF/UA, bookmarks) with metadata and a CSV',
    value: {
      html: '<html lang="en"><head><title>Statement</title></head><body><h1>Statement</h1><p>Balance: 0.00</p></body></html>',
      pdf_a: '3u',
      pdf_ua: true,
      outline: true,
      pdf_metadata: {
        title: 'Statement 2026-01',
        author: 'Example Bank',
        keywords: ['statement', '2026-01'],
      },
      attachments: [
        {
          filename: 'statement.csv',
          content_base64: 'ZGF0ZSxhbW91bnQKMjAyNi0wMS0zMSwwLjAwCg==',
          mime_type: 'text/csv',
          relationship: 'Data',
        },
      ],
      stamp: { text: 'COPY', pages: 'all' },
    },
  },
  protected: {
    summary: 'Extension: an AES-256 encrypted PDF that opens with a password and cannot be copied from',
    value: {
      html: '<h1>Payslip</h1><p>January 2026</p>',
      protect: {
        owner_password: 'change-me-owner',
        user_password: 'change-me-user',
        permissions: { print: 'high', copy: false, modify: false },
      },
    },
  },
  wait_for: {
    summary: 'Extension: HTML whose script draws after the load; printed once the selector matches',
    value: {
      html: '<div id="chart">loading</div><script>setTimeout(() => { const c = document.getElementById("chart"); c.textContent = "Revenue: 1,234"; c.className = "ready"; }, 300);</script>',
      wait_for: { selector: '#chart.ready', timeout_ms: 10000 },
    },
  },
  source_url: {
    summary: 'Extension: render a public web page (queued); the filename defaults to its title',
    value: {
      source_url: 'https://example.com/reports/q3',
      wait_for: { network_idle: true },
      async: true,
    },
  },
  merge: {
    summary:
      'Extension: a cover letter with an uploaded PDF after it (append); `{ "document_id": … }` merges one of your stored documents',
    value: {
      html: '<h1>Cover letter</h1><p>Our offer follows.</p>',
      append: [{ pdf_base64: BLANK_A4_PDF }],
    },
  },
  e_invoice: {
    summary: 'A Factur-X e-invoice rendered with the built-in invoice template',
    value: { e_invoice: { standard: 'factur-x', profile: 'en16931', invoice: EINVOICE_EXAMPLE } },
  },
};
