import { stringify } from 'csv-stringify/sync';
import { spreadsheetSafe } from '../exports/index.js';
import type { SubscriberDocument } from './subscriber.repository.js';

export const SUBSCRIBER_CSV_COLUMNS = [
  'email',
  'state',
  'components',
  'createdAt',
  'confirmedAt',
  'channel',
  'webhookUrl',
] as const;

/**
 * A page's subscribers as CSV (RFC 4180): one row each, websites as ids separated by spaces (`all`:
 * the whole page), a webhook's URL in `webhookUrl` (its `email` empty).
 */
export function subscribersCsv(subscribers: readonly SubscriberDocument[]): string {
  return stringify(
    subscribers.map((s) =>
      [
        s.email,
        s.state,
        s.components?.join(' ') ?? 'all',
        s.createdAt.toISOString(),
        s.confirmedAt?.toISOString() ?? '',
        s.channel ?? 'email',
        s.webhookUrl ?? '',
      ].map(spreadsheetSafe),
    ),
    { header: true, columns: [...SUBSCRIBER_CSV_COLUMNS], record_delimiter: 'windows' },
  );
}
