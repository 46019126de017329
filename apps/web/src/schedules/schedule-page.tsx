import './schedules.css';
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, problemText } from '../api/client.js';
import { invalidate } from '../api/query.js';
import { scheduleKeys, useSchedule } from '../api/schedules.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Loading } from '../ui/form.js';
import { ScheduleCalendar } from './calendar.js';
import { FeedLink } from './feed-link.js';
import { OnCallNow } from './on-call-now.js';
import { Overrides } from './overrides.js';
import { ScheduleForm } from './schedule-form.js';

/** A schedule (`/schedules/new`: a new one): who is on call, its calendar, overrides, your feed, its settings. */
export function SchedulePage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const { caller } = useSession();
  const editor = canEdit(caller);
  const schedule = useSchedule(params.ref === 'new' ? null : Number(params.ref));
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (schedule.notFound)
    return (
      <section>
        <h1>Schedule not found</h1>
        <p>
          <a href="/schedules">Back to the schedules</a>
        </p>
      </section>
    );
  if (schedule.data === undefined) return <Loading error={schedule.error} />;
  const s = schedule.data;
  const remove = async () => {
    setDeleting(false);
    if (!s) return;
    const { error, response } = await api.DELETE('/api/schedules/{id}', { params: { path: { id: s.id } } });
    if (!response.ok) return setMessage(problemText(error));
    route('/schedules');
    await invalidate(scheduleKeys.all);
  };
  return (
    <section>
      <p>
        <a href="/schedules">← On-call schedules</a>
      </p>
      <h1>{s ? s.name : 'Create a schedule'}</h1>
      <FormError message={message} />
      {s && <OnCallNow scheduleId={s.id} zone={s.timezone} />}
      {s && <ScheduleCalendar schedule={s} />}
      {s && <Overrides schedule={s} editor={editor} />}
      {s && <FeedLink scheduleId={s.id} person={caller?.kind === 'person'} />}
      {editor && (
        <section aria-labelledby="settings-heading">
          <h2 id="settings-heading">{s ? 'Settings' : 'Name, time zone and layers'}</h2>
          <ScheduleForm
            key={s?.id ?? 'new'}
            schedule={s}
            onSaved={(saved) => {
              if (!s) route(`/schedules/${saved.id}`);
            }}
          />
        </section>
      )}
      {s && editor && (
        <>
          <h2>Delete</h2>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete the schedule…
          </button>
          <Confirm
            open={deleting}
            title={`Delete ${s.name}?`}
            confirmLabel="Delete the schedule"
            cancelLabel="Keep it"
            onConfirm={() => void remove()}
            onCancel={() => setDeleting(false)}
          >
            Its layers and overrides go with it; calendars subscribed to it stop updating.
          </Confirm>
        </>
      )}
    </section>
  );
}
