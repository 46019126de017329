export { type CheckPorts, checkPorts } from './check-import.js';
export { IMPORT_FORMATS, type ImportFormat, ImportJobs } from './import-jobs.js';
export { IMPORT_MAX_MONITORS, importRoutes } from './imports.routes.js';
export { parseSource } from './parse-source.js';
export { type SourceMonitor, toWebsite } from './source-monitor.js';
