import { stringify } from 'csv-stringify/sync';
import type { WebsiteDocument } from '../websites/index.js';

/** The columns of our CSV: what `POST /api/imports {format: 'csv'}` reads back. */
export const WEBSITE_CSV_COLUMNS = [
  'customer',
  'name',
  'url',
  'intervalSeconds',
  'timeoutSeconds',
  'method',
  'keyword',
  'keywordMode',
  'expectedStatusCodes',
  'paused',
] as const;

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, and tab or carriage return
 * first) starts with an apostrophe, as OWASP advises; our CSV import takes it off again.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * One row per website (RFC 4180, UTF-8), in the columns our CSV import reads, after a header row
 * unless `header` is false (a page after the first of an export written as it is read).
 */
export function websitesCsv(
  websites: readonly WebsiteDocument[],
  customerName: (id: number) => string,
  { header = true }: { header?: boolean } = {},
): string {
  const rows = websites.map((website) => {
    const config = website.checkConfig;
    const keyword = config.checkKeywordEnabled && config.keyword ? config.keyword : '';
    return [
      customerName(website.customerId),
      website.name,
      website.url,
      String(website.checkInterval),
      String(website.timeoutSeconds),
      website.httpMethod,
      keyword,
      keyword ? config.keywordMode : '',
      config.expectedStatusCodes.join(';'),
      website.paused ? 'true' : 'false',
    ].map(spreadsheetSafe);
  });
  return stringify(header ? [[...WEBSITE_CSV_COLUMNS], ...rows] : rows, { record_delimiter: 'windows' });
}
