/** Spec: characters other than letters, digits, `.`, `_`, `-` become `-`; the extension is added. */
export function sanitizeFilename(name: string, extension: '.pdf' | '.xml'): string {
  let base = name.replace(/[^A-Za-z0-9._-]/g, '-');
  if (base.toLowerCase().endsWith(extension)) base = base.slice(0, -extension.length);
  if (base === '' || /^[.]+$/.test(base)) base = 'document';
  return `${base}${extension}`;
}
