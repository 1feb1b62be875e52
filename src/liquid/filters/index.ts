import type { Liquid } from 'liquidjs';
import { dateFormatFilter } from './date-format.js';
import { type FilterDefaults, money, number, percent } from './numbers.js';

export type { FilterDefaults } from './numbers.js';

/** Quire's filters, added next to liquidjs's standard ones (documented in docs/liquid-filters.md). */
export function registerQuireFilters(liquid: Liquid, defaults: FilterDefaults): void {
  liquid.registerFilter('money', money(defaults));
  liquid.registerFilter('number', number(defaults));
  liquid.registerFilter('percent', percent(defaults));
  liquid.registerFilter('date_format', dateFormatFilter(defaults));
}
