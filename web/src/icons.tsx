/**
 * A few line icons (24×24, drawn with the current text colour), so the collapsed sidebar and the buttons
 * need no icon font or image request. Decorative: every use has a visible or screen-reader label beside it.
 */
const PATHS = {
  templates: 'M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7',
  generate: 'M7 4l12 8-12 8z',
  documents: 'M4 5h16v14H4zM4 10h16M9 10v9',
  batches: 'M8 8h12v12H8zM4 4h12v2M4 4v12h2',
  webhooks: 'M4 8h13l-3-3M20 16H7l3 3',
  brand:
    'M12 3a9 9 0 1 0 0 18c1 0 2-1 1-2-1-2 0-3 2-3h2a4 4 0 0 0 4-4c0-5-4-9-9-9zM7.5 11h.01M10 7h.01M15 7h.01',
  keys: 'M14 10a4 4 0 1 0-1 2.7L20 20l1-1-1.5-1.5L21 16l-1.5-1.5L18 16l-3.3-3.3A4 4 0 0 0 14 10z',
  usage: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  members:
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21c0-4 3-6 7-6s7 2 7 6M17 11a3 3 0 1 0 0-6M19 15c2 1 3 3 3 6',
  menu: 'M4 6h16M4 12h16M4 18h16',
  collapse: 'M15 6l-6 6 6 6',
  expand: 'M9 6l6 6-6 6',
  docs: 'M4 5h6a2 2 0 0 1 2 2v13a2 2 0 0 0-2-2H4zM20 5h-6a2 2 0 0 0-2 2v13a2 2 0 0 1 2-2h6z',
  certificate: 'M5 4h14v11H5zM9 8h6M9 11h4M12 15l-2 5 2-1 2 1-2-5',
  check: 'M5 12l4 4 10-10',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
