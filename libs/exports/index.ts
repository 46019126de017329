export {
  buildExport,
  type ExportDocument,
  type ExportSources,
  exportDocument,
  exportText,
} from './export-document.js';
export {
  createFieldsOf,
  type ExportedMonitor,
  exportedMonitor,
  sealedRecordsOf,
  toExportedMonitor,
} from './monitor-export.js';
export { spreadsheetSafe, WEBSITE_CSV_COLUMNS, websitesCsv } from './websites-csv.js';
