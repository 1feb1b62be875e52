/** Warnings a render reports (spec: "Warning"). They name template fields and elements, never user data. */
export type Warning =
  | { code: 'missing_variable'; path: string }
  | { code: 'overflow'; selector: string; page: number };

/** Spec: at most 20 warnings per response. */
export const MAX_WARNINGS = 20;
