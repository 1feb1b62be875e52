import { type Static, Type } from 'typebox';
import {
  FinishingFields,
  type FinishingOptions,
  ProtectBody,
  planFinishing,
  ShownProtectBody,
} from '../finishing/index.js';
import { named } from '../http/schemas.js';
import { PageOptionFields } from '../production/index.js';
import { resolvePageOptions } from '../render/index.js';

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
      // Extensions (docs/pdf-output.md "Finishing options").
      pdf_a: FinishingFields.pdf_a,
      pdf_ua: FinishingFields.pdf_ua,
      tagged: FinishingFields.tagged,
      outline: FinishingFields.outline,
      pdf_metadata: FinishingFields.pdf_metadata,
      attachments: FinishingFields.attachments,
      protect: Type.Optional(
        Type.Union([ProtectBody, ShownProtectBody], {
          description:
            "Extension: AES-256 encryption of every render. Send the passwords to set them; they are stored sealed with the server secret and never returned: answers show `{ permissions, owner_password_set: true, user_password_set }`, and sending that form back keeps the stored passwords. A request's `protect` replaces this one.",
        }),
      ),
      stamp: FinishingFields.stamp,
      prepend: FinishingFields.prepend,
      append: FinishingFields.append,
      sign: FinishingFields.sign,
    },
    {
      additionalProperties: false,
      description:
        'Page defaults and finishing options (extensions, docs/pdf-output.md "Finishing options") of renders from this template; options sent with POST /pdf or POST /batches override them.',
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
  // Finishing options that cannot go together are refused when saved, not at each render (a shown
  // `protect` stands for the passwords it keeps: only its presence matters here).
  planFinishing(settings as FinishingOptions);
}
