import { Liquid } from 'liquidjs';
import { registerQuireFilters } from '../../src/liquid/filters/index.js';

/**
 * A plain liquidjs 10.30.1 with the engine's options but no strictVariables and no instrumentation:
 * what a "normal render" produces, for byte-identical comparisons in tests.
 */
export function referenceLiquid(): Liquid {
  const liquid = new Liquid({
    strictFilters: true,
    ownPropertyOnly: true,
    lenientIf: true,
    templates: {},
    cache: false,
    timezoneOffset: 'UTC',
  });
  registerQuireFilters(liquid, { locale: 'en-US', timeZone: 'UTC' });
  return liquid;
}
