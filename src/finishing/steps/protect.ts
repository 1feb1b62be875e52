import { AppError } from '../../shared/errors.js';
import type { ProtectOption } from '../schema.js';
import type { FinishingStep } from '../step.js';

/** `protect`: qpdf encrypts the finished file (AES-256), before a signature could be added (it cannot). */
export const protect: FinishingStep<'protect', ProtectOption> = {
  key: 'protect',
  fields: ['protect'],
  plan: ({ options, contribution }, earlier) => {
    if (!options.protect) return null;
    if (earlier.pdf_a)
      throw new AppError(
        'invalid_request',
        contribution
          ? '"protect" cannot be used with an e-invoice: PDF/A-3 forbids encryption.'
          : '"protect" cannot be used with "pdf_a": PDF/A forbids encryption.',
        { field: 'protect' },
      );
    if (options.sign)
      throw new AppError(
        'invalid_request',
        '"sign" cannot be used with "protect": an encrypted file cannot carry this signature. Send one of them.',
        { field: 'sign' },
      );
    return options.protect;
  },
  final: async (pdf, planned) => {
    const { protectPdf } = await import('../protect.js');
    return protectPdf(pdf, planned);
  },
};
