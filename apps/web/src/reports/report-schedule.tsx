import { useState } from 'preact/hooks';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { customerKeys, useCustomer, useReportMailings } from '../api/customers.js';
import { invalidate, write } from '../api/query.js';
import { Field, FormError, Notice } from '../ui/form.js';

type Schedule = Schemas['ReportSchedule'];
const WEEKDAYS = [
  ['MO', 'Monday'],
  ['TU', 'Tuesday'],
  ['WE', 'Wednesday'],
  ['TH', 'Thursday'],
  ['FR', 'Friday'],
  ['SA', 'Saturday'],
  ['SU', 'Sunday'],
] as const;

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
          onSaved={() => invalidate(customerKeys.one(customerId))}
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

function ScheduleForm({
  customerId,
  schedule,
  onSaved,
}: {
  customerId: number;
  schedule: Schedule | null;
  onSaved: () => void;
}) {
  const [frequency, setFrequency] = useState<Schedule['frequency']>(schedule?.frequency ?? 'off');
  const [dayOfMonth, setDayOfMonth] = useState(String(schedule?.dayOfMonth ?? 1));
  const [weekday, setWeekday] = useState<Schedule['weekday']>(schedule?.weekday ?? 'MO');
  const [hour, setHour] = useState(String(schedule?.hour ?? 6));
  const [format, setFormat] = useState<Schedule['format']>(schedule?.format ?? 'pdf');
  const [recipients, setRecipients] = useState((schedule?.recipients ?? []).join(', '));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const answer = await api.PATCH('/api/customers/{id}', {
      params: { path: { id: customerId } },
      body: {
        reportSchedule: {
          frequency,
          dayOfMonth: Number(dayOfMonth),
          weekday,
          hour: Number(hour),
          format,
          recipients: recipients
            .split(',')
            .map((r) => r.trim())
            .filter(Boolean),
        },
      },
    });
    if (answer.data) {
      setErrors({});
      setMessage(null);
      setSaved(true);
      onSaved();
    } else {
      const byField = fieldErrors(answer.error);
      setErrors(
        Object.fromEntries(
          Object.entries(byField).map(([path, text]) => [path.replace(/^reportSchedule\.?/, ''), text]),
        ),
      );
      setMessage(problemText(answer.error));
    }
  };
  return (
    <form class="card" onSubmit={save} aria-label="Report schedule">
      <FormError message={message} />
      {saved && <Notice>Saved.</Notice>}
      <Field label="Send the report" error={errors.frequency ?? errors['']}>
        {(props) => (
          <select
            {...props}
            value={frequency}
            onChange={(e) => setFrequency(e.currentTarget.value as Schedule['frequency'])}
          >
            <option value="off">Never</option>
            <option value="monthly">Every month (the month before)</option>
            <option value="weekly">Every week (the week before)</option>
          </select>
        )}
      </Field>
      {frequency === 'monthly' && (
        <Field label="On day of the month" error={errors.dayOfMonth}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={28}
              value={dayOfMonth}
              onInput={(e) => setDayOfMonth(e.currentTarget.value)}
            />
          )}
        </Field>
      )}
      {frequency === 'weekly' && (
        <Field label="On" error={errors.weekday}>
          {(props) => (
            <select
              {...props}
              value={weekday}
              onChange={(e) => setWeekday(e.currentTarget.value as Schedule['weekday'])}
            >
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
          <Field label="At hour (the organization’s time zone)" error={errors.hour}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                max={23}
                value={hour}
                onInput={(e) => setHour(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Attach" error={errors.format}>
            {(props) => (
              <select
                {...props}
                value={format}
                onChange={(e) => setFormat(e.currentTarget.value as Schedule['format'])}
              >
                <option value="pdf">PDF</option>
                <option value="html">HTML</option>
                <option value="both">PDF and HTML</option>
              </select>
            )}
          </Field>
          <Field
            label="To"
            error={errors.recipients}
            hint="E-mail addresses, separated by commas; empty: the customer’s notification e-mail"
          >
            {(props) => (
              <input {...props} value={recipients} onInput={(e) => setRecipients(e.currentTarget.value)} />
            )}
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
