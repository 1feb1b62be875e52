import type { DocumentLifecycle } from '../documents/index.js';
import type { PasswordBox, StoredPdfPort } from '../finishing/index.js';
import type { Clock } from '../shared/clock.js';
import type { TeamSlots } from '../shared/team-slots.js';
import type { CertificatePort, RendererPort } from './ports.js';
import type { PrepareDeps } from './prepare.js';
import type { RecordDeps } from './record.js';

/** What making a document needs; each step takes the part of it it uses (steps.ts). */
export interface ProduceDeps extends PrepareDeps, RecordDeps {
  clock: Clock;
  renderer: RendererPort;
  slots: TeamSlots;
  lifecycle: DocumentLifecycle;
  /** Stored documents named by `prepend`/`append` (extension, docs/pdf-output.md "Merging"). */
  storedPdfs: StoredPdfPort;
  certificates: CertificatePort;
  /** Seals a queued request's `protect` passwords (finishing/sealed-protect.ts); the render job opens them. */
  passwords: PasswordBox;
}
