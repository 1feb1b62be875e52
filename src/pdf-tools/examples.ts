import type { BodyExample } from '../http/openapi.js';

/**
 * Request examples of the PDF tools for the OpenAPI document; each one is sent to a real server in the
 * tests, so they carry their own PDF (a one-page blank A4, 361 bytes) rather than a document id.
 */
const BLANK_A4_PDF =
  'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgMyAwIFIgXQovQ291bnQgMQo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCj4+CmVuZG9iagoKMyAwIG9iago8PAovVHlwZSAvUGFnZQovUGFyZW50IDEgMCBSCi9SZXNvdXJjZXMgPDwKPj4KL01lZGlhQm94IFsgMCAwIDU5NSA4NDIgXQo+PgplbmRvYmoKCnhyZWYKMCA0CjAwMDAwMDAwMDAgNjU1MzUgZiAKMDAwMDAwMDAxNiAwMDAwMCBuIAowMDAwMDAwMDc2IDAwMDAwIG4gCjAwMDAwMDAxMjYgMDAwMDAgbiAKCnRyYWlsZXIKPDwKL1NpemUgNAovUm9vdCAyIDAgUgo+PgoKc3RhcnR4cmVmCjIxNwolJUVPRg==';

const source = { pdf_base64: BLANK_A4_PDF };

export const INSPECT_EXAMPLES: Record<string, BodyExample> = {
  inspect: { summary: 'Pages, sizes, metadata, fields, signatures and fonts of a PDF', value: { source } },
  text: { summary: 'The same, with the text of each page', value: { source, text: true } },
};

export const TRANSFORM_EXAMPLES: Record<string, BodyExample> = {
  rotate_stamp: {
    summary: 'Turn every page, stamp it and set its title',
    value: {
      source,
      steps: [
        { op: 'rotate', pages: 'all', degrees: 90 },
        { op: 'stamp', text: 'COPY', opacity: 0.2 },
        { op: 'metadata', title: 'Signed contract (copy)', author: 'Legal' },
      ],
      filename: 'contract-copy.pdf',
    },
  },
  pages_protect: {
    summary: 'Keep the last page, merge a second PDF after it and encrypt the result, answered with a link',
    value: {
      source,
      steps: [
        { op: 'pages', select: 'last' },
        { op: 'merge', append: [{ pdf_base64: BLANK_A4_PDF }] },
        { op: 'protect', owner_password: 'owner-secret', user_password: 'open-sesame' },
      ],
      response: 'url',
    },
  },
  pdf_a: {
    summary: 'Convert to PDF/A-2b',
    value: { source, steps: [{ op: 'pdf_a', level: '2b' }] },
  },
};

export const SPLIT_EXAMPLES: Record<string, BodyExample> = {
  ranges: { summary: 'One part per range', value: { source, ranges: ['1', '1-last'] } },
  every: { summary: 'Parts of one page each', value: { source, every: 1 } },
};
