import { useOnCall } from '../api/schedules.js';
import { formatIn } from '../maintenance/zoned-time.js';

/** Who is on call now and until when, and who is next: read again every minute. */
export function OnCallNow({
  scheduleId,
  zone,
  compact = false,
}: {
  scheduleId: number;
  zone: string;
  compact?: boolean;
}) {
  const onCall = useOnCall(scheduleId);
  const data = onCall.data;
  if (onCall.error) return <span class="error-text">⚠ {onCall.error}</span>;
  if (!data) return <span class="muted">…</span>;
  const now = data.now ? (
    <>
      <strong>{data.now.name}</strong>
      {data.until ? ` until ${formatIn(data.until, zone)}` : ' (no handoff within a year)'}
    </>
  ) : (
    <strong>No one</strong>
  );
  const next = data.next ? (
    <>
      {data.next.user.name} from {formatIn(data.next.at, zone)}
    </>
  ) : (
    'no one within a year'
  );
  if (compact) return <>{now}</>;
  return (
    <dl class="oncall-now">
      <dt>On call now</dt>
      <dd>{now}</dd>
      <dt>Next</dt>
      <dd>{next}</dd>
    </dl>
  );
}

/** Who is next, for a list's column. */
export function NextOnCall({ scheduleId, zone }: { scheduleId: number; zone: string }) {
  const { data } = useOnCall(scheduleId);
  if (!data) return <span class="muted">…</span>;
  return data.next ? (
    <>
      {data.next.user.name} from {formatIn(data.next.at, zone)}
    </>
  ) : (
    <span class="muted">No one within a year</span>
  );
}
