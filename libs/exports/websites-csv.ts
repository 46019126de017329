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

/** One row per website (RFC 4180, a header row, UTF-8), in the columns our CSV import reads. */
export function websitesCsv(
  websites: readonly WebsiteDocument[],
  customerName: (id: number) => string,
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
  return stringify([[...WEBSITE_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
