import type { SigningKey } from '../cms.js';
import type { SignOption } from '../schema.js';
import type { FinishingStep } from '../step.js';

/** A signature with the team certificate's key, opened before rendering for this document only. */
export interface ResolvedSign {
  options: SignOption;
  key: SigningKey;
}

/**
 * `sign` (PAdES): the signature's field and dictionary, with room for the signature, are written with the
 * document after PDF/A (so the PDF/A check sees them); the last final step then only fills the byte ranges
 * and the signature in place, changing no structure. Always last: nothing may change a signed file.
 */
export const sign: FinishingStep<'sign', SignOption, ResolvedSign> = {
  key: 'sign',
  fields: ['sign'],
  plan: ({ options }) => options.sign ?? null,
  // An unknown or expired certificate fails the request without a render.
  resolve: async (options, scope) => ({
    options,
    key: await scope.signingKeys.signingKey(scope.teamId, options.certificate_id, scope.now),
  }),
  document: async (doc, resolved, context) => {
    const { addSignaturePlaceholder } = await import('../signature.js');
    await addSignaturePlaceholder(doc, resolved.options, resolved.key, context.createdAt);
  },
  final: async (pdf, resolved) => {
    const { signPdf } = await import('../signature.js');
    return signPdf(pdf, resolved.key);
  },
};
