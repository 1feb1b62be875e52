import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { migration0001Accounts } from './0001_accounts.js';
import { migration0002Documents } from './0002_documents.js';
import { migration0003Templates } from './0003_templates.js';
import { migration0004JobsWebhooks } from './0004_jobs_webhooks.js';
import { migration0005Queue } from './0005_queue.js';
import { migration0006Idempotency } from './0006_idempotency.js';
import { migration0007Email } from './0007_email.js';
import { migration0008Batches } from './0008_batches.js';
import { migration0009Billing } from './0009_billing.js';
import { migration0010RateWindows } from './0010_rate_windows.js';
import { migration0011Users } from './0011_users.js';
import { migration0012BrandAssets } from './0012_brand_assets.js';
import { migration0013RenderLeases } from './0013_render_leases.js';
import { migration0014UsageHolds } from './0014_usage_holds.js';
import { migration0015KeyRoles } from './0015_key_roles.js';
import { migration0016MembershipLastMode } from './0016_membership_last_mode.js';
import { migration0017UserSignedIn } from './0017_user_signed_in.js';
import { migration0018ServerState } from './0018_server_state.js';
import { migration0019Certificates } from './0019_certificates.js';
import { migration0020WebhookAttemptDetail } from './0020_webhook_attempt_detail.js';
import { migration0021TeamStoredBytes } from './0021_team_stored_bytes.js';
import { migration0022DocumentErrorMessage } from './0022_document_error_message.js';
import { migration0023DocumentAccessibility } from './0023_document_accessibility.js';
import { migration0024TemplateVersionNote } from './0024_template_version_note.js';

/**
 * Forward-only migrations, applied in name order at start. Each capability adds its own file and one line here.
 * Never edit a migration that has shipped; add a new one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001_accounts': migration0001Accounts,
  '0002_documents': migration0002Documents,
  '0003_templates': migration0003Templates,
  '0004_jobs_webhooks': migration0004JobsWebhooks,
  '0005_queue': migration0005Queue,
  '0006_idempotency': migration0006Idempotency,
  '0007_email': migration0007Email,
  '0008_batches': migration0008Batches,
  '0009_billing': migration0009Billing,
  '0010_rate_windows': migration0010RateWindows,
  '0011_users': migration0011Users,
  '0012_brand_assets': migration0012BrandAssets,
  '0013_render_leases': migration0013RenderLeases,
  '0014_usage_holds': migration0014UsageHolds,
  '0015_key_roles': migration0015KeyRoles,
  '0016_membership_last_mode': migration0016MembershipLastMode,
  '0017_user_signed_in': migration0017UserSignedIn,
  '0018_server_state': migration0018ServerState,
  '0019_certificates': migration0019Certificates,
  '0020_webhook_attempt_detail': migration0020WebhookAttemptDetail,
  '0021_team_stored_bytes': migration0021TeamStoredBytes,
  '0022_document_error_message': migration0022DocumentErrorMessage,
  '0023_document_accessibility': migration0023DocumentAccessibility,
  '0024_template_version_note': migration0024TemplateVersionNote,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/**
 * Applies the pending migrations. Not safe for several processes at once by itself: the caller holds the
 * database's write lock around it (see `openDatabase`).
 */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider,
    // Capabilities add migrations in parallel (0009 billing, 0010 rate windows): an install that ran a
    // later one first still applies the earlier one instead of refusing to start. Each touches its own tables.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`,
      // The driver's error keeps its code (ECONNREFUSED, 28P01): `quire serve` names the setting from it.
      { cause: error },
    );
  }
}
