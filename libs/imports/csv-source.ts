import { parse } from 'csv-parse/sync';
import { invalidInput } from '../errors/index.js';

/**
 * The rows of a CSV file (RFC 4180, a header row, UTF-8 with or without a BOM) as records keyed by
 * the header's names, and the names themselves; a malformed file answers 400 naming `content`
 * and the line.
 */
export function csvRecords(content: string): { columns: string[]; rows: Array<Record<string, string>> } {
  let rows: string[][];
  try {
    rows = parse(content, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalidInput('The CSV cannot be read', [{ path: 'content', message }]);
  }
  const [header, ...body] = rows;
  if (!header || header.length === 0)
    throw invalidInput('The CSV has no header row', [
      { path: 'content', message: 'the first line must name the columns' },
    ]);
  const columns = header.map((name) => name.trim());
  return {
    columns,
    rows: body.map((cells) => Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? '']))),
  };
}

/**
 * The value of the first column named like one of `names` (case and spacing ignored), without the
 * apostrophe a spreadsheet-safe export puts before a cell starting with `=`, `+`, `-` or `@`.
 */
export function cell(row: Record<string, string>, ...names: string[]): string {
  const wanted = new Set(names.map(simplified));
  for (const [column, value] of Object.entries(row))
    if (wanted.has(simplified(column))) return value.trim().replace(/^'(?=[=+\-@\t\r])/, '');
  return '';
}

const simplified = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether the header has a column named like `name`. */
export function hasColumn(columns: readonly string[], name: string): boolean {
  return columns.some((column) => simplified(column) === simplified(name));
}
