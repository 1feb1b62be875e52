/** Reading e-invoices a team receives: validation with the official rules, and parsing into the model. */
import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import { ReceivedEInvoices, type ReceivedEInvoicesOptions } from './pool.js';
import { registerEInvoiceInboundRoutes } from './routes.js';

export { CompiledRules, mayBeOutdated } from './artefacts.js';
export { ReceivedEInvoices } from './pool.js';
export { ruleSetList as einvoiceRuleSets } from './rule-sets.js';

export interface EInvoiceInboundOptions extends ReceivedEInvoicesOptions {
  rate: RateCounter;
  clock: Clock;
}

export interface EInvoiceInboundModule extends Capability<App, JobDefinition> {
  /** Stops the checking workers. */
  close(): Promise<void>;
}

export function createEInvoiceInbound(options: EInvoiceInboundOptions): EInvoiceInboundModule {
  const { rate, clock, ...pool } = options;
  // Received e-invoices are checked on a pool of their own: its workers keep the compiled official rules.
  const einvoices = new ReceivedEInvoices(pool);
  return {
    routes: (app) => registerEInvoiceInboundRoutes(app, { einvoices, rate, clock }),
    close: () => einvoices.close(),
  };
}
