import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { type Channel, channelKeys, useChannel, useChannelSchema } from '../api/channels.js';
import { api, problemText } from '../api/client.js';
import { invalidate } from '../api/query.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Loading, Notice } from '../ui/form.js';
import { ChannelForm } from './channel-form.js';
import { typeName } from './channel-schema.js';
import { DELIVERY_STATUS, DeliveryLog } from './delivery-log.js';
import { EVENT_LABELS } from './event-labels.js';

/** A channel (`/channels/new`: a new one): its test send, settings, delivery log and deletion. */
export function ChannelPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const { caller } = useSession();
  const schema = useChannelSchema();
  const channel = useChannel(params.ref === 'new' ? null : Number(params.ref));
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const editor = canEdit(caller);

  if (channel.notFound)
    return (
      <section>
        <h1>Channel not found</h1>
        <p>
          <a href="/channels">Back to the channels</a>
        </p>
      </section>
    );
  if (!schema.data || channel.data === undefined) return <Loading error={schema.error ?? channel.error} />;
  const c = channel.data;
  const remove = async () => {
    setDeleting(false);
    if (!c) return;
    const { error, response } = await api.DELETE('/api/notification-channels/{id}', {
      params: { path: { id: c.id } },
    });
    if (!response.ok) return setMessage(problemText(error));
    // Away first: this page's own reads would only answer 404 now.
    route('/channels');
    await invalidate(channelKeys.all);
  };
  return (
    <section>
      <p>
        <a href="/channels">← Channels</a>
      </p>
      <h1>{c ? c.name : 'Add a channel'}</h1>
      <FormError message={message} />
      {secret && (
        <Notice>
          Its signing secret, shown this once: <code class="secret">{secret}</code> — keep it in your receiver
          to check each delivery’s signature.
        </Notice>
      )}
      {c && <DeliveryTrouble channel={c} />}
      {c && <TemplateTrouble channel={c} />}
      {c && <TestSend channel={c} editor={editor} />}
      {editor ? (
        <>
          {c && <h2>Settings</h2>}
          <ChannelForm
            key={c?.id ?? 'new'}
            channel={c}
            schema={schema.data}
            onSaved={(saved, newSecret) => {
              if (newSecret) setSecret(newSecret);
              if (!c) route(`/channels/${saved.id}`);
            }}
          />
        </>
      ) : (
        c && (
          <p>
            {typeName(c.type)} · {c.enabled ? '✓ On' : '⏸ Off'}
          </p>
        )
      )}
      {c && <DeliveryLog channelId={c.id} editor={editor} />}
      {c && editor && (
        <>
          <h2>Delete</h2>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete the channel…
          </button>
          <Confirm
            open={deleting}
            title={`Delete ${c.name}?`}
            confirmLabel="Delete the channel"
            cancelLabel="Keep it"
            onConfirm={() => void remove()}
            onCancel={() => setDeleting(false)}
          >
            No more alerts go to it; websites that chose it stop naming it.
          </Confirm>
        </>
      )}
    </section>
  );
}

function TestSend({ channel, editor }: { channel: Channel; editor: boolean }) {
  const [state, setState] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  if (!editor) return null;
  const send = async () => {
    setSending(true);
    try {
      await sendAndFollow();
    } finally {
      setSending(false);
    }
  };
  const sendAndFollow = async () => {
    setError(null);
    setState('Sending a test…');
    // The log shows the test's delivery with its outcome (read again once that is known).
    const { data, error: problem } = await api.POST('/api/notification-channels/{id}/test', {
      params: { path: { id: channel.id } },
    });
    if (!data) {
      setState(null);
      setError(problemText(problem));
      return;
    }
    for (let i = 0; i < 60; i++) {
      const { data: delivery } = await api.GET('/api/notification-channels/{id}/deliveries/{deliveryId}', {
        params: { path: { id: channel.id, deliveryId: data.id } },
      });
      if (delivery && delivery.status !== 'pending') {
        // The channel too: a template that failed for the test shows its problem.
        await invalidate(channelKeys.one(channel.id));
        const last = delivery.attempts.at(-1);
        setState(
          `Test ${DELIVERY_STATUS[delivery.status].toLowerCase()}${last?.httpStatus ? ` (HTTP ${last.httpStatus})` : ''}${delivery.outcome ? `: ${delivery.outcome}` : ''}`,
        );
        return;
      }
      // A first attempt that failed is retried for hours: what it met is known now, so say it.
      const failed = delivery?.attempts.at(-1);
      if (failed) {
        await invalidate(channelKeys.one(channel.id));
        const why = [failed.httpStatus ? `HTTP ${failed.httpStatus}` : null, failed.error].filter(Boolean);
        setState(
          `The test’s first attempt failed${why.length > 0 ? ` (${why.join(': ')})` : ''}. It is tried again on the retry schedule; the delivery log shows each attempt.`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    setState('The test is still pending: see the delivery log.');
  };
  return (
    <div class="actions">
      <button type="button" onClick={() => void send()} disabled={sending}>
        {sending ? 'Sending a test…' : 'Send a test'}
      </button>
      <p role="status" aria-live="polite">
        {state}
      </p>
      <FormError message={error} />
    </div>
  );
}

/** The channel's last failed delivery attempt, until a delivery gets through. */
function DeliveryTrouble({ channel }: { channel: Channel }) {
  const problem = channel.deliveryProblem;
  if (!problem) return null;
  return (
    <div class="banner warn" role="status" aria-label="Delivery problem">
      <p>
        <strong>Deliveries to this channel are failing</strong> since{' '}
        {new Date(problem.since).toLocaleString(undefined, { hourCycle: 'h23' })}. The last attempt noted, on{' '}
        {new Date(problem.at).toLocaleString(undefined, { hourCycle: 'h23' })} (
        {EVENT_LABELS[problem.eventType as keyof typeof EVENT_LABELS] ?? problem.eventType}), met:
      </p>
      <p>
        <code>{problem.message}</code>
      </p>
      <p class="hint">
        Each alert is tried again on the retry schedule (the delivery log shows every attempt). Check the
        settings, then send a test: this goes once a delivery gets through.
      </p>
    </div>
  );
}

/** The last time the channel's template failed for a delivery: the default message went instead. */
function TemplateTrouble({ channel }: { channel: Channel }) {
  const problem = channel.templateProblem;
  if (!problem) return null;
  return (
    <div class="banner warn" role="status" aria-label="Template problem">
      <p>
        <strong>The message template failed</strong> on {new Date(problem.at).toLocaleString()} (
        {EVENT_LABELS[problem.eventType as keyof typeof EVENT_LABELS] ?? problem.eventType}): the default
        message was sent instead.
      </p>
      <p>
        <code>{problem.message}</code>
      </p>
      <p class="hint">This goes once the template renders for a message, or when it is changed.</p>
    </div>
  );
}
