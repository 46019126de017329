import { OTHER_MONITOR_KINDS, type OtherMonitorKind } from '../events/index.js';
import type { Redis } from '../redis/index.js';

/** A website's other monitor as lists of many websites show it (dashboard, status pages, badges). */
export interface MonitorSummary {
  kind: OtherMonitorKind;
  id: number;
  name: string;
  /** Its confirmed health (the website's own status says when it is paused or in maintenance). */
  health: 'unknown' | 'up' | 'degraded' | 'down';
}

const KINDS = new Set<string>(OTHER_MONITOR_KINDS);
const HEALTHS = new Set(['unknown', 'up', 'degraded', 'down']);

function parsed(field: string, text: string): MonitorSummary | null {
  const [kind, id] = field.split(':');
  try {
    const value = JSON.parse(text) as { name?: unknown; health?: unknown };
    if (!KINDS.has(kind ?? '') || !/^\d+$/.test(id ?? '') || typeof value.name !== 'string') return null;
    if (typeof value.health !== 'string' || !HEALTHS.has(value.health)) return null;
    return {
      kind: kind as MonitorSummary['kind'],
      id: Number(id),
      name: value.name,
      health: value.health as MonitorSummary['health'],
    };
  } catch {
    return null;
  }
}

/**
 * Each website's heartbeats, DNS and port checks in one Redis hash (`<prefix>:monitor-summary:<website>`,
 * field `<kind>:<id>` → name and health), so a page of many websites reads them in one pipelined
 * round trip instead of a MongoDB list and a state per website. Written with the monitor (the API)
 * and after each decision (the workers); refilled by the workers' reconciliation.
 */
export class MonitorSummaries {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(websiteId: number): string {
    return `${this.prefix}:monitor-summary:${websiteId}`;
  }

  async write(websiteId: number, summary: MonitorSummary): Promise<void> {
    await this.redis.hset(
      this.key(websiteId),
      `${summary.kind}:${summary.id}`,
      JSON.stringify({ name: summary.name, health: summary.health }),
    );
  }

  async remove(websiteId: number, monitor: Pick<MonitorSummary, 'kind' | 'id'>): Promise<void> {
    await this.redis.hdel(this.key(websiteId), `${monitor.kind}:${monitor.id}`);
  }

  /** The summaries of these websites (websites without monitors are absent), by kind and id. */
  async of(websiteIds: readonly number[]): Promise<Map<number, MonitorSummary[]>> {
    const found = new Map<number, MonitorSummary[]>();
    if (websiteIds.length === 0) return found;
    let answers: Array<[Error | null, unknown]>;
    if (this.redis.isCluster)
      // A cluster's pipeline must stay on one node: a read each, which the client pipelines per node.
      answers = await Promise.all(
        websiteIds.map((id) =>
          this.redis.hgetall(this.key(id)).then(
            (fields): [null, unknown] => [null, fields],
            (error: Error): [Error, unknown] => [error, null],
          ),
        ),
      );
    else {
      const pipeline = this.redis.pipeline();
      for (const id of websiteIds) pipeline.hgetall(this.key(id));
      answers = ((await pipeline.exec()) ?? []) as Array<[Error | null, unknown]>;
    }
    websiteIds.forEach((websiteId, i) => {
      const [error, fields] = answers[i] ?? [null, {}];
      if (error || !fields) return;
      const summaries = Object.entries(fields as Record<string, string>)
        .map(([field, text]) => parsed(field, text))
        .filter((summary): summary is MonitorSummary => summary !== null)
        .sort((a, b) => a.id - b.id);
      if (summaries.length > 0) found.set(websiteId, summaries);
    });
    return found;
  }
}
