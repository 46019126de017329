/** Every status in words with its own symbol: never told by colour alone. */
const STATUS: Record<string, { icon: string; text: string }> = {
  up: { icon: '✓', text: 'Up' },
  degraded: { icon: '!', text: 'Degraded' },
  down: { icon: '✕', text: 'Down' },
  maintenance: { icon: '⚙', text: 'Maintenance' },
  paused: { icon: '⏸', text: 'Paused' },
  cancelled: { icon: '∅', text: 'Cancelled' },
  unmonitored: { icon: '?', text: 'Unmonitored' },
  unknown: { icon: '…', text: 'Not checked yet' },
};

export const STATUSES = Object.keys(STATUS);

export function statusLabel(status: string): string {
  return STATUS[status]?.text ?? status;
}

export function StatusBadge({ status }: { status: string }) {
  const shown = STATUS[status] ?? { icon: '?', text: status };
  return (
    <span class={`status status-${status}`}>
      <span aria-hidden="true">{shown.icon}</span> {shown.text}
    </span>
  );
}
