import type { IconName } from './icons';

/**
 * The dashboard's navigation as data: the sidebar draws it, grouped by section in this order. A new page
 * adds one line here and one case in main.tsx's routes.
 */
export interface NavItem {
  /** The hash path, e.g. `/templates`; an item is current for its path and everything below it. */
  path: string;
  label: string;
  /** Drawn beside the label, and alone in the collapsed sidebar (the label stays for screen readers). */
  icon?: IconName;
  section: NavSection;
}

export type NavSection = 'Create' | 'Deliver' | 'Team';

export const NAV_SECTIONS: readonly NavSection[] = ['Create', 'Deliver', 'Team'];

export const NAV: readonly NavItem[] = [
  { path: '/templates', label: 'Templates', icon: 'templates', section: 'Create' },
  { path: '/gallery', label: 'Gallery', icon: 'templates', section: 'Create' },
  { path: '/generate', label: 'Generate', icon: 'generate', section: 'Create' },
  { path: '/documents', label: 'Documents', icon: 'documents', section: 'Create' },
  { path: '/batches', label: 'Batches', icon: 'batches', section: 'Create' },
  { path: '/einvoice-check', label: 'E-invoice check', icon: 'check', section: 'Create' },
  { path: '/pdf-tools', label: 'PDF tools', icon: 'documents', section: 'Create' },
  { path: '/webhooks', label: 'Webhooks', icon: 'webhooks', section: 'Deliver' },
  { path: '/brand', label: 'Brand', icon: 'brand', section: 'Deliver' },
  { path: '/certificates', label: 'Certificates', icon: 'certificate', section: 'Deliver' },
  { path: '/keys', label: 'API keys', icon: 'keys', section: 'Team' },
  { path: '/usage', label: 'Usage', icon: 'usage', section: 'Team' },
  { path: '/members', label: 'Members', icon: 'members', section: 'Team' },
];

/** The item a path belongs to (the longest matching prefix), for aria-current. */
export function currentItem(path: string): NavItem | undefined {
  return NAV.filter((item) => path === item.path || path.startsWith(`${item.path}/`)).sort(
    (a, b) => b.path.length - a.path.length,
  )[0];
}
