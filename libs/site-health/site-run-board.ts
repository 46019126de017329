import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Redis } from '../redis/index.js';

/** How long a run's progress and outcome can be read after it ends (and a request may wait). */
const KEPT_SECONDS = 86_400;
/** Progress is written at most this often (a crawl reports every page). */
const PROGRESS_EVERY_MS = 1_000;

export const SITE_RUN_STATES = ['queued', 'running', 'done', 'failed'] as const;

/** A site-health run as GET /api/monitors/{id}/runs/{runId} shows it. */
export const siteRunViewSchema = z
  .object({
    runId: z.string(),
    monitorId: z.number().int(),
    state: z
      .enum(SITE_RUN_STATES)
      .describe(
        'queued: waiting for a worker of its region; running; done: its findings and scores are kept (status and summary here); failed: it could not run (see error) and is tried again later',
      ),
    requested: z.boolean().describe('Run on request (POST …/run), not on its schedule'),
    requestedAt: z.iso.datetime().nullable(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
    progress: z
      .object({
        stage: z.string().describe('What it is doing, in words'),
        done: z.number().int(),
        total: z.number().int().nullable().describe('What done counts towards, where known'),
      })
      .nullable(),
    status: z.enum(['up', 'degraded', 'down']).nullable().describe('Its verdict, once done'),
    cause: z.string().nullable(),
    summary: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        "Its result's evidence once done: pages crawled, findings counted, bounds hit; Lighthouse's scores",
      ),
    error: z.string().nullable().describe('Why it could not run (failed)'),
  })
  .meta({ id: 'SiteRun' });
export type SiteRunView = z.infer<typeof siteRunViewSchema>;

/** A run that has not ended: nothing known of its outcome yet. */
const newRun = (
  runId: string,
  monitorId: number,
  now: Pick<SiteRunView, 'state' | 'requested' | 'requestedAt'> & { startedAt?: string },
): SiteRunView => ({
  runId,
  monitorId,
  startedAt: null,
  finishedAt: null,
  progress: null,
  status: null,
  cause: null,
  summary: null,
  error: null,
  ...now,
});

/** A run's id: 24 hexadecimal digits, as results' runs are named. */
const newRunId = () => randomBytes(12).toString('hex');

/**
 * Site-health runs' progress in Redis, for every process: the API asks for a run (queued under a
 * new id, one at a time per monitor), the worker that takes the monitor's turn claims the request
 * and writes progress and outcome under the same id. Each key is one monitor's or one run's
 * (cluster-safe), and expires a day after the run.
 */
export class SiteRunBoard {
  private readonly lastWrite = new Map<string, number>();
  /** A progress write in flight per run: the outcome waits for it, or it could land after. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private requestKey = (monitorId: number) => `${this.prefix}:site-run:requested:${monitorId}`;
  private currentKey = (monitorId: number) => `${this.prefix}:site-run:current:${monitorId}`;
  private runKey = (runId: string) => `${this.prefix}:site-run:${runId}`;

  /**
   * Asks for a run of the monitor now: a new id, or the id of the run already asked for and not
   * yet taken, or of the one going on (`created` false): asking twice starts one run.
   */
  async request(monitorId: number, at: Date): Promise<{ runId: string; created: boolean }> {
    const current = await this.redis.get(this.currentKey(monitorId));
    if (current) return { runId: current, created: false };
    const runId = newRunId();
    const set = await this.redis.set(this.requestKey(monitorId), runId, 'EX', KEPT_SECONDS, 'NX');
    if (set !== 'OK') {
      const waiting = await this.redis.get(this.requestKey(monitorId));
      if (waiting) return { runId: waiting, created: false };
    }
    await this.write(
      runId,
      newRun(runId, monitorId, { state: 'queued', requested: true, requestedAt: at.toISOString() }),
    );
    return { runId, created: true };
  }

  /** The worker takes the monitor's turn: the id asked for (taken once), or a new one for a scheduled run. */
  async start(monitorId: number, at: Date): Promise<string> {
    const requested = await this.redis.getdel(this.requestKey(monitorId));
    const runId = requested ?? newRunId();
    const before = requested ? await this.read(runId) : null;
    await this.redis.set(this.currentKey(monitorId), runId, 'EX', KEPT_SECONDS);
    await this.write(
      runId,
      newRun(runId, monitorId, {
        state: 'running',
        requested: requested !== null,
        requestedAt: before?.requestedAt ?? null,
        startedAt: at.toISOString(),
      }),
    );
    return runId;
  }

  /** How far it has come (at most once a second; the last word is the outcome's). */
  progress(runId: string, progress: NonNullable<SiteRunView['progress']>): void {
    const now = Date.now();
    if (now - (this.lastWrite.get(runId) ?? 0) < PROGRESS_EVERY_MS) return;
    this.lastWrite.set(runId, now);
    const write = (this.writing.get(runId) ?? Promise.resolve())
      .then(() => this.update(runId, { progress }))
      .catch(() => undefined);
    this.writing.set(runId, write);
  }

  /** Its outcome: done with its verdict and summary, or failed with why. */
  async finish(
    monitorId: number,
    runId: string,
    outcome: Pick<SiteRunView, 'status' | 'cause' | 'summary' | 'error'>,
    at: Date,
  ): Promise<void> {
    this.lastWrite.delete(runId);
    await this.writing.get(runId);
    this.writing.delete(runId);
    await this.update(runId, {
      ...outcome,
      state: outcome.error ? 'failed' : 'done',
      finishedAt: at.toISOString(),
    });
    // Only its own mark: a later run's is left.
    if ((await this.redis.get(this.currentKey(monitorId))) === runId)
      await this.redis.del(this.currentKey(monitorId));
  }

  private dayKey = (kind: string, websiteId: number, at: Date) =>
    `${this.prefix}:site-run:day:${kind}:${websiteId}:${at.toISOString().slice(0, 10)}`;

  /** A run of `kind` for the website counted on its day (UTC), scheduled or on request: how many now. */
  async count(kind: string, websiteId: number, runs: number, at: Date): Promise<number> {
    const key = this.dayKey(kind, websiteId, at);
    const counted = await this.redis.incrby(key, runs);
    await this.redis.expire(key, 2 * KEPT_SECONDS);
    return counted;
  }

  /** Runs of `kind` the website had on that day (UTC). */
  async countedOn(kind: string, websiteId: number, at: Date): Promise<number> {
    return Number((await this.redis.get(this.dayKey(kind, websiteId, at))) ?? 0);
  }

  /** A run of the monitor (another monitor's id: null). */
  async view(monitorId: number, runId: string): Promise<SiteRunView | null> {
    const run = await this.read(runId);
    return run?.monitorId === monitorId ? run : null;
  }

  /** The run going on or asked for, if any. */
  async pending(monitorId: number): Promise<SiteRunView | null> {
    const runId =
      (await this.redis.get(this.currentKey(monitorId))) ??
      (await this.redis.get(this.requestKey(monitorId)));
    return runId ? this.view(monitorId, runId) : null;
  }

  private async read(runId: string): Promise<SiteRunView | null> {
    const text = await this.redis.get(this.runKey(runId));
    if (!text) return null;
    const parsed = siteRunViewSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }

  private async write(runId: string, view: SiteRunView): Promise<void> {
    await this.redis.set(this.runKey(runId), JSON.stringify(view), 'EX', KEPT_SECONDS);
  }

  private async update(runId: string, change: Partial<SiteRunView>): Promise<void> {
    const current = await this.read(runId);
    if (current) await this.write(runId, { ...current, ...change });
  }
}
