import { type Static, Type } from 'typebox';
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
    },
    {
      additionalProperties: false,
      description: 'Page defaults of renders from this template; options sent with POST /pdf override them.',
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
}
