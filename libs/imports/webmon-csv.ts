import { invalidInput } from '../errors/index.js';
import { mapInTurns } from '../runtime/index.js';
import { cell, csvRecords, hasColumn } from './csv-source.js';
import type { ImportedMethod, SourceMonitor } from './source-monitor.js';

const METHODS = new Set<ImportedMethod>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A whole number of seconds, or undefined for an empty cell; anything else is the row's problem. */
function seconds(value: string, column: string, row: number): number | undefined {
  if (value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw invalidInput(`Row ${row}: ${column} must be a number of seconds`, [
      { path: 'content', message: `row ${row}: ${column} "${value}" is not a number of seconds` },
    ]);
  return number;
}

/**
 * Our CSV: a header row naming `name`, `url` and any of `customer`, `intervalSeconds`,
 * `timeoutSeconds`, `method`, `keyword`, `keywordMode` (present | absent), `expectedStatusCodes`
 * (`200-299;301`), `paused` (true | false). Column names ignore case and punctuation; other
 * columns are ignored.
 */
export async function webmonCsvMonitors(
  content: string,
  customerColumn: string | null,
): Promise<SourceMonitor[]> {
  const { columns, rows } = await csvRecords(content);
  const missing = ['name', 'url'].filter((name) => !hasColumn(columns, name));
  if (customerColumn && !hasColumn(columns, customerColumn)) missing.push(customerColumn);
  if (missing.length > 0)
    throw invalidInput('The CSV lacks columns', [
      { path: 'content', message: `no column named ${missing.join(', ')}` },
    ]);
  return mapInTurns(rows, (row, i) => {
    const line = i + 2;
    const method = cell(row, 'method').toUpperCase() || 'GET';
    if (!METHODS.has(method as ImportedMethod))
      throw invalidInput(`Row ${line}: unknown method`, [
        {
          path: 'content',
          message: `row ${line}: method "${method}" is not one of ${[...METHODS].join(', ')}`,
        },
      ]);
    const keyword = cell(row, 'keyword');
    const codes = cell(row, 'expectedStatusCodes', 'expectedStatus');
    const interval = seconds(cell(row, 'intervalSeconds', 'interval'), 'intervalSeconds', line);
    const timeout = seconds(cell(row, 'timeoutSeconds', 'timeout'), 'timeoutSeconds', line);
    return {
      source: `row ${line}`,
      name: cell(row, 'name'),
      kind: { type: 'http' },
      url: cell(row, 'url'),
      method: method as ImportedMethod,
      ...(interval === undefined ? {} : { intervalSeconds: interval }),
      ...(timeout === undefined ? {} : { timeoutSeconds: timeout }),
      ...(keyword
        ? {
            keyword: {
              value: keyword,
              mode: cell(row, 'keywordMode').toLowerCase() === 'absent' ? 'absent' : 'present',
              caseSensitive: false,
            },
          }
        : {}),
      ...(codes
        ? {
            acceptedStatusCodes: codes
              .split(/[;|]/)
              .map((code) => code.trim())
              .filter(Boolean),
          }
        : {}),
      ...(cell(row, 'paused').toLowerCase() === 'true' ? { paused: true } : {}),
      ...(customerColumn ? { customer: cell(row, customerColumn) } : {}),
    } satisfies SourceMonitor;
  });
}
