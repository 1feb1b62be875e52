import { type Static, Type } from 'typebox';
import { FinishingFields, planFinishing, refuseStoredPasswords } from '../finishing/index.js';
import { named } from '../http/schemas.js';
import { PageOptionFields } from '../pdf/schema.js';
import { resolvePageOptions } from '../render/page-options.js';

/** Spec "Template": page defaults `mode`, `format`, `orientation`, `margin` (singular). */
export const TemplateSettingsSchema = named(
  'TemplateSettings',
  Type.Object(
    {
      mode: PageOptionFields.mode,
      format: PageOptionFields.format,
      orientation: PageOptionFields.orientation,
      margin: Type.Optional(
        Type.String({ description: 'One to four lengths separated by single spaces, as CSS margin' }),
      ),
      // Extensions (README "Finishing options"); `protect` is request-only: passwords are never stored.
      pdf_a: FinishingFields.pdf_a,
      pdf_ua: FinishingFields.pdf_ua,
      tagged: FinishingFields.tagged,
      outline: FinishingFields.outline,
      pdf_metadata: FinishingFields.pdf_metadata,
      attachments: FinishingFields.attachments,
      stamp: FinishingFields.stamp,
      prepend: FinishingFields.prepend,
      append: FinishingFields.append,
      sign: FinishingFields.sign,
    },
    {
      additionalProperties: false,
      description:
        'Page defaults and finishing options (extensions, README "Finishing options"; not `protect`) of renders from this template; options sent with POST /pdf or POST /batches override them.',
    },
  ),
);

export type TemplateSettings = Static<typeof TemplateSettingsSchema>;

/**
 * Checks settings with the same rules as POST /pdf page options (spec "Page option values"): lengths,
 * custom sizes, margins that leave a printable area. Throws invalid_request naming the field.
 */
export function checkSettings(settings: TemplateSettings): void {
  // Spec: orientation applies to the named formats only; with {width, height} it is accepted and ignored.
  resolvePageOptions({}, settings, 'print');
  refuseStoredPasswords(settings as Parameters<typeof refuseStoredPasswords>[0], 'in template settings');
  // Finishing options that cannot go together are refused when saved, not at each render.
  planFinishing(settings);
}
