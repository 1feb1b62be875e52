import { unwrap } from '../core.js';
import { type PagedList, singlePage } from '../pagination.js';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../types.js';
import { Resource } from './resource.js';

/** The team's API keys: /keys… */
export class Keys extends Resource {
  /** GET /keys (prefixes only: a key's secret is shown once, when created). */
  list(): PagedList<ApiKey, never> {
    return singlePage(() => unwrap(this.core.api.GET('/keys')));
  }

  /** POST /keys: the answer's `secret` is the only time the key itself is shown. */
  async create(body: CreateApiKeyRequest): Promise<CreatedApiKey> {
    return unwrap(this.core.api.POST('/keys', { body }));
  }

  /** DELETE /keys/{id}: the key stops working at once. */
  async revoke(id: string): Promise<ApiKey> {
    return unwrap(this.core.api.DELETE('/keys/{id}', { params: { path: { id } } }));
  }
}
