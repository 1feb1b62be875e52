/**
 * Liquid partials of the built-in invoice: lines, document allowances/charges, totals, VAT breakdown
 * and payment. Amounts are the `*_formatted` strings of `invoiceTemplateData`, derived from the same
 * prepared totals the XML is written from (SPEC "E-invoices": the PDF shows the XML's numbers).
 */
import { rows } from './markup-rows.js';

const ALLOWANCE_CHARGE = `<div class="adj">{{ sign }} {% if ac.reason %}{{ ac.reason | escape }}{% else %}{{ ac.reason_code | escape }}{% endif %}{% if ac.percent %} ({{ ac.percent_formatted }} % von / of {{ ac.base_amount_formatted }}){% endif %}: {{ ac.amount_formatted }}</div>`;

export const LINES = `
<table class="lines">
  <thead><tr>
    <th class="pos">Pos.</th><th>Bezeichnung / Description</th><th class="num">Menge / Qty</th>
    <th>Einheit / Unit</th><th class="num">Einzelpreis / Unit price</th><th class="num">USt. / VAT</th>
    <th class="num">Netto / Net ({{ invoice.currency }})</th>
  </tr></thead>
  <tbody>
  {% for item in items %}
    <tr class="item">
      <td class="pos">{{ item.id | escape }}</td>
      <td>
        <div class="item-name">{{ item.name | escape }}</div>
        {% if item.description %}<div class="small">{{ item.description | escape | newline_to_br }}</div>{% endif %}
        {% if item.seller_item_id %}<div class="small muted">Art.-Nr. / Item no.: {{ item.seller_item_id | escape }}</div>{% endif %}
        {% if item.buyer_item_id %}<div class="small muted">Ihre Art.-Nr. / Buyer item no.: {{ item.buyer_item_id | escape }}</div>{% endif %}
        {% if item.standard_item_id %}<div class="small muted">{{ item.standard_item_scheme | escape }}: {{ item.standard_item_id | escape }}</div>{% endif %}
        {% if item.order_line_reference %}<div class="small muted">Bestellposition / Order line: {{ item.order_line_reference | escape }}</div>{% endif %}
        {% if item.period %}<div class="small muted">Zeitraum / Period: {{ item.period.start_formatted }} – {{ item.period.end_formatted }}</div>{% endif %}
        {% if item.note %}<div class="small">{{ item.note | escape | newline_to_br }}</div>{% endif %}
        {% for ac in item.allowances %}{% assign sign = 'Nachlass / Allowance' %}${ALLOWANCE_CHARGE}{% endfor %}
        {% for ac in item.charges %}{% assign sign = 'Zuschlag / Charge' %}${ALLOWANCE_CHARGE}{% endfor %}
      </td>
      <td class="num">{{ item.quantity_formatted }}</td>
      <td>{{ item.unit_label | escape }}</td>
      <td class="num">{{ item.unit_price_formatted }}{% if item.price_base_quantity_formatted %}<div class="small muted">je / per {{ item.price_base_quantity_formatted }}</div>{% endif %}</td>
      <td class="num">{{ item.vat.label }}</td>
      <td class="num">{{ item.net_amount_formatted }}</td>
    </tr>
  {% endfor %}
  </tbody>
</table>`;

const DOC_AC_ROWS = `<tr><td>{{ kind }}: {% if ac.reason %}{{ ac.reason | escape }}{% else %}{{ ac.reason_code | escape }}{% endif %}{% if ac.percent %} ({{ ac.percent_formatted }} % von / of {{ ac.base_amount_formatted }}){% endif %}</td><td class="num">{{ ac.vat.label }}</td><td class="num">{{ ac.amount_formatted }}</td></tr>`;

export const DOC_ALLOWANCES_CHARGES = `
{% if doc_allowances.size > 0 or doc_charges.size > 0 %}
<table class="doc-ac">
  <thead><tr><th>Nachlässe und Zuschläge / Allowances and charges</th><th class="num">USt. / VAT</th><th class="num">Betrag / Amount ({{ invoice.currency }})</th></tr></thead>
  <tbody>
  {% for ac in doc_allowances %}{% assign kind = 'Nachlass / Allowance' %}${DOC_AC_ROWS}{% endfor %}
  {% for ac in doc_charges %}{% assign kind = 'Zuschlag / Charge' %}${DOC_AC_ROWS}{% endfor %}
  </tbody>
</table>
{% endif %}`;

const TOTAL_ROW = (label: string, key: string, cls = '') =>
  `<tr${cls ? ` class="${cls}"` : ''}><th>${label}</th><td class="num">{{ totals.${key}_formatted }} {{ invoice.currency }}</td></tr>`;

export const TOTALS = `
<section class="summary">
  <table class="totals">
    ${TOTAL_ROW('Summe Positionen / Line total', 'line_total')}
    {% if totals.has_allowances %}${TOTAL_ROW('Nachlässe / Allowances', 'allowance_total')}{% endif %}
    {% if totals.has_charges %}${TOTAL_ROW('Zuschläge / Charges', 'charge_total')}{% endif %}
    ${TOTAL_ROW('Nettobetrag / Net amount', 'tax_basis_total')}
    ${TOTAL_ROW('Umsatzsteuer / VAT', 'tax_total')}
    ${TOTAL_ROW('Gesamtbetrag / Total', 'grand_total', 'grand')}
    {% if totals.has_prepaid %}${TOTAL_ROW('Bereits gezahlt / Paid in advance', 'prepaid')}{% endif %}
    {% if totals.has_rounding %}${TOTAL_ROW('Rundung / Rounding', 'rounding')}{% endif %}
    ${TOTAL_ROW('Zahlbetrag / Amount due', 'due_payable', 'due')}
  </table>
  <table class="vat">
    <thead><tr><th>USt.-Kategorie / VAT category</th><th class="num">Satz / Rate</th><th class="num">Basis / Taxable</th><th class="num">USt. / VAT</th></tr></thead>
    <tbody>
    {% for v in vat_breakdown %}
      <tr><td>{{ v.category_label | escape }}{% if v.exemption_reason %}<div class="small muted">{{ v.exemption_reason | escape }}{% if v.exemption_code %} ({{ v.exemption_code | escape }}){% endif %}</div>{% elsif v.exemption_code %}<div class="small muted">{{ v.exemption_code | escape }}</div>{% endif %}</td>
      <td class="num">{{ v.rate_label }}</td><td class="num">{{ v.taxable_amount_formatted }}</td><td class="num">{{ v.tax_amount_formatted }}</td></tr>
    {% endfor %}
    </tbody>
  </table>
</section>`;

export const PAYMENT = `
{% if payment.present %}<section class="payment">
  <div class="label">Zahlung / Payment</div>
  <table class="pay">
    ${rows([['Zahlungsart / Payment method', 'payment.means_label']])}
    <tr><th>Zahlbetrag / Amount due</th><td><strong>{{ payment.due_amount_formatted }} {{ invoice.currency }}</strong></td></tr>
    ${rows([
      ['Hinweis / Note', 'payment.means_text'],
      ['Kontoinhaber / Account holder', 'payment.account_name'],
      ['IBAN', 'payment.iban_formatted'],
      ['BIC', 'payment.bic'],
      ['Verwendungszweck / Reference', 'payment.reference'],
      ['Fällig am / Due date', 'payment.due_date_formatted'],
      ['Mandatsreferenz / Mandate reference', 'payment.mandate_reference'],
      ['Gläubiger-ID / Creditor ID', 'payment.creditor_id'],
      ['Belastetes Konto / Debited account', 'payment.debited_iban_formatted'],
    ])}
  </table>
  {% if payment.terms %}<div class="terms">{{ payment.terms | escape | newline_to_br }}</div>{% endif %}
</section>{% endif %}`;
