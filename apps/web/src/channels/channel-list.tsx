import { useChannels } from '../api/channels.js';
import { canEdit, useSession } from '../session.js';
import { FormError } from '../ui/form.js';
import { typeName } from './channel-schema.js';

export function Channels() {
  const { caller } = useSession();
  const channels = useChannels();
  return (
    <section>
      <h1>Notification channels</h1>
      <p>
        Where alerts go when a website goes down, comes back, or a certificate or domain is about to expire.
      </p>
      <FormError message={channels.error} />
      {canEdit(caller) && (
        <p>
          <a class="button" href="/channels/new">
            Add a channel
          </a>
        </p>
      )}
      {channels.data?.length === 0 && (
        <p>No channels yet: add one (Slack, Teams, a webhook, e-mail …), then send it a test.</p>
      )}
      {channels.data && channels.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Type</th>
              <th scope="col">State</th>
              <th scope="col">Receives</th>
            </tr>
          </thead>
          <tbody>
            {channels.data.map((c) => (
              <tr key={c.id}>
                <td data-label="Channel">
                  <a href={`/channels/${c.id}`}>{c.name}</a>
                </td>
                <td data-label="Type">{typeName(c.type)}</td>
                <td data-label="State">
                  {c.enabled ? '✓ On' : '⏸ Off'}
                  {c.deliveryProblem &&
                    ` · ⚠ failing since ${new Date(c.deliveryProblem.since).toLocaleString(undefined, { hourCycle: 'h23' })}`}
                  {c.templateProblem && ' · ⚠ its template failed: the default message went'}
                </td>
                <td data-label="Receives">
                  {c.events.length} kinds of event
                  {c.scope.listedOnly
                    ? ', from the websites that choose it'
                    : c.scope.customerId !== undefined
                      ? ', from one customer'
                      : ', from every website'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
