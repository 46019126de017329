export { channelsForEvent } from './channel-matching.js';
export { httpRequestFor, type OpenedChannel, type OutgoingRequest } from './connectors.js';
export { deliveryRoutes } from './deliveries.routes.js';
export { type DeliveryDocument, DeliveryRepository, deliveryIndexes } from './delivery.repository.js';
export { DeliveryRequests, DeliveryRunner, payloadOf } from './delivery.service.js';
export { type EventPayload, summarize } from './event-payload.js';
export { BlockedDestinationError, GuardedPoster } from './guarded-post.js';
export { NotificationQueue, RETRY_DELAYS_MS, startNotificationWorkers } from './notification.queue.js';
export { webhookHeaders, webhookSignature } from './signing.js';
