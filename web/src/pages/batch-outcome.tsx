import type { Schemas } from '../api';
import { Badge, formatCount } from '../ui';

type Batch = Schemas['Batch'];

/** Every item reached a final status (the API's `completed` waits for the ZIP too). */
function allDone(batch: Batch): boolean {
  const { succeeded, failed, canceled, total } = batch.counts;
  return batch.status === 'completed' || succeeded + failed + canceled === total;
}

/**
 * The batch's status as a user needs it at a glance: a batch whose items failed is never a green
 * "completed". All failed: red "failed" with the count; some failed: amber with both counts.
 */
export function BatchOutcome({ batch }: { batch: Batch }) {
  const { succeeded, failed, total } = batch.counts;
  if (failed === 0 || !allDone(batch)) return <Badge status={batch.status} />;
  if (succeeded === 0 && batch.status !== 'canceled') {
    return (
      <Badge status="failed">
        failed: {formatCount(failed)} of {formatCount(total)}
      </Badge>
    );
  }
  return (
    <Badge status="partial">
      {batch.status === 'canceled' ? 'canceled' : 'completed'}, {formatCount(failed)} of {formatCount(total)}{' '}
      failed
    </Badge>
  );
}

/**
 * The batch's ZIP link (the spec's signed `zip.url`, unchanged). A finished batch without a succeeded item
 * says so instead of offering an archive with nothing in it.
 */
export function BatchZip({
  batch,
  label,
  inList = false,
}: {
  batch: Batch;
  label: string;
  inList?: boolean;
}) {
  const nothing =
    batch.counts.succeeded === 0 && (batch.status === 'completed' || batch.status === 'canceled');
  if (nothing) return <span class="hint">No ZIP: no item succeeded</span>;
  if (batch.zip) {
    return (
      <a href={batch.zip.url} download>
        {label}
        {inList && <span class="sr-only"> of batch {batch.id}</span>}
      </a>
    );
  }
  if (batch.status === 'completed') return <>packing…</>;
  return inList ? <>—</> : null;
}
