/** Warnings a render reports (spec: "Warning"). They name template fields and elements, never user data. */
export type Warning =
  | { code: 'missing_variable'; path: string }
  | { code: 'overflow'; selector: string; page: number }
  /** Extension: console.error or an uncaught exception of the page (first line, at most 200 characters). */
  | { code: 'script_error'; message: string };

/** Spec: at most 20 warnings per response. */
export const MAX_WARNINGS = 20;
