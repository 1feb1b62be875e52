/**
 * Liquid partials of the built-in invoice: header, parties and references. Every printed value is
 * inside an `{% if %}` or sent as null by `invoiceTemplateData`, so no missing_variable warning fires
 * (SPEC "Warnings": tested or null values are not reported). User text always passes `escape`.
 */
import { rows } from './markup-rows.js';

/** One postal address (`a`) as lines. */
export const ADDRESS = `{% for line in a.lines %}<div>{{ line | escape }}</div>{% endfor %}`;

export const HEADER = `
<header class="head">
  <div class="brand">
    <div class="seller-name">{{ seller.name | escape }}</div>
    {% if seller.trading_name %}<div class="muted">{{ seller.trading_name | escape }}</div>{% endif %}
    <div class="muted small">{{ seller.address.one_line | escape }}</div>
  </div>
  <div class="doc-title">
    <h1 class="title">{{ invoice.type_label | escape }}</h1>
    <div class="doc-no">{{ invoice.number | escape }}</div>
    {% if e_invoice %}<div class="badge">{{ e_invoice.label | escape }}</div>{% endif %}
  </div>
</header>`;

const PARTY_IDS = `
{% if p.vat_id %}<div class="small">USt-IdNr. / VAT ID: {{ p.vat_id | escape }}</div>{% endif %}
{% if p.tax_number %}<div class="small">Steuernummer / Tax no.: {{ p.tax_number | escape }}</div>{% endif %}
{% if p.id %}<div class="small">Kennung / ID: {{ p.id | escape }}{% if p.id_scheme %} ({{ p.id_scheme | escape }}){% endif %}</div>{% endif %}
{% if p.legal_registration_id %}<div class="small">Register / Registration: {{ p.legal_registration_id | escape }}{% if p.legal_registration_scheme %} ({{ p.legal_registration_scheme | escape }}){% endif %}</div>{% endif %}
{% if p.electronic_address %}<div class="small">E-Adresse / E-address: {{ p.electronic_address.value | escape }} ({{ p.electronic_address.scheme | escape }})</div>{% endif %}
{% if p.contact %}<div class="small">Kontakt / Contact:{% if p.contact.name %} {{ p.contact.name | escape }}{% endif %}{% if p.contact.phone %}, {{ p.contact.phone | escape }}{% endif %}{% if p.contact.email %}, {{ p.contact.email | escape }}{% endif %}</div>{% endif %}`;

export const PARTIES = `
<section class="parties">
  <div class="party">
    <div class="label">Rechnungsempfänger / Bill to</div>
    {% assign p = customer %}{% assign a = customer.address %}
    <div class="party-name">{{ p.name | escape }}</div>
    {% if p.trading_name %}<div>{{ p.trading_name | escape }}</div>{% endif %}
    ${ADDRESS}
    ${PARTY_IDS}
  </div>
  <table class="meta">
    ${rows([
      ['Rechnungsnr. / Invoice no.', 'invoice.number'],
      ['Datum / Issue date', 'invoice.issue_date_formatted'],
      ['Lieferdatum / Delivery date', 'invoice.delivery_date_formatted'],
    ])}
    {% if invoice.billing_period %}<tr><th>Leistungszeitraum / Period</th><td>{{ invoice.billing_period.start_formatted }} – {{ invoice.billing_period.end_formatted }}</td></tr>{% endif %}
    ${rows([
      ['Fällig am / Due date', 'payment.due_date_formatted', 'payment and payment.due_date_formatted'],
      ['Währung / Currency', 'invoice.currency'],
      ['Ihre Referenz / Buyer reference', 'invoice.buyer_reference'],
      ['Bestellnr. / Purchase order', 'invoice.purchase_order_reference'],
      ['Auftragsnr. / Sales order', 'invoice.sales_order_reference'],
      ['Vertrag / Contract', 'invoice.contract_reference'],
      ['Projekt / Project', 'invoice.project_reference'],
    ])}
    {% if invoice.preceding_invoice %}<tr><th>Bezug / Preceding invoice</th><td>{{ invoice.preceding_invoice.number | escape }}{% if invoice.preceding_invoice.issue_date_formatted %} ({{ invoice.preceding_invoice.issue_date_formatted }}){% endif %}</td></tr>{% endif %}
  </table>
</section>
{% if invoice.delivery %}
<section class="delivery">
  <div class="label">Lieferanschrift / Deliver to</div>
  {% if invoice.delivery.name %}<div class="party-name">{{ invoice.delivery.name | escape }}</div>{% endif %}
  {% if invoice.delivery.address %}{% assign a = invoice.delivery.address %}${ADDRESS}{% endif %}
</section>
{% endif %}
{% if invoice.notes.size > 0 %}
<section class="notes">{% for note in invoice.notes %}<p>{{ note | escape | newline_to_br }}</p>{% endfor %}</section>
{% endif %}`;

export const SELLER_FOOTER = `
<footer class="seller-foot">
  {% assign p = seller %}{% assign a = seller.address %}
  <div class="col">
    <div class="party-name">{{ seller.name | escape }}</div>
    ${ADDRESS}
  </div>
  <div class="col">${PARTY_IDS}</div>
  {% if seller.legal_info %}<div class="col small">{{ seller.legal_info | escape | newline_to_br }}</div>{% endif %}
</footer>`;
