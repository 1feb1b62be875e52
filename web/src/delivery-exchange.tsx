import type { Schemas } from './api';
import './delivery-exchange.css';

type Detail = NonNullable<Schemas['WebhookDelivery']['last_attempt_detail']>;

/** Shows a JSON body indented when it parses, as sent otherwise. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function HeaderList({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p class="hint">No headers.</p>;
  return (
    <dl class="headers">
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            <code>{value}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What the last attempt of a delivery sent and received (the API's `last_attempt_detail` extension): the
 * request's headers and body, the answer's status, headers and first 4 KB. Closed until asked for.
 */
export function DeliveryExchange({ detail }: { detail: Detail | null | undefined }) {
  if (!detail) return <span class="hint">not sent yet</span>;
  const { request, response } = detail;
  return (
    <details class="exchange" data-testid="delivery-exchange">
      <summary>Request and response</summary>
      <h4>Request headers</h4>
      <HeaderList headers={request.headers} />
      <h4>Request body</h4>
      <pre class="body" data-testid="request-body">
        {pretty(request.body)}
      </pre>
      {response ? (
        <>
          <h4>
            Response <span data-testid="response-status">{response.status}</span>
          </h4>
          <HeaderList headers={response.headers} />
          <h4>Response body (first 4 KB)</h4>
          <pre class="body" data-testid="response-body">
            {response.body === '' ? '(empty)' : pretty(response.body)}
          </pre>
        </>
      ) : (
        <p>No response: the receiver could not be reached or did not answer in time.</p>
      )}
    </details>
  );
}
