import type { ProductionDeps } from '../../../src/production/index.js';
import { resolvePageOptions } from '../../../src/render/index.js';
import { AppError } from '../../../src/shared/errors.js';
import { mergeData } from '../../../src/templates/merge-data.js';

/**
 * The production's seams that the job tests' plain HTML documents never reach: no stored template (one named
 * is not found), no merged PDFs, no signature. Page options and merged data are the product's own.
 */
export const PLAIN_HTML_DEPS: Pick<
  ProductionDeps,
  'templates' | 'pageOptions' | 'mergeData' | 'certificates' | 'storedPdfs'
> = {
  templates: {
    resolve: async () => {
      throw new AppError('template_not_found', 'none');
    },
  },
  pageOptions: (request, settings, fallback) => resolvePageOptions(request, settings ?? {}, fallback),
  mergeData,
  certificates: { signingKey: () => Promise.reject(new Error('this test signs nothing')) },
  storedPdfs: { find: async () => null },
};
