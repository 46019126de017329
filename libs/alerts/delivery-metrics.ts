import { Counter, Histogram, type Registry } from 'prom-client';
import type { AttemptOutcome } from './delivery.service.js';

/** The notifier's delivery metrics, by channel type (never a channel or an organization). */
export function deliveryMetrics(registry: Registry): (outcome: AttemptOutcome) => void {
  const deliveries = new Counter({
    name: 'webmon_deliveries_total',
    help: 'Delivery attempts and settlements, by channel type and outcome (retrying: failed, another attempt owed)',
    labelNames: ['channel_type', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'webmon_delivery_duration_seconds',
    help: 'How long an attempt to reach a channel took',
    labelNames: ['channel_type'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return ({ channelType, outcome, durationMs }) => {
    deliveries.inc({ channel_type: channelType, outcome });
    if (durationMs !== null) duration.observe({ channel_type: channelType }, durationMs / 1000);
  };
}
