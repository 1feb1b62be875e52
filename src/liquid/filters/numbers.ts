import { FilterInputError } from '../template-error.js';
import { numberFormat } from './formatters.js';
import { decimalsInput, hundredth, isNil, localeInput, numericInput } from './inputs.js';

/** Per-engine defaults the filters fall back to when a template omits the argument. */
export interface FilterDefaults {
  locale: string;
  timeZone: string;
}

const CURRENCY_CODE = /^[A-Za-z]{3}$/;

function currencyInput(value: unknown): string {
  if (typeof value === 'string' && CURRENCY_CODE.test(value.trim())) return value.trim().toUpperCase();
  throw new FilterInputError('money', 'needs an ISO 4217 currency code such as "EUR"');
}

/**
 * `{{ amount | money: "EUR", "de-DE" }}` → `1.234,50 €` (Intl puts a no-break space before €).
 * Decimals follow the currency (JPY 0, EUR 2). Nil prints nothing, so a missing amount is a
 * missing_variable warning rather than a failed render.
 */
export function money(defaults: FilterDefaults) {
  return (value: unknown, currency?: unknown, locale?: unknown): string => {
    if (isNil(value)) return '';
    const amount = numericInput('money', value);
    const code = currencyInput(currency);
    const tag = localeInput('money', locale, defaults.locale);
    return numberFormat(tag, { style: 'currency', currency: code }).format(amount as number);
  };
}

/** `{{ qty | number: 2, "de-DE" }}` → `1.234,50`; without decimals Intl's default (up to 3). */
export function number(defaults: FilterDefaults) {
  return (value: unknown, decimals?: unknown, locale?: unknown): string => {
    if (isNil(value)) return '';
    const amount = numericInput('number', value);
    const digits = decimalsInput('number', decimals);
    const tag = localeInput('number', locale, defaults.locale);
    const options: Intl.NumberFormatOptions =
      digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
    return numberFormat(tag, options).format(amount as number);
  };
}

/**
 * `{{ 19 | percent }}` → `19%`, `{{ "7.5" | percent: 1, "de-DE" }}` → `7,5 %`. The input is in
 * percentage points, as invoice data carries rates (spec e-invoice: `vat_rate: 19`).
 */
export function percent(defaults: FilterDefaults) {
  return (value: unknown, decimals?: unknown, locale?: unknown): string => {
    if (isNil(value)) return '';
    const ratio = hundredth(numericInput('percent', value));
    const digits = decimalsInput('percent', decimals);
    const tag = localeInput('percent', locale, defaults.locale);
    const options: Intl.NumberFormatOptions =
      digits === undefined
        ? { style: 'percent', maximumFractionDigits: 2 }
        : { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits };
    return numberFormat(tag, options).format(ratio as unknown as number);
  };
}
