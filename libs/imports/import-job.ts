import { type DomainError, tooMany } from '../errors/index.js';
import type { ImportReport } from './import-report.js';

/* An import job as stored (its format, progress and report), and the 429 answered while one runs. */

export const IMPORT_FORMATS = [
  'webmon-json',
  'csv',
  'uptimerobot-csv',
  'uptimerobot-json',
  'uptime-kuma',
] as const;
/** The formats of other tools' monitors (or our CSV): each monitor becomes a website. */
export type MonitorFormat = Exclude<ImportFormat, 'webmon-json'>;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportJobDocument {
  id: number;
  organizationId: number;
  format: ImportFormat;
  dryRun: boolean;
  status: 'running' | 'succeeded' | 'failed';
  progress: { done: number; total: number };
  report: ImportReport;
  /** Why it failed (it stopped; what it wrote stays, and a new run skips it). */
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** The 429 for a request while `job` runs: one import runs at a time per organization. */
export function runningRefusal(job: ImportJobDocument): DomainError {
  return tooMany(
    `Import ${job.id} is running for this organization: wait for it (GET /api/imports/${job.id})`,
    'imports-per-organization',
    importLeftSeconds(job, Date.now()),
  );
}

/** Seconds a running import may still take, at the pace it went so far (1 to 600). */
function importLeftSeconds(job: ImportJobDocument, now: number): number {
  const elapsed = Math.max(1, now - job.createdAt.getTime());
  const { done, total } = job.progress;
  const left = done > 0 && total > done ? (elapsed * (total - done)) / done : elapsed;
  return Math.min(600, Math.max(1, Math.ceil(left / 1000)));
}
