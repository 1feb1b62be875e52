// Handlebars helpers (`fallback` is Liquid's `default`) standing in for the Liquid filters that bench/fixtures/invoice.liquid.html uses, so
// jsreport's invoice prints the same text as Quire's. Sent to jsreport as the stored template's `helpers`.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function date(value) {
  const d = new Date(value);
  return `${String(d.getUTCDate()).padStart(2, '0')} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
function round(value, digits) {
  const f = 10 ** (typeof digits === 'number' ? digits : 0);
  return Math.round(Number(value) * f) / f;
}
function times(a, b) {
  return Number(a) * Number(b);
}
function inc(i) {
  return i + 1;
}
function upcase(s) {
  return String(s ?? '').toUpperCase();
}
function nl2br(s) {
  const escaped = String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return escaped.replace(/\r?\n/g, '<br />\n');
}
function fallback(value, otherwise) {
  return value === undefined || value === null || value === '' || value === false ? otherwise : value;
}
