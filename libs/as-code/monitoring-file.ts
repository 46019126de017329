import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { envReference } from './env-reference.js';
import { WHOLE_FIELDS, WHOLE_MEMBER_FIELDS } from './field-diff.js';
import { literalCredentials } from './monitor-entries.js';
import { monitoringFile } from './monitoring-file.schema.js';
import { PlanProblems, type WrittenFile } from './plan-steps.js';

/** A file this large is not a monitoring file (10,000 websites take about 3 MB of YAML). */
export const MONITORING_FILE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The monitoring file as written (YAML or JSON), validated against its schema, each
 * `{env: NAME}` replaced by the variable's value. Every problem is named by its path.
 */
export function readMonitoringFile(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): WrittenFile {
  if (Buffer.byteLength(text, 'utf8') > MONITORING_FILE_MAX_BYTES)
    throw new PlanProblems([{ path: '', message: `the file is over ${MONITORING_FILE_MAX_BYTES} bytes` }]);
  // YAML 1.2 reads JSON too; no custom tags, no aliases expanded past a bound.
  const document = parseDocument(text, { uniqueKeys: true });
  if (document.errors.length > 0)
    throw new PlanProblems(
      document.errors.map((error) => ({
        path: `line ${error.linePos?.[0]?.line ?? '?'}`,
        message: error.message.split('\n')[0] ?? error.message,
      })),
    );
  return writtenFile(document.toJS({ maxAliasCount: 100 }), env);
}

/**
 * A file's content (read from YAML, or made from an export) as the planner compares it: each
 * `{env: NAME}` replaced by the variable's value, then every value as the API's schemas make it
 * (names trimmed, status codes as text, times in UTC, a recurrence's defaults), keeping only the
 * fields written (the schemas' defaults for the rest would overwrite what the file leaves alone).
 */
export function writtenFile(raw: unknown, env: Readonly<Record<string, string | undefined>>): WrittenFile {
  const shape = monitoringFile.safeParse(raw);
  if (!shape.success) throw problemsOf(shape.error);
  // Told apart before the variables are read: afterwards a credential from one is text too.
  const literal = literalCredentials(shape.data);
  if (literal.length > 0) throw new PlanProblems(literal);
  const missing: Array<{ path: string; message: string }> = [];
  const withValues = (value: unknown, path: string[]): unknown => {
    if (envReference.safeParse(value).success) {
      const name = (value as { env: string }).env;
      const found = env[name];
      if (found === undefined || found === '')
        missing.push({ path: path.join('.'), message: `the environment variable ${name} is not set` });
      return found ?? '';
    }
    if (Array.isArray(value)) return value.map((item, i) => withValues(item, [...path, String(i)]));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, withValues(item, [...path, key])]),
      );
    return value;
  };
  const resolved = withValues(raw, []);
  if (missing.length > 0) throw new PlanProblems(missing);
  const parsed = monitoringFile.safeParse(resolved);
  if (!parsed.success) throw problemsOf(parsed.error);
  return onlyWritten(parsed.data, resolved) as WrittenFile;
}

function problemsOf(error: z.ZodError): PlanProblems {
  return new PlanProblems(
    error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * `parsed` with only the keys `raw` has (a field whole where PATCH replaces it whole, and each field
 * of a list's members where PATCH replaces those: `fieldsWhole`), instants as ISO text.
 */
function onlyWritten(parsed: unknown, raw: unknown, whole = false, fieldsWhole = false): unknown {
  if (parsed instanceof Date) return parsed.toISOString();
  if (Array.isArray(parsed))
    return parsed.map((item, i) =>
      onlyWritten(item, Array.isArray(raw) ? raw[i] : undefined, whole, fieldsWhole),
    );
  if (!isPlainObject(parsed)) return parsed;
  const keys = whole || !isPlainObject(raw) ? Object.keys(parsed) : Object.keys(raw);
  return Object.fromEntries(
    keys
      .filter((key) => parsed[key] !== undefined)
      .map((key) => [
        key,
        onlyWritten(
          parsed[key],
          isPlainObject(raw) ? raw[key] : undefined,
          whole || fieldsWhole || WHOLE_FIELDS.has(key),
          WHOLE_MEMBER_FIELDS.has(key),
        ),
      ]),
  );
}
