import { useState } from 'preact/hooks';
import { patchCustomerBody } from '../../../../libs/customers/customer.schema.js';
import { api, problemText, type Schemas } from '../api/client.js';
import { customerKeys, useCustomer, useReportMailings } from '../api/customers.js';
import { write } from '../api/query.js';
import { WEEKDAYS } from '../maintenance/recurrence-text.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

type Schedule = Schemas['ReportSchedule'];

/**
 * When the customer's report is e-mailed (staff), and what was sent: each mailing's attempts, with
 * a button to send the shown period now.
 */
export function ReportMailing({
  customerId,
  period,
}: {
  customerId: number;
  period: { from: string; to: string };
}) {
  const customer = useCustomer(customerId);
  const log = useReportMailings(customerId);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const sendNow = async () => {
    setSending(true);
    const answer = await write(
      api.POST('/api/customers/{id}/report-mailings', { params: { path: { id: customerId } }, body: period }),
      customerKeys.one(customerId),
    ).finally(() => setSending(false));
    setSent(answer.data ? `Sent: ${answer.data.status}` : problemText(answer.error));
  };
  return (
    <section aria-labelledby="mailing-title">
      <h2 id="mailing-title">By e-mail</h2>
      {customer.data && (
        <ScheduleForm
          key={customer.data.id}
          customerId={customerId}
          schedule={customer.data.reportSchedule ?? null}
        />
      )}
      <p>
        <button type="button" onClick={() => void sendNow()} disabled={sending}>
          {sending ? 'Sending…' : `Send ${period.from} – ${period.to} now`}
        </button>{' '}
        <span role="status">{sent}</span>
      </p>
      <h3>Sent</h3>
      {log.data?.length === 0 && <p>Nothing sent yet.</p>}
      <ul class="wraps">
        {log.data?.map((mailing) => (
          <li key={mailing.id}>
            <strong>
              {mailing.status === 'sent'
                ? '✓ sent'
                : mailing.status === 'failed'
                  ? '✕ failed'
                  : `… ${mailing.status}`}
            </strong>{' '}
            {mailing.period.from} – {mailing.period.to} to {mailing.recipients.join(', ')} ({mailing.trigger},{' '}
            {mailing.format}); {mailing.attempts.length} attempt{mailing.attempts.length === 1 ? '' : 's'}
            {mailing.attempts.at(-1)?.error && <> — last error: {mailing.attempts.at(-1)?.error}</>}
            {mailing.nextAttemptAt && <> — next try {new Date(mailing.nextAttemptAt).toLocaleString()}</>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ScheduleForm({ customerId, schedule }: { customerId: number; schedule: Schedule | null }) {
  const form = useForm(
    {
      frequency: schedule?.frequency ?? 'off',
      dayOfMonth: String(schedule?.dayOfMonth ?? 1),
      weekday: schedule?.weekday ?? 'MO',
      hour: String(schedule?.hour ?? 6),
      format: schedule?.format ?? 'pdf',
      recipients: (schedule?.recipients ?? []).join(', '),
    },
    {
      schema: patchCustomerBody,
      body: (v) => ({
        reportSchedule: {
          frequency: v.frequency as Schedule['frequency'],
          dayOfMonth: Number(v.dayOfMonth),
          weekday: v.weekday as Schedule['weekday'],
          hour: Number(v.hour),
          format: v.format as Schedule['format'],
          recipients: v.recipients
            .split(',')
            .map((r) => r.trim())
            .filter(Boolean),
        },
      }),
    },
  );
  const { frequency } = form.values;
  // The schedule's fields by their name (`reportSchedule.recipients.1` is the recipients' error).
  const error = (field: string) => {
    const path = `reportSchedule.${field}`;
    return Object.entries(form.errors).find(([key]) => key === path || key.startsWith(`${path}.`))?.[1];
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = await write(
      api.PATCH('/api/customers/{id}', { params: { path: { id: customerId } }, body }),
      customerKeys.one(customerId),
    );
    form.answered(answer);
  };
  return (
    <form class="card" onSubmit={save} aria-label="Report schedule">
      <FormError message={form.message} />
      {form.saved && <Notice>Saved.</Notice>}
      <Field label="Send the report" error={error('frequency') ?? form.errors.reportSchedule}>
        {(props) => (
          <select {...props} {...form.bind('frequency', 'reportSchedule.frequency')}>
            <option value="off">Never</option>
            <option value="monthly">Every month (the month before)</option>
            <option value="weekly">Every week (the week before)</option>
          </select>
        )}
      </Field>
      {frequency === 'monthly' && (
        <Field label="On day of the month" error={error('dayOfMonth')}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={28}
              {...form.bind('dayOfMonth', 'reportSchedule.dayOfMonth')}
            />
          )}
        </Field>
      )}
      {frequency === 'weekly' && (
        <Field label="On" error={error('weekday')}>
          {(props) => (
            <select {...props} {...form.bind('weekday', 'reportSchedule.weekday')}>
              {WEEKDAYS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {frequency !== 'off' && (
        <>
          <Field label="At hour (the organization’s time zone)" error={error('hour')}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                max={23}
                {...form.bind('hour', 'reportSchedule.hour')}
              />
            )}
          </Field>
          <Field label="Attach" error={error('format')}>
            {(props) => (
              <select {...props} {...form.bind('format', 'reportSchedule.format')}>
                <option value="pdf">PDF</option>
                <option value="html">HTML</option>
                <option value="both">PDF and HTML</option>
              </select>
            )}
          </Field>
          <Field
            label="To"
            error={error('recipients')}
            hint="E-mail addresses, separated by commas; empty: the customer’s notification e-mail"
          >
            {(props) => <input {...props} {...form.bind('recipients', 'reportSchedule.recipients')} />}
          </Field>
        </>
      )}
      <div class="actions">
        <button type="submit" class="primary">
          Save schedule
        </button>
      </div>
    </form>
  );
}
