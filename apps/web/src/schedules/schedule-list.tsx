import './schedules.css';
import { useSchedules } from '../api/schedules.js';
import { canEdit, useSession } from '../session.js';
import { FormError } from '../ui/form.js';
import { NextOnCall, OnCallNow } from './on-call-now.js';

/** The organization's on-call schedules, each with who is on call now and next. */
export function Schedules() {
  const { caller } = useSession();
  const schedules = useSchedules();
  const editor = canEdit(caller);
  return (
    <section>
      <h1>On-call schedules</h1>
      <p>Who is woken when an alert comes: people take turns in layers, and overrides cover a span.</p>
      <FormError message={schedules.error} />
      {editor && (
        <p>
          <a class="button" href="/schedules/new">
            Create a schedule
          </a>
        </p>
      )}
      {schedules.data?.length === 0 && (
        <p>
          {editor
            ? 'No schedules yet: create one, add the people who take turns, and choose when they hand over.'
            : 'No schedules yet.'}
        </p>
      )}
      {schedules.data && schedules.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Schedule</th>
              <th scope="col">On call now</th>
              <th scope="col">Next</th>
              <th scope="col">Time zone</th>
            </tr>
          </thead>
          <tbody>
            {schedules.data.map((s) => (
              <tr key={s.id}>
                <td data-label="Schedule">
                  <a href={`/schedules/${s.id}`}>{s.name}</a>
                </td>
                <td data-label="On call now">
                  <OnCallNow scheduleId={s.id} zone={s.timezone} compact />
                </td>
                <td data-label="Next">
                  <NextOnCall scheduleId={s.id} zone={s.timezone} />
                </td>
                <td data-label="Time zone">{s.timezone}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
