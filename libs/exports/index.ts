export {
  buildExport,
  type ExportDocument,
  type ExportSources,
  exportDocument,
  exportRoutes,
} from './exports.routes.js';
export {
  createFieldsOf,
  type ExportedMonitor,
  exportedMonitor,
  sealedRecordsOf,
  toExportedMonitor,
} from './monitor-export.js';
export { spreadsheetSafe, WEBSITE_CSV_COLUMNS, websitesCsv } from './websites-csv.js';
