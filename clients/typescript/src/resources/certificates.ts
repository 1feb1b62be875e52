import { unwrap } from '../core.js';
import { type PagedList, singlePage } from '../pagination.js';
import type { Certificate, UploadCertificateRequest } from '../types.js';
import { Resource } from './resource.js';

/** The team's signing certificates (extension): /certificates… */
export class Certificates extends Resource {
  /** GET /certificates: what each certificate says (subject, issuer, validity, fingerprint); never its key. */
  list(): PagedList<Certificate, never> {
    return singlePage(() => unwrap(this.core.api.GET('/certificates')));
  }

  /** POST /certificates: a PKCS#12 file in base64 and its passphrase; the key is stored sealed, the passphrase not at all. */
  async upload(body: UploadCertificateRequest): Promise<Certificate> {
    return unwrap(this.core.api.POST('/certificates', { body }));
  }

  /** DELETE /certificates/{id}: the certificate and its key; documents it signed stay signed. */
  async delete(id: string): Promise<void> {
    await unwrap(this.core.api.DELETE('/certificates/{id}', { params: { path: { id } } }));
  }
}
