/** The API's own documentation: the OpenAPI document and the pages that read it (server routes, wired by app.ts). */
export { registerDocsRoutes, registerOpenApi } from './routes.js';
