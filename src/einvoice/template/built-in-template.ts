import { DOC_ALLOWANCES_CHARGES, LINES, PAYMENT, TOTALS } from './markup-lines.js';
import { HEADER, PARTIES, SELLER_FOOTER } from './markup-parties.js';
import { INVOICE_CSS } from './styles.js';

/**
 * The built-in invoice template (SPEC "E-invoices": a readable A4 invoice with every field the invoice
 * carries, German/English labels). Standard Liquid filters only; it reads the data of
 * `invoiceTemplateData`.
 */
export const BUILT_IN_INVOICE_TEMPLATE = `<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{ invoice.type_label | escape }} {{ invoice.number | escape }}</title>
<style>${INVOICE_CSS}</style>
</head>
<body>
${HEADER}
${PARTIES}
{% if items.size > 0 %}${LINES}{% endif %}
${DOC_ALLOWANCES_CHARGES}
${TOTALS}
${PAYMENT}
${SELLER_FOOTER}
</body>
</html>
`;
