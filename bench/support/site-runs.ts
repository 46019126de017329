import type { Pool } from 'undici';
import type { SiteRunView } from '../../libs/site-health/index.js';
import { sendJson } from './api-client.js';

/**
 * A site-health monitor's runs (a crawl's, a Lighthouse check's) as the API shows them, kept busy:
 * asked to run again (POST /api/monitors/{id}/run) as soon as one ends. Each run's last view is
 * kept, and when each stage of its progress was first seen (GET …/runs/{runId} every poll).
 */
export class KeptBusy {
  readonly runs = new Map<string, SiteRunView>();
  /** [when first seen (ms), run id, its progress's stage] */
  readonly stages: Array<[number, string, string]> = [];
  current: string | null = null;

  constructor(
    readonly kind: 'crawl' | 'lighthouse',
    readonly monitorId: number,
    private readonly pool: Pool,
    private readonly token: string,
  ) {}

  /** Asks for a run: the one going on or waiting if any (the scheduled first run), else a new one. */
  async ask(): Promise<void> {
    const run = await sendJson<SiteRunView>(this.pool, {
      method: 'POST',
      path: `/api/monitors/${this.monitorId}/run`,
      token: this.token,
      body: {},
      expected: 202,
    });
    this.current = run.runId;
    this.runs.set(run.runId, run);
  }

  /** Reads the current run; when it ended and `again`, asks for the next. Answers its state. */
  async poll(again: boolean): Promise<SiteRunView['state'] | null> {
    if (!this.current) return null;
    const response = await this.pool.request({
      method: 'GET',
      path: `/api/monitors/${this.monitorId}/runs/${this.current}`,
      headers: { authorization: `Bearer ${this.token}` },
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`GET run: ${response.statusCode} ${text.slice(0, 300)}`);
    const run = JSON.parse(text) as SiteRunView;
    this.runs.set(run.runId, run);
    // A crawl's stage names its counts: its first words say the stage.
    const stage = run.progress?.stage.replace(/:.*/, '');
    if (stage && this.stages.findLast(([, id]) => id === run.runId)?.[2] !== stage)
      this.stages.push([Date.now(), run.runId, stage]);
    if ((run.state === 'done' || run.state === 'failed') && again) await this.ask();
    return run.state;
  }

  /** Its runs' [start, end] (an unended one: until `now`). */
  spans(now: number): Array<[number, number]> {
    return [...this.runs.values()].flatMap((run) =>
      run.startedAt
        ? [[Date.parse(run.startedAt), run.finishedAt ? Date.parse(run.finishedAt) : now] as [number, number]]
        : [],
    );
  }
}

/** Shares of [start, end) each monitor, and all at once, had a run going on (in 100 ms steps). */
export function busyShares(
  monitors: KeptBusy[],
  window: { start: number; end: number },
): { each: number[]; all: number } {
  const spans = monitors.map((m) => m.spans(window.end));
  const each = monitors.map(() => 0);
  let all = 0;
  let steps = 0;
  for (let t = window.start; t < window.end; t += 100, steps++) {
    const busy = spans.map((list) => list.some(([from, to]) => from <= t && t < to));
    busy.forEach((b, i) => {
      if (b) each[i] = (each[i] ?? 0) + 1;
    });
    if (busy.every(Boolean)) all++;
  }
  return { each: each.map((n) => n / steps), all: all / steps };
}

function summaryOf(run: SiteRunView): string {
  const s = run.summary ?? {};
  if (run.error) return `error: ${run.error}`;
  if ('pagesCrawled' in s)
    return `${s.outcome}: ${s.pagesCrawled} pages, ${s.linksChecked} links, ${s.requests} requests, ${s.brokenLinks} broken`;
  const runs = (s.runs ?? []) as Array<{
    preset: string;
    outcome: string;
    totalMs: number;
    scores: { performance: number | null } | null;
  }>;
  return runs
    .map(
      (r) =>
        `${r.preset} ${r.outcome} ${(r.totalMs / 1000).toFixed(1)} s perf ${r.scores?.performance ?? '–'}`,
    )
    .join(', ');
}

/** Every run with its wall time as the API reports it, and its stages' starts, from `origin` (s). */
export function printRuns(monitors: KeptBusy[], origin: number): void {
  const at = (ms: number) => ((ms - origin) / 1000).toFixed(1);
  console.log(
    `   ${'run'.padEnd(22)} ${'asked'.padEnd(10)} ${'start s'.padStart(8)} ${'wall s'.padStart(7)} ${'state'.padEnd(7)} ${'status'.padEnd(8)} what it did`,
  );
  for (const monitor of monitors)
    for (const run of monitor.runs.values()) {
      const started = run.startedAt ? Date.parse(run.startedAt) : Number.NaN;
      const wall = run.finishedAt ? Date.parse(run.finishedAt) - started : Number.NaN;
      console.log(
        `   ${`${monitor.kind} ${run.runId.slice(0, 8)}`.padEnd(22)} ${(run.requested ? 'on request' : 'scheduled').padEnd(10)} ${at(started).padStart(8)} ${(wall / 1000).toFixed(1).padStart(7)} ${run.state.padEnd(7)} ${String(run.status ?? '–').padEnd(8)} ${summaryOf(run)}`,
      );
      const stages = monitor.stages.filter(([, id]) => id === run.runId);
      if (stages.length)
        console.log(
          `   ${''.padEnd(22)} stages first seen at ${stages.map(([when, , stage]) => `${at(when)} s ${stage}`).join('; ')}`,
        );
    }
  console.log(
    '   start s: from the window’s start; wall s: finishedAt − startedAt of GET /api/monitors/{id}/runs/{runId}; stages: its progress polled every ~0.5 s (written at most once a second)',
  );
}
