/** Reading e-invoices a team receives (issue 28): validation with the official rules, and parsing into the model. */
export { ReceivedEInvoices } from './pool.js';
export { registerEInvoiceInboundRoutes } from './routes.js';
