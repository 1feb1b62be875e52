import type { AccountsTables } from '../accounts/tables.js';
import type { BatchesTables } from '../batches/tables.js';
import type { DocumentsTables } from '../documents/tables.js';
import type { EmailTables } from '../email/tables.js';
import type { IdempotencyTables } from '../idempotency/tables.js';
import type { JobsTables } from '../jobs/tables.js';
import type { TemplatesTables } from '../templates/tables.js';
import type { UsersTables } from '../users/tables.js';
import type { WebhooksTables } from '../webhooks/tables.js';
import type { RateWindowsTables } from './rate-windows.js';

/**
 * The whole database, composed from each capability's own tables.
 * A capability adds `& XxxTables` here and registers its migration in migrations/index.ts.
 */
export interface Database
  extends AccountsTables,
    BatchesTables,
    DocumentsTables,
    EmailTables,
    IdempotencyTables,
    JobsTables,
    RateWindowsTables,
    TemplatesTables,
    UsersTables,
    WebhooksTables {}
