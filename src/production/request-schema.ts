import { Type } from 'typebox';
import { named } from '../http/schemas.js';

/**
 * The request fields every way of asking for a document shares (POST /pdf, templates' stored settings,
 * batches): the page options and `deliver`. They belong to production, the use case that reads them.
 */

const Length = Type.String({
  description: 'Bare 0, or a non-negative decimal followed by mm, cm, in, px or pt',
});

/** Extension: ask for the finished file's accessibility report (POST /pdf). */
export const AccessibilityReportField = {
  accessibility_report: Type.Optional(
    Type.Boolean({
      description:
        "Extension: check the finished PDF against the machine-checkable PDF/UA-1 conditions and report them: the `x-accessibility` header (`tagged; ua1=pass` or `ua1=fail(n)`) and the Document's `accessibility`. Not for a protected file.",
    }),
  ),
};

export const PageOptionFields = {
  mode: Type.Optional(Type.Union([Type.Literal('fast'), Type.Literal('print')])),
  format: Type.Optional(
    Type.Union([
      Type.Union([Type.Literal('A4'), Type.Literal('A5'), Type.Literal('Letter'), Type.Literal('Legal')]),
      Type.Object({ width: Length, height: Length }, { additionalProperties: false }),
    ]),
  ),
  orientation: Type.Optional(Type.Union([Type.Literal('portrait'), Type.Literal('landscape')])),
  margins: Type.Optional(
    Type.String({ description: 'One to four lengths separated by single spaces, as CSS margin' }),
  ),
};

/**
 * One plain addr-spec. The address parser behind it (src/email/address.ts) refuses display names,
 * comments, groups and lists with `details.field`; a schema pattern would answer first without one.
 */
const PlainAddress = Type.String({
  minLength: 3,
  maxLength: 254,
  description:
    'One plain email address (name@example.com): no display name, angle brackets, comments, group or list',
});

/** `deliver` (spec: POST /pdf): email the finished PDF to one address. Batches reuse it. */
export const DeliverBody = named(
  'Deliver',
  Type.Object(
    {
      email: Type.Object(
        {
          to: PlainAddress,
          subject: Type.Optional(Type.String({ maxLength: 200 })),
          message: Type.Optional(Type.String({ maxLength: 5000 })),
          reply_to: Type.Optional(PlainAddress),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
);
