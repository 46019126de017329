export {
  type CustomerDocument,
  CustomerRepository,
  type CustomerWithPackage,
  customerIndexes,
  loadCustomerWithPackage,
} from './customer.repository.js';
export {
  automationCreateCustomerBody,
  automationCreatedCustomer,
  createCustomerBody,
  customerView,
  listCustomersQuery,
  patchCustomerBody,
  REPORT_WEEKDAYS,
  type ReportSchedule,
  reportScheduleSchema,
} from './customer.schema.js';
export {
  type CustomerChannelsPort,
  CustomerService,
  type CustomerWebsitesPort,
  customerLock,
} from './customer.service.js';
export { CustomerCache, customerRevisions } from './customer-cache.js';
export { CustomerCancellations } from './customer-cancellations.js';
export {
  type CancellationJobData,
  CUSTOMER_LIFECYCLE_QUEUE,
  CustomerLifecycleQueue,
  startCustomerLifecycleWorker,
} from './customer-lifecycle.queue.js';
export { CUSTOMER_STATUSES, type CustomerStatus, endOfUtcMonth, isMonitored } from './customer-status.js';
export { toCustomerView } from './customer-view.js';
