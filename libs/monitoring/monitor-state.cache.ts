import { existMany, getMany, type Redis, setManyIfAbsent, slotTag } from '../redis/index.js';
import { type MonitorStateDocument, monitorKey, monitorStateSchema } from './monitor-state.js';

/** A state nobody saved for this long (its website is gone) leaves Redis by itself. */
const HOT_COPY_TTL_SECONDS = 7 * 86_400;

/** A state as its hot copy is written to Redis (`parseHotCopy` reads it back). */
export function hotCopyOf(state: MonitorStateDocument): { value: string; ttlSeconds: number } {
  return { value: JSON.stringify(state), ttlSeconds: HOT_COPY_TTL_SECONDS };
}

/**
 * What must never be lost: the health told to subscribers, incidents, maintenance. Not the cause
 * of the latest down result: it may change with every check while down, and the next down result
 * sets it again.
 */
export function durableFingerprint(state: MonitorStateDocument): string {
  return JSON.stringify([
    state.health,
    state.notifiedHealth,
    state.since,
    state.reported,
    state.openIncidentId,
    state.acknowledgedIncidentId,
    state.maintenance,
    state.maintenanceActive,
    state.maintenanceBoundaryAt,
    state.expiry,
    state.remindedAt,
  ]);
}

/**
 * Whether a save must reach MongoDB: when something durable changed since the last write there.
 * Confirmation counters and the last result time are not worth a write per check: a lost Redis
 * restarts a confirmation streak (one more re-check) and the next result sets them again.
 */
export function needsDurableWrite(state: MonitorStateDocument): boolean {
  return state.persisted === null || state.persisted.fingerprint !== durableFingerprint(state);
}

/** A hot copy as stored (JSON turned its dates into strings), back to a state. */
export function parseHotCopy(text: string): MonitorStateDocument {
  return monitorStateSchema.parse(JSON.parse(text));
}

/**
 * The hot copy of every monitor state in Redis: read and written on every check (under the
 * website's monitor lock), while MongoDB gets the state only when something durable changed.
 */
export class MonitorStateCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /**
   * Where a monitor's hot copy lives (`monitor`: a website id, its HTTP check; else `monitorKey`'s
   * answer): in its monitor lock's hash slot on a cluster.
   */
  key(monitor: number | string): string {
    return `${this.prefix}:monitor-state:${slotTag(this.redis, monitor)}`;
  }

  /** The `RedisMutex` resource of the monitor's lock (see `key`). */
  lockResource(monitor: number | string): string {
    return `monitor:${slotTag(this.redis, monitor)}`;
  }

  async get(monitor: number | string): Promise<MonitorStateDocument | null> {
    const text = await this.redis.get(this.key(monitor));
    return text === null ? null : parseHotCopy(text);
  }

  /** The monitor is gone: its hot copy too. */
  async forget(monitor: number | string): Promise<void> {
    await this.redis.del(this.key(monitor));
  }

  /** The hot copies of these websites that Redis holds (a thousand per round trip). */
  async getMany(websiteIds: readonly number[]): Promise<Map<number, MonitorStateDocument>> {
    const found = new Map<number, MonitorStateDocument>();
    for (let start = 0; start < websiteIds.length; start += 1000) {
      const chunk = websiteIds.slice(start, start + 1000);
      const texts = await getMany(
        this.redis,
        chunk.map((id) => this.key(id)),
      );
      chunk.forEach((id, i) => {
        const text = texts[i];
        if (text) found.set(id, parseHotCopy(text));
      });
    }
    return found;
  }

  /** Of these websites, those without a hot copy (a thousand per round trip). */
  async missing(websiteIds: readonly number[]): Promise<number[]> {
    const missing: number[] = [];
    for (let start = 0; start < websiteIds.length; start += 1000) {
      const chunk = websiteIds.slice(start, start + 1000);
      const exist = await existMany(
        this.redis,
        chunk.map((id) => this.key(id)),
      );
      chunk.forEach((id, i) => {
        if (!exist[i]) missing.push(id);
      });
    }
    return missing;
  }

  /** Sets hot copies where there is none yet (a save racing with this wins). */
  async setIfAbsent(states: readonly MonitorStateDocument[]): Promise<void> {
    for (let start = 0; start < states.length; start += 1000) {
      const entries = states
        .slice(start, start + 1000)
        .map(
          (state) => [this.key(monitorKey(state.websiteId, state.monitor)), JSON.stringify(state)] as const,
        );
      await setManyIfAbsent(this.redis, entries, HOT_COPY_TTL_SECONDS);
    }
  }
}
