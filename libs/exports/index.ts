export {
  buildExport,
  type ExportDocument,
  type ExportSources,
  exportDocument,
  exportRoutes,
} from './exports.routes.js';
export { spreadsheetSafe, WEBSITE_CSV_COLUMNS, websitesCsv } from './websites-csv.js';
