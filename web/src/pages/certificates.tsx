import { api, base64Of, call, canManage, type Schemas, type Session } from '../api';
import { toast } from '../feedback';
import { Busy, DataTable, ErrorText, formatDate, Page, useLoad } from '../ui';
import { useAction } from '../use-action';

type Certificate = Schemas['Certificate'];

/** Upload a PKCS#12 file with its passphrase (the passphrase is sent once and never kept). */
function UploadForm({ onUploaded }: { onUploaded: () => void }) {
  const { busy, error, setError, run } = useAction();

  const upload = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const file = (form.elements.namedItem('file') as HTMLInputElement).files?.[0];
    if (!file) {
      setError(new Error('Choose a .p12 or .pfx file first.'));
      return;
    }
    await run(async () => {
      const body = {
        name: String(data.get('name')).trim(),
        pkcs12_base64: await base64Of(file),
        passphrase: String(data.get('passphrase')),
      };
      const created = await call(api.POST('/certificates', { body }));
      toast(`Certificate “${created.name}” uploaded.`);
      form.reset();
      onUploaded();
    });
  };

  return (
    <form class="field-group" onSubmit={upload} aria-busy={busy}>
      <h2>Upload</h2>
      <div class="field">
        <label for="cert-name">Name</label>
        <input id="cert-name" name="name" required maxLength={100} />
      </div>
      <div class="field">
        <label for="cert-file">PKCS#12 file (.p12 or .pfx, with the private key)</label>
        <input id="cert-file" name="file" type="file" accept=".p12,.pfx,application/x-pkcs12" required />
      </div>
      <div class="field">
        <label for="cert-passphrase">Passphrase</label>
        <input id="cert-passphrase" name="passphrase" type="password" autoComplete="off" />
      </div>
      <p class="hint">
        The private key is stored encrypted and never shown again; the passphrase is not stored. A team keeps
        at most 10 certificates.
      </p>
      <ErrorText error={error} id="certificates-error" />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Uploading…' : 'Upload certificate'}
      </button>
    </form>
  );
}

/** Team certificates (extension): upload, list, delete; documents sign with `sign.certificate_id`. */
export function CertificatesPage({ session }: { session: Session }) {
  const list = useLoad(() => call(api.GET('/certificates')), []);
  const { error, run } = useAction();
  const manage = canManage(session);

  const remove = async (cert: Certificate) => {
    await run(
      async () => {
        await call(api.DELETE('/certificates/{id}', { params: { path: { id: cert.id } } }));
        toast(`Certificate ${cert.name} deleted.`);
        list.reload();
      },
      {
        ask: {
          title: `Delete certificate ${cert.name}?`,
          body:
            'Its private key is deleted. Documents it signed stay signed; templates, queued documents and batches ' +
            'that sign with it fail until they name another certificate.',
          action: 'Delete certificate',
        },
      },
    );
  };

  return (
    <Page title="Certificates">
      <p class="hint">
        Sign documents with a certificate: choose it under “Sign with” when generating, or send{' '}
        <code>sign: {'{ certificate_id }'}</code> with the API.
      </p>
      {manage ? (
        <UploadForm onUploaded={list.reload} />
      ) : (
        <p class="hint">Only admins and owners can upload or delete certificates.</p>
      )}
      <ErrorText error={error} />
      {list.loading && <Busy label="Loading certificates…" />}
      <ErrorText error={list.error} />
      {list.data && list.data.data.length === 0 && <p>No certificates yet.</p>}
      {list.data && list.data.data.length > 0 && (
        <DataTable columns={['Name', 'Subject', 'Issuer', 'Valid until', 'Id', manage && 'Action']}>
          {list.data.data.map((c) => (
            <tr key={c.id}>
              <td>{c.name}</td>
              <td>{c.subject}</td>
              <td>{c.issuer}</td>
              <td>{formatDate(c.not_after)}</td>
              <td>
                <code>{c.id}</code>
              </td>
              {manage && (
                <td>
                  <button type="button" class="danger" onClick={() => remove(c)}>
                    Delete {c.name}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
    </Page>
  );
}
