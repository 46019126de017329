import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { errorMessage, invalidInput } from '../errors/index.js';
import { backgroundTurns, mapInTurns } from '../runtime/index.js';

/**
 * Characters of a file handed to the parser at a time, the event loop's other callbacks run
 * between them: 1,000 rows in one go held it 40-130 ms on a shared machine (and a file may be 16 MiB).
 */
const PARSE_SLICE_CHARS = 16 * 1024;

/** The file in slices, a turn of the event loop between them (never inside a surrogate pair). */
async function* slicesOf(content: string): AsyncGenerator<string> {
  for (let start = 0; start < content.length; ) {
    let end = Math.min(content.length, start + PARSE_SLICE_CHARS);
    const last = content.charCodeAt(end - 1);
    // Each slice is encoded as UTF-8 on its own: a pair cut in two would become two U+FFFD.
    if (end < content.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield content.slice(start, end);
    start = end;
    await backgroundTurns.pause();
  }
}

/**
 * The rows of a CSV file (RFC 4180, a header row, UTF-8 with or without a BOM) as records keyed by
 * the header's names, and the names themselves; a malformed file answers 400 naming `content`
 * and the line. Parsed a slice at a time, so other requests are served meanwhile.
 */
export async function csvRecords(
  content: string,
): Promise<{ columns: string[]; rows: Array<Record<string, string>> }> {
  const rows: string[][] = [];
  try {
    await pipeline(
      slicesOf(content),
      parse({ bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }),
      async (records: AsyncIterable<string[]>) => {
        for await (const record of records) rows.push(record);
      },
    );
  } catch (error) {
    const message = errorMessage(error);
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
    rows: await mapInTurns(body, (cells) =>
      Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? ''])),
    ),
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
