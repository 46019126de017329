export { AlertGroups, alertGroupIndexes, groupedPayload } from './alert-groups.js';
export { channelsForEvent } from './channel-matching.js';
export { type Delivery, DeliveryRepository, deliveryIndexes } from './delivery.repository.js';
export { type AttemptOutcome, DeliveryRunner, type EventRouting } from './delivery.service.js';
export { DeliveryIds } from './delivery-ids.js';
export { deliveryMetrics } from './delivery-metrics.js';
export { DeliveryRequests } from './delivery-requests.js';
export {
  carriedEvent,
  NotificationQueue,
  RETRY_DELAYS_MS,
  startNotificationWorkers,
} from './notification.queue.js';
export { type OwedAttempt, OwedAttempts, owedAttemptIndexes } from './owed-attempts.js';
export { SweepPacing } from './sweep-pacing.js';
