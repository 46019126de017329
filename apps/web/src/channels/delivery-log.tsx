import { useState } from 'preact/hooks';
import type { EventKind } from '../../../../libs/events/event-kinds.js';
import { channelKeys, type Delivery, useDeliveries } from '../api/channels.js';
import { api, problemText } from '../api/client.js';
import { write } from '../api/query.js';
import { FormError } from '../ui/form.js';
import { EVENT_LABELS } from './event-labels.js';

export const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  pending: '… Pending',
  succeeded: '✓ Delivered',
  failed: '✕ Failed',
  skipped: '– Skipped',
};

/** A channel's deliveries, newest first, 20 more at a time; an editor sends one again. */
export function DeliveryLog({ channelId, editor }: { channelId: number; editor: boolean }) {
  const [pages, setPages] = useState(1);
  const log = useDeliveries(channelId, pages);
  const [message, setMessage] = useState<string | null>(null);
  const redeliver = async (delivery: Delivery) => {
    const { error, response } = await write(
      api.POST('/api/notification-channels/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id: channelId, deliveryId: delivery.id } },
      }),
      channelKeys.deliveries(channelId),
    );
    setMessage(response.ok ? `Delivery ${delivery.id} is sent again.` : problemText(error));
  };
  return (
    <>
      <h2>Delivery log</h2>
      <FormError message={log.error} />
      {message && <p role="status">{message}</p>}
      {log.data?.items.length === 0 && <p>Nothing sent yet: send a test to see the first delivery here.</p>}
      {log.data && log.data.items.length > 0 && (
        <table class="stack" id="deliveries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Result</th>
              <th scope="col">Attempts</th>
              {editor && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {log.data.items.map((d) => {
              const last = d.attempts.at(-1);
              return (
                <tr key={d.id}>
                  <td data-label="When">{new Date(d.createdAt).toLocaleString()}</td>
                  <td data-label="Event">{EVENT_LABELS[d.eventType as EventKind] ?? d.eventType}</td>
                  <td data-label="Result">
                    {DELIVERY_STATUS[d.status]}
                    {last?.httpStatus ? ` (HTTP ${last.httpStatus})` : ''}
                    {d.outcome && <span class="muted"> {d.outcome}</span>}
                    {last?.error && <span class="muted"> {last.error}</span>}
                  </td>
                  <td data-label="Attempts">{d.attempts.length}</td>
                  {editor && (
                    <td data-label="Action">
                      {d.status !== 'pending' && (
                        <button type="button" class="link" onClick={() => void redeliver(d)}>
                          Redeliver <span class="visually-hidden">delivery {d.id}</span>
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {log.data?.more && (
        <button type="button" onClick={() => setPages((p) => p + 1)}>
          Load more
        </button>
      )}
    </>
  );
}
