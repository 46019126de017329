import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { EventKind } from '../../../../libs/events/event-kinds.js';
import { api, problemText, type Schemas } from '../api/client.js';
import { incidentKeys, useIncident, useIncidentTimeline } from '../api/incidents.js';
import { invalidate } from '../api/query.js';
import { EVENT_LABELS } from '../channels/event-labels.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { Check, Field, FormError, Loading, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { EvidenceDetails } from '../websites/evidence.js';
import { Shot } from '../websites/journey-run.js';
import { KIND_NAME } from '../websites/monitor-forms.js';
import { EscalationItem } from './escalation-item.js';
import { PublishAsPost } from './publish-as-post.js';
import { heldText } from './timeline-words.js';

type Step = Schemas['IncidentTimelineItem'];

const STEP_TITLE: Record<Step['kind'], string> = {
  failure: 'First failure',
  confirmed: 'Confirmed down',
  alert: 'Alert',
  escalation: 'Escalation',
  held: 'Held',
  acknowledged: 'Acknowledged',
  note: 'Note',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  recovery: 'Recovered',
  resolved: 'Resolved',
};

/** One step in words: what, where, and what came with it. */
function stepText(step: Step): string {
  // A heartbeat's steps come from its pings (the "push" region), not from a place.
  const where = step.region && step.region !== 'push' ? ` in ${step.region}` : '';
  if (step.alert) {
    const { eventType, channelName, status } = step.alert;
    const what = EVENT_LABELS[eventType as EventKind] ?? eventType;
    return status === 'succeeded'
      ? `${what}: delivered to ${channelName}`
      : `${what}: not delivered to ${channelName}${step.text ? ` (${step.text})` : ''}`;
  }
  if (step.kind === 'held') return heldText(step.text);
  return `${STEP_TITLE[step.kind]}${where}${step.text ? ` — ${step.text}` : ''}`;
}

/**
 * An incident: when and why, each region's first failing answer (headers, the body as text, the
 * redirects, TLS), the timeline, and for editors acknowledging it and adding notes.
 */
export function IncidentPage() {
  const incidentRef = useRoute().params.ref ?? '';
  const { caller } = useSession();
  const editor = canEdit(caller);
  const incident = useIncident(incidentRef);
  const timeline = useIncidentTimeline(incidentRef);
  if (incident.notFound) return <p role="alert">No such incident: it may belong to another organization.</p>;
  if (!incident.data) return <Loading error={incident.error} />;
  const data = incident.data;
  const websiteName = data.website?.name ?? 'A deleted website';
  // An incident of another of its monitors is named with it: "Shop · Port check".
  const name = data.monitor ? `${websiteName} · ${KIND_NAME[data.monitor.kind]}` : websiteName;
  // A note or an acknowledgement changes the incident, its timeline and the list.
  const reload = () => invalidate(incidentKeys.all);
  return (
    <section>
      <p>
        <a href="/incidents">Incidents</a> /{' '}
        {data.website ? <a href={`/websites/${data.website.id}`}>{websiteName}</a> : websiteName}
      </p>
      <h1>
        {name}: {data.resolvedAt ? '✓ resolved' : '✕ down'}
      </h1>
      <dl class="facts">
        <dt>Cause</dt>
        <dd>{data.cause}</dd>
        <dt>From</dt>
        <dd>{new Date(data.startedAt).toLocaleString()}</dd>
        <dt>To</dt>
        <dd>{data.resolvedAt ? new Date(data.resolvedAt).toLocaleString() : 'ongoing'}</dd>
        <dt>Regions</dt>
        {/* A heartbeat is pinged, not checked from regions. */}
        <dd>{data.monitor?.kind === 'heartbeat' ? 'none: pinged' : data.regions.join(', ') || '—'}</dd>
        <dt>Acknowledged</dt>
        <dd>
          {data.acknowledgement
            ? `by ${data.acknowledgement.by.name}, ${new Date(data.acknowledgement.at).toLocaleString()}${
                data.acknowledgement.note ? ` — ${data.acknowledgement.note}` : ''
              }`
            : 'not yet'}
        </dd>
        {data.publicNote && (
          <>
            <dt>Root cause (public)</dt>
            <dd>
              {data.publicNote.text}
              {editor && <WithdrawPublicNote incidentRef={incidentRef} onDone={reload} />}
            </dd>
          </>
        )}
      </dl>
      {editor && !data.resolvedAt && !data.acknowledgement && (
        <Acknowledge incidentRef={incidentRef} onDone={reload} />
      )}
      {editor && <PublishAsPost incidentId={data.id} websiteId={data.websiteId} />}
      <h2>What it answered</h2>
      {data.monitor ? (
        // Another monitor's evidence stays with its results (its pings, answers, timings).
        <p class="muted">
          {KIND_NAME[data.monitor.kind]}: what it saw is kept with its results
          {data.website && (
            <>
              {' '}
              on <a href={`/websites/${data.website.id}#monitors`}>{websiteName}’s page</a>
            </>
          )}
          .
        </p>
      ) : (
        data.firstFailures.length === 0 && <p class="muted">No evidence was kept for this incident.</p>
      )}
      {data.screenshotUrl && (
        <Shot src={data.screenshotUrl} caption="The page when the run that opened it failed" />
      )}
      {!data.monitor &&
        data.firstFailures.map((failure) => (
          <details key={failure.region} class="evidence" open={data.firstFailures.length === 1}>
            <summary>
              {failure.region}: first failure {new Date(failure.at).toLocaleString()}
            </summary>
            {failure.evidence ? (
              <EvidenceDetails evidence={failure.evidence} />
            ) : (
              <p class="muted">Its evidence is gone (kept as long as results are).</p>
            )}
          </details>
        ))}
      <h2>Timeline</h2>
      <FormError message={timeline.error} />
      {timeline.data && (
        <ol class="timeline" id="timeline">
          {timeline.data.map((step) => (
            <li key={`${step.at}-${step.kind}-${stepText(step)}`}>
              <time datetime={step.at}>{new Date(step.at).toLocaleString()}</time>{' '}
              {step.kind === 'escalation' ? (
                <EscalationItem item={step} />
              ) : (
                <strong>{stepText(step)}</strong>
              )}
              {step.kind === 'note' && step.public && ' (public)'}
              {/* The notifier runs every escalation step: its list of outcomes ends the item. */}
              {step.kind !== 'escalation' && (
                <span class="muted"> — {step.by.type === 'system' ? 'webmon' : step.by.name}</span>
              )}
            </li>
          ))}
        </ol>
      )}
      {editor && <AddNote incidentRef={incidentRef} onDone={reload} />}
    </section>
  );
}

function Acknowledge({ incidentRef, onDone }: { incidentRef: string; onDone: () => Promise<void> }) {
  const form = useForm({ note: '' }, { body: ({ note }) => (note.trim() ? { note: note.trim() } : {}) });
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = await api.POST('/api/incidents/{incidentRef}/acknowledge', {
      params: { path: { incidentRef } },
      body,
    });
    if (form.answered(answer)) await onDone();
  };
  return (
    <form onSubmit={submit} class="card" aria-labelledby="acknowledge-title">
      <h2 id="acknowledge-title">Acknowledge</h2>
      <p class="muted">Reminders stop for this incident, and its channels hear who is on it.</p>
      <FormError message={form.message} />
      <Field label="Note (optional)" error={form.errors.note}>
        {(props) => <input {...props} maxLength={2000} {...form.bind('note')} />}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          Acknowledge
        </button>
      </div>
    </form>
  );
}

function AddNote({ incidentRef, onDone }: { incidentRef: string; onDone: () => Promise<void> }) {
  const [added, setAdded] = useState(false);
  const blank = { text: '', public: false };
  const form = useForm(blank, { body: (values) => values });
  const submit = async (event: Event) => {
    event.preventDefault();
    setAdded(false);
    const body = form.check();
    if (!body) return;
    const answer = await api.POST('/api/incidents/{incidentRef}/notes', {
      params: { path: { incidentRef } },
      body,
    });
    if (!form.answered(answer)) return;
    form.reset(blank);
    setAdded(true);
    await onDone();
  };
  return (
    <form onSubmit={submit} class="card" aria-labelledby="note-title">
      <h2 id="note-title">Add a note</h2>
      <FormError message={form.message} />
      {added && <Notice>Note added.</Notice>}
      <Field label="Note" error={form.errors.text}>
        {(props) => <textarea {...props} rows={3} maxLength={5000} {...form.bind('text')} />}
      </Field>
      <Check
        label="Public: the root cause shown on the status pages listing this website"
        checked={form.values.public}
        onChange={(on) => form.set('public', on)}
        error={form.errors.public}
      />
      <div class="actions">
        <button type="submit" class="primary">
          Add note
        </button>
      </div>
    </form>
  );
}

/** Takes the root cause off the status pages, after a confirmation (the note stays on the timeline). */
function WithdrawPublicNote({ incidentRef, onDone }: { incidentRef: string; onDone: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const withdraw = async () => {
    const answer = await api.DELETE('/api/incidents/{incidentRef}/public-note', {
      params: { path: { incidentRef } },
    });
    setAsking(false);
    if (answer.error) return setFailure(problemText(answer.error));
    await onDone();
  };
  return (
    <>
      {' '}
      <button type="button" onClick={() => setAsking(true)}>
        Withdraw from the status pages
      </button>
      <FormError message={failure} />
      <Confirm
        open={asking}
        title="Withdraw the public root cause?"
        confirmLabel="Withdraw"
        onConfirm={() => void withdraw()}
        onCancel={() => setAsking(false)}
      >
        The status pages stop showing it; it stays on this incident's timeline.
      </Confirm>
    </>
  );
}
