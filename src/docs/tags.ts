/**
 * The API reference's sections, in the order a user meets them: making a PDF first, operations
 * last. Every operation has exactly one of these tags; `npm run lint` (scripts/openapi-lint.mjs) names an
 * operation whose tag is missing or not listed here. A new section: add it here, where a reader would look for it.
 */
export const TAG_ORDER = [
  {
    name: 'PDFs',
    description:
      'Render a PDF from a stored template or from HTML: as the file, as a signed link, or in the background.',
  },
  {
    name: 'Templates',
    description:
      'Stored, versioned Liquid templates: create, change (each content change is a new version), pin, preview.',
  },
  {
    name: 'Documents',
    description:
      'The log of rendered PDFs: status, signed download links, thumbnails and what happened to each.',
  },
  {
    name: 'Batches',
    description: 'One template, many items or spreadsheet rows, one ZIP: queued in the background.',
  },
  {
    name: 'Webhooks',
    description:
      'Endpoints that receive signed `pdf.created`, `pdf.failed` and `batch.completed` events, and their delivery log.',
  },
  {
    name: 'E-invoices',
    description: 'Structured invoices (Factur-X/ZUGFeRD, XRechnung, Peppol): validating and reading them.',
  },
  {
    name: 'PDF tools',
    description:
      'Extension: work on PDFs you already have — inspect them, transform them in steps (pages, rotate, merge, fill, flatten, stamp, PDF/A, protect, sign), split them.',
  },
  { name: 'Brand assets', description: 'Logos and fonts that templates use by name.' },
  {
    name: 'Certificates',
    description:
      'Extension: the team’s PKCS#12 signing certificates, used by `sign` for PAdES signatures (keys are never returned).',
  },
  { name: 'Account', description: 'The team a key belongs to: plan, usage this period, spending cap.' },
  {
    name: 'Team',
    description:
      'API keys, members and invitations (admin live keys, or admins and owners in the dashboard).',
  },
  {
    name: 'Dashboard',
    description: 'Sign-in and the browser session the dashboard uses (cookie and CSRF token, not API keys).',
  },
  {
    name: 'Operations',
    description:
      'For operators, orchestrators and monitoring: health, readiness, version, metrics and this reference.',
  },
] as const;
