export { type CheckPath, createCheckPath } from './check-path.js';
export { openConnections, type ProcessConnections } from './connections.js';
export { ALL_INDEXES } from './indexes.js';
export { monitorStates } from './monitoring.js';
export { createRecords, type Records, WrittenCopies } from './records.js';
export { createReports, type Reports } from './reports.js';
