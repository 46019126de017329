export { type CheckPorts, checkPorts } from './check-import.js';
export { IMPORT_FORMATS, type ImportFormat, type ImportJobDocument, ImportJobs } from './import-jobs.js';
export { importReportSchema } from './import-report.js';
export { parseSource } from './parse-source.js';
export { type SourceMonitor, toWebsite } from './source-monitor.js';
