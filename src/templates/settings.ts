import { type Static, Type } from 'typebox';
import { PageOptionFields } from '../pdf/schema.js';
import { resolvePageOptions } from '../render/page-options.js';
import { AppError } from '../shared/errors.js';

/** Spec "Template": page defaults `mode`, `format`, `orientation`, `margin` (singular). */
export const TemplateSettingsSchema = Type.Object(
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
);

export type TemplateSettings = Static<typeof TemplateSettingsSchema>;

/**
 * Checks settings with the same rules as POST /pdf page options (spec "Page option values"): lengths,
 * custom sizes, margins that leave a printable area. Throws invalid_request naming the field.
 */
export function checkSettings(settings: TemplateSettings): void {
  // Spec: orientation applies to the named formats only, so with {width, height} it is refused as in POST /pdf.
  if (typeof settings.format === 'object' && settings.orientation !== undefined) {
    throw new AppError(
      'invalid_request',
      'settings.orientation applies to the named formats only, not to {width, height}.',
      { field: 'orientation' },
    );
  }
  resolvePageOptions({}, settings, 'print');
}
