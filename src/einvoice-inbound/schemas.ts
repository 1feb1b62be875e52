import { Type } from 'typebox';
import { named } from '../http/schemas.js';

const Finding = named(
  'EInvoiceFinding',
  Type.Object({
    rule: Type.String({
      description:
        'The official rule id (BR-CO-15, PEPPOL-EN16931-R010, FX-SCH-A-000121, BR-DE-15), or XSD for a schema error, or a Quire check of the PDF (PDFA-…, FX-XMP)',
    }),
    severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('information')]),
    message: Type.String({ description: "The rule's published text" }),
    location: Type.String({
      description: 'XPath of the offending element (line for XSD errors, PDF for PDF checks)',
    }),
  }),
);

const PdfFacts = Type.Object({
  pdf_a: Type.Object({
    declared: Type.Union([Type.String(), Type.Null()], {
      description: 'XMP pdfaid part + conformance, e.g. 3b',
    }),
    output_intent: Type.Boolean(),
    encrypted: Type.Boolean(),
  }),
  attachment: Type.Object({
    name: Type.String({ description: 'factur-x.xml, xrechnung.xml or zugferd-invoice.xml' }),
    relationship: Type.Union([Type.String(), Type.Null()], { description: '/AFRelationship' }),
    mime_type: Type.Union([Type.String(), Type.Null()]),
    associated: Type.Boolean({ description: "Listed in the catalog's /AF array" }),
    conformance_level: Type.Union([Type.String(), Type.Null()], { description: 'XMP fx:ConformanceLevel' }),
    xmp_file_name: Type.Union([Type.String(), Type.Null()], { description: 'XMP fx:DocumentFileName' }),
  }),
});

/** One official rule set and its release (extension). */
const RuleSetVersion = named(
  'EInvoiceRuleSet',
  Type.Object({
    name: Type.String({
      description: "The rule set's name as its publisher gives it, e.g. OpenPeppol BIS Billing 3.0",
    }),
    version: Type.String({ description: 'The release checked against, e.g. 3.0.21' }),
  }),
);

const Standard = Type.String({
  description:
    'The `e_invoice.standard` the document corresponds to: factur-x, zugferd, xrechnung-cii, xrechnung-ubl, peppol, en16931-ubl, en16931-cii, or the extensions hr-cius and ksef (a KSeF FA(3) Faktura)',
});

export const ValidationAnswer = named(
  'EInvoiceValidation',
  Type.Object({
    valid: Type.Boolean(),
    syntax: Type.Union([Type.Literal('cii'), Type.Literal('ubl'), Type.Literal('ksef')], {
      description: 'ksef (extension): a KSeF FA(3) Faktura, checked against the FA(3) schema alone',
    }),
    standard: Standard,
    profile: Type.String({
      description:
        'Profile checked: minimum, basic-wl, basic, en16931, extended, xrechnung, xrechnung-extension, peppol, fa3 (KSeF FA(3), its schema only), fr-ctc (France: the document profile plus the FNFE-MPE BR-FR rules; EXTENDED-CTC-FR documents with its own rules), hr-cius (Croatia HR-CIUS 2025), or unknown (generic EN 16931 rules only)',
    }),
    guideline_id: Type.String({ description: 'BT-24 as the document states it' }),
    errors: Type.Array(Finding),
    warnings: Type.Array(Finding),
    rules: Type.Array(RuleSetVersion, {
      description:
        'Extension: the official rule sets (XML schema and schematron) this check ran, each with its release, so a verdict says which rules it stands on',
    }),
    pdf: Type.Optional(PdfFacts),
  }),
);

export const ParseAnswer = named(
  'EInvoiceParse',
  Type.Object({
    standard: Standard,
    profile: Type.String({ description: 'The `e_invoice.profile` for POST /pdf' }),
    invoice: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The invoice as POST /pdf `e_invoice.invoice` takes it (schema EInvoiceInvoice); amounts as decimal strings',
    }),
    totals: Type.Record(Type.String(), Type.String(), { description: 'BG-22 as the document states it' }),
    warnings: Type.Array(Type.String()),
  }),
);
