import { parseDocument } from 'yaml';
import { envReference, monitoringFile } from './monitoring-file.schema.js';
import { PlanProblems, type WrittenFile } from './plan.js';

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
  const raw: unknown = document.toJS({ maxAliasCount: 100 });
  const checked = monitoringFile.safeParse(raw);
  if (!checked.success)
    throw new PlanProblems(
      checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
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
  const file = withValues(raw, []) as WrittenFile;
  if (missing.length > 0) throw new PlanProblems(missing);
  return file;
}
