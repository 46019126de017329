import { useState } from 'preact/hooks';
import { api, problemText } from '../api/client.js';
import { invalidate } from '../api/query.js';
import { scheduleKeys, useMyFeeds } from '../api/schedules.js';
import { Confirm } from '../ui/confirm.js';
import { useCopy } from '../ui/copy.js';
import { FormError } from '../ui/form.js';

/**
 * The signed-in person's calendar feed of this schedule: a link a calendar app subscribes to (it
 * sends no cookie, so the link holds a token), to copy or open, and revoking every such link.
 */
export function FeedLink({ scheduleId, person }: { scheduleId: number; person: boolean }) {
  const feeds = useMyFeeds(person);
  const url = feeds.data?.find((feed) => feed.scheduleId === scheduleId)?.url ?? '';
  const { copy, said } = useCopy(url, { copied: 'Copied: paste it into your calendar app.' });
  const [revoking, setRevoking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const revoke = async () => {
    setRevoking(false);
    const { error, response } = await api.DELETE('/api/me/on-call-feed-token');
    setMessage(response.ok ? null : problemText(error));
    await invalidate(scheduleKeys.feeds);
  };
  return (
    <section aria-labelledby="feed-heading">
      <h2 id="feed-heading">Your calendar</h2>
      {!person ? (
        <p class="muted">Sign in as a person to get a calendar feed of your shifts.</p>
      ) : (
        <>
          <p>
            Subscribe to your shifts of this schedule (30 days back, 90 ahead) in your calendar app. The link
            is a password to your shifts: keep it to yourself.
          </p>
          <FormError message={feeds.error ?? message} />
          {url && (
            <>
              <label for="feed-url">Feed link</label>
              <input
                id="feed-url"
                class="feed-url"
                readOnly
                value={url}
                onFocus={(e) => e.currentTarget.select()}
              />
              <div class="actions">
                <button type="button" onClick={copy}>
                  Copy the link
                </button>
                <a class="button" href={url.replace(/^https?:/, 'webcal:')}>
                  Open in your calendar app
                </a>
                <button type="button" class="danger" onClick={() => setRevoking(true)}>
                  Revoke my feed links…
                </button>
              </div>
              <p role="status">{said}</p>
            </>
          )}
          <Confirm
            open={revoking}
            title="Revoke your feed links?"
            confirmLabel="Revoke the links"
            cancelLabel="Keep them"
            onConfirm={() => void revoke()}
            onCancel={() => setRevoking(false)}
          >
            Calendars subscribed to any of your schedules stop updating; this page then shows a new link.
          </Confirm>
        </>
      )}
    </section>
  );
}
