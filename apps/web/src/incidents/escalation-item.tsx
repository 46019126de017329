import '../escalation/escalation.css';
import type { Schemas } from '../api/client.js';
import { useSchedules } from '../api/schedules.js';
import { escalationParts, withScheduleNames } from './timeline-words.js';

/** An escalation step on an incident's timeline: its policy, which step, and how each target's notification went. */
export function EscalationItem({ item }: { item: Schemas['IncidentTimelineItem'] }) {
  const parts = escalationParts(item);
  const schedules = useSchedules();
  const names = new Map((schedules.data ?? []).map((s) => [s.id, s.name]));
  if (!item.escalation || !parts) return <strong>{item.text}</strong>;
  return (
    <>
      <strong>
        Escalation:{' '}
        <a href={`/escalation-policies/${item.escalation.policyId}`}>{item.escalation.policyName}</a>,{' '}
        {parts.label}
      </strong>
      <ul class="escalation-outcomes">
        {parts.outcomes.map((outcome) => (
          <li key={outcome.text}>
            <span aria-hidden="true">{outcome.ok ? '✓ ' : '⚠ '}</span>
            {withScheduleNames(outcome.text, names)}
          </li>
        ))}
      </ul>
    </>
  );
}
