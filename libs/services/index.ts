export { createCheckPath } from './check-path.js';
export { openConnections } from './connections.js';
export { ALL_INDEXES } from './indexes.js';
export { monitorStates } from './monitoring.js';
export { createRecords, type Records } from './records.js';
export { createReports } from './reports.js';
