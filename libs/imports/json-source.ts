import type { z } from 'zod';
import { invalidInput } from '../errors/index.js';

/**
 * A JSON file read as `schema` says a tool's export looks; otherwise 400 naming `content`: not
 * JSON, or not that export (`expected` says what it should hold, and the first mismatch where).
 */
export function jsonSource<S extends z.ZodType>(
  content: string,
  schema: S,
  what: string,
  expected: string,
): z.output<S> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw invalidInput('The file is not JSON', [{ path: 'content', message: (error as Error).message }]);
  }
  const read = schema.safeParse(parsed);
  if (read.success) return read.data;
  const [issue] = read.error.issues;
  throw invalidInput(`Not ${what}`, [
    {
      path: 'content',
      message: `expected ${expected}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    },
  ]);
}
