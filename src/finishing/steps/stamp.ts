import type { StampOption } from '../schema.js';
import type { FinishingStep } from '../step.js';

/** `stamp`: text or an image drawn on the chosen pages (docs/pdf-output.md "Finishing options"). */
export const stamp: FinishingStep<'stamp', StampOption> = {
  key: 'stamp',
  fields: ['stamp'],
  plan: ({ options }) => options.stamp ?? null,
  document: async (doc, planned) => {
    const { drawStamp } = await import('../stamp.js');
    await drawStamp(doc, planned);
  },
};
