import type { AccountsTables } from '../accounts/tables.js';
import type { BatchesTables } from '../batches/tables.js';
import type { BrandTables } from '../brand/tables.js';
import type { CertificatesTables } from '../certificates/tables.js';
import type { DocumentsTables } from '../documents/tables.js';
import type { EmailTables } from '../email/tables.js';
import type { IdempotencyTables } from '../idempotency/tables.js';
import type { JobsTables } from '../jobs/tables.js';
import type { TemplatesTables } from '../templates/tables.js';
import type { UsersTables } from '../users/tables.js';
import type { WebhooksTables } from '../webhooks/tables.js';
import type { RateWindowsTables } from './rate-windows.js';
import type { RenderLeasesTables } from './render-leases.js';
import type { ServerStateTables } from './server-state.js';

/**
 * The whole database, composed from each capability's own tables.
 * A capability adds `& XxxTables` here and registers its migration in migrations/index.ts.
 */
export interface Database
  extends AccountsTables,
    BatchesTables,
    BrandTables,
    CertificatesTables,
    DocumentsTables,
    EmailTables,
    IdempotencyTables,
    JobsTables,
    RateWindowsTables,
    RenderLeasesTables,
    ServerStateTables,
    TemplatesTables,
    UsersTables,
    WebhooksTables {}
