import { tooMany } from '../errors/index.js';
import { ConcurrencyLimitFullError, RoundRobinQueue } from '../runtime/index.js';

/** A slot of a share, held while the operation runs; `release` may be called more than once. */
export interface ShareSlot {
  release(): void;
}

export interface OrganizationShareOptions {
  /** What is shared, plural, as refusals name it (`exports`): the reason is `<name>-per-organization`. */
  name: string;
  /** Operations one organization may have at once (running and waiting); past it `enter` answers 429. */
  perOrganization: number;
  /**
   * Operations run at once across organizations; the others wait, served in turn. Past 1, one
   * organization runs at most `capacity` − 1 of them, so another's starts at once. @defaultValue unbounded
   */
  capacity?: number;
  /** Operations that may wait for the capacity; past it `enter` throws `ConcurrencyLimitFullError` (503). @defaultValue unbounded */
  maxWaiting?: number;
  /** What a slot is of, in a 503 (`the report printer`). @defaultValue name */
  resource?: string;
  /** How long a slot is held, guessed until some were: Retry-After's first estimate. */
  typicalMs: number;
}

/** How much a new duration weighs in the running estimate (the rest: the ones before). */
const ESTIMATE_WEIGHT = 0.2;

/**
 * A per-organization share of a costly operation in this process: at most `perOrganization` of one
 * organization's at once (429 with Retry-After past it, before any work), and, when `capacity`
 * bounds them all, the waiting ones served round-robin across organizations. One organization
 * never runs them all (when there are two or more): one kept out of its reach lets another
 * organization's start at once instead of after one of the first's, which costs an organization
 * alone one operation at once fewer than the capacity.
 */
export class OrganizationShare {
  private readonly held = new Map<number, number>();
  private readonly runningOf = new Map<number, number>();
  private readonly waiting = new RoundRobinQueue<number, () => void>();
  private running = 0;
  private heldMs: number;
  private readonly capacity: number;
  /** Operations one organization runs at once: all but one of the capacity, when it is past 1. */
  private readonly runningEach: number;

  constructor(private readonly options: OrganizationShareOptions) {
    if (!Number.isInteger(options.perOrganization) || options.perOrganization < 1)
      throw new Error(`${options.name}: perOrganization must be a positive integer`);
    this.heldMs = options.typicalMs;
    this.capacity = options.capacity ?? Number.POSITIVE_INFINITY;
    this.runningEach = this.capacity > 1 ? this.capacity - 1 : this.capacity;
  }

  /** Slots held by the organization now (running or waiting). */
  heldBy(organizationId: number): number {
    return this.held.get(organizationId) ?? 0;
  }

  /** Seconds until one of an organization's slots is likely free: the usual time a slot is held. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.heldMs / 1000));
  }

  /** Whether one of the organization's may start now, without waiting. */
  private mayStart(organizationId: number): boolean {
    return this.running < this.capacity && (this.runningOf.get(organizationId) ?? 0) < this.runningEach;
  }

  private start(organizationId: number): void {
    this.running++;
    this.runningOf.set(organizationId, (this.runningOf.get(organizationId) ?? 0) + 1);
  }

  private stop(organizationId: number): void {
    this.running--;
    const left = (this.runningOf.get(organizationId) ?? 0) - 1;
    if (left > 0) this.runningOf.set(organizationId, left);
    else this.runningOf.delete(organizationId);
  }

  /** Throws what `enter` would refuse the organization with now (429, or 503 when the queue is full), taking nothing. */
  assertRoom(organizationId: number): void {
    const { name, perOrganization, maxWaiting } = this.options;
    if (this.heldBy(organizationId) >= perOrganization)
      throw tooMany(
        `${perOrganization} ${name} of this organization are under way already (the most one organization may have at once); retry in about ${this.retryAfterSeconds} s.`,
        `${name.toLowerCase()}-per-organization`,
        this.retryAfterSeconds,
      );
    if (!this.mayStart(organizationId) && maxWaiting !== undefined && this.waiting.size >= maxWaiting)
      throw new ConcurrencyLimitFullError(maxWaiting, this.options.resource ?? name);
  }

  /** A slot for the organization: at once, after its turn in the queue, or refused (429; 503 when the queue is full). */
  async enter(organizationId: number): Promise<ShareSlot> {
    this.assertRoom(organizationId);
    this.held.set(organizationId, this.heldBy(organizationId) + 1);
    const enteredAt = Date.now();
    if (this.mayStart(organizationId)) this.start(organizationId);
    else
      await new Promise<void>((resolve) =>
        this.waiting.push(organizationId, () => {
          this.start(organizationId);
          resolve();
        }),
      );
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.heldMs += (Date.now() - enteredAt - this.heldMs) * ESTIMATE_WEIGHT;
        const left = this.heldBy(organizationId) - 1;
        if (left > 0) this.held.set(organizationId, left);
        else this.held.delete(organizationId);
        this.stop(organizationId);
        // The next in turn whose organization may start one more; passed over, an organization
        // keeps its place.
        while (this.running < this.capacity) {
          const next = this.waiting.shift((waiting) => this.mayStart(waiting));
          if (!next) break;
          next();
        }
      },
    };
  }

  /** `task` within a slot of the organization's share. */
  async run<T>(organizationId: number, task: () => Promise<T>): Promise<T> {
    const slot = await this.enter(organizationId);
    try {
      return await task();
    } finally {
      slot.release();
    }
  }
}
