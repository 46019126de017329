export { PdfRenderer } from './pdf-renderer.js';
export { buildReport, type ReportSources } from './report-builder.js';
export { REPORT_CSV_COLUMNS, reportCsv } from './report-csv.js';
export { computeReport, REPORT_FORMULAS } from './report-figures.js';
export { type ReportBranding, reportHtml } from './report-html.js';
export {
  REPORT_MAILINGS,
  type ReportMailer,
  type ReportMailingDocument,
  ReportMailings,
  reportMailingIndexes,
} from './report-mailings.js';
export { MAX_REPORT_DAYS, PeriodProblem, reportPeriod } from './report-period.js';
export { dueReport } from './report-schedule.js';
export { repositoryReportSources } from './report-sources.js';
export { PAPER_SIZES } from './report-style.js';
export { type ClientReport, clientReportView } from './report-view.js';
