import { Type } from 'typebox';

/**
 * The accessibility report as answers carry it (extension): the Document's `accessibility`, and the editor's
 * draft preview pages. One definition, so both say the same.
 */
export const AccessibilityReportSchema = Type.Object(
  {
    tagged: Type.Boolean(),
    ua1: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
    failures: Type.Integer({ description: 'Failures found over all checks' }),
    checks: Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String({ description: 'The condition, with its Matterhorn Protocol checkpoint' }),
        passed: Type.Boolean(),
        count: Type.Integer({ description: 'Failures this check found' }),
        detail: Type.Optional(Type.String()),
      }),
    ),
  },
  {
    description:
      'Extension: the machine-checkable PDF/UA-1 conditions of the file (structure tree, content tagged or an artifact, figures with alternate text, table header cells, heading levels, language, title shown, fonts embedded with Unicode maps), present when the request sent `accessibility_report: true`.',
  },
);
