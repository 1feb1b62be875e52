import { Type } from 'typebox';
import { DEFAULT_PROFILE, PROFILES_BY_STANDARD, STANDARDS, XML_STANDARDS } from '../einvoice/index.js';
import { COMMON_ERRORS } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { TemplateFieldsSchema, templateFields } from '../templates/index.js';
import { EINVOICE_EXAMPLE } from './examples.js';

const EInvoiceExample = Type.Object(
  {
    standard: Type.String({ description: 'A standard the invoice is valid for as it is' }),
    profile: Type.String(),
    valid_for: Type.Array(Type.String(), {
      description: 'Every standard whose official rules accept the invoice without a warning',
    }),
    invoice: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The `e_invoice.invoice` of POST /pdf',
    }),
    fields: TemplateFieldsSchema,
    standards: Type.Array(
      Type.Object({
        standard: Type.String(),
        profiles: Type.Array(Type.String()),
        default_profile: Type.String(),
        output: Type.Union([Type.Literal('pdf'), Type.Literal('xml')]),
      }),
      { description: 'Every standard POST /pdf takes in e_invoice, with its profiles and what it answers' },
    ),
  },
  { additionalProperties: false },
);

const STANDARD_LIST = STANDARDS.map((standard) => ({
  standard,
  profiles: [...PROFILES_BY_STANDARD[standard]],
  default_profile: DEFAULT_PROFILE[standard],
  output: XML_STANDARDS[standard] ? ('xml' as const) : ('pdf' as const),
}));

/**
 * GET /e-invoices/example (extension): an invoice the official rules accept without a warning, and the form
 * fields of its shape (as GET /templates/{id}/fields reads a template's sample data), and the standards and
 * profiles e_invoice takes: what the dashboard's Generate form starts an e-invoice from.
 */
export function registerEInvoiceExampleRoute(app: App): void {
  app.get(
    '/e-invoices/example',
    {
      schema: {
        tags: ['E-invoices'],
        operationId: 'getEInvoiceExample',
        summary: 'An example invoice for e_invoice, with its form fields (extension)',
        description:
          'Extension: an `e_invoice.invoice` that Factur-X/ZUGFeRD EN 16931, XRechnung (CII and UBL) and plain EN 16931 accept without a warning, with the form fields of its shape. Peppol needs Peppol participant identifiers as electronic addresses instead of e-mail. Errors: `unauthorized`, `rate_limited`.',
        response: { 200: EInvoiceExample, ...COMMON_ERRORS },
      },
    },
    async () => ({
      standard: 'factur-x',
      profile: 'en16931',
      valid_for: ['factur-x', 'zugferd', 'xrechnung-cii', 'xrechnung-ubl', 'en16931-cii', 'en16931-ubl'],
      invoice: EINVOICE_EXAMPLE,
      fields: templateFields(EINVOICE_EXAMPLE),
      standards: STANDARD_LIST,
    }),
  );
}
