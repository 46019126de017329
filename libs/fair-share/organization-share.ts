import { tooMany } from '../errors/index.js';
import { ConcurrencyLimitFullError } from '../runtime/index.js';
import { RoundRobinQueue } from './round-robin.js';

/** A slot of a share, held while the operation runs; `release` may be called more than once. */
export interface ShareSlot {
  release(): void;
}

export interface OrganizationShareOptions {
  /** What is shared, plural, as refusals name it (`exports`): the reason is `<name>-per-organization`. */
  name: string;
  /** Operations one organization may have at once (running and waiting); past it `enter` answers 429. */
  perOrganization: number;
  /** Operations run at once across organizations; the others wait, served in turn. @defaultValue unbounded */
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
 * bounds them all, the waiting ones served round-robin across organizations, so one organization
 * filling the queue makes another's wait one turn at most.
 */
export class OrganizationShare {
  private readonly held = new Map<number, number>();
  private readonly waiting = new RoundRobinQueue<number, () => void>();
  private running = 0;
  private heldMs: number;

  constructor(private readonly options: OrganizationShareOptions) {
    if (!Number.isInteger(options.perOrganization) || options.perOrganization < 1)
      throw new Error(`${options.name}: perOrganization must be a positive integer`);
    this.heldMs = options.typicalMs;
  }

  /** Slots held by the organization now (running or waiting). */
  heldBy(organizationId: number): number {
    return this.held.get(organizationId) ?? 0;
  }

  /** Seconds until one of an organization's slots is likely free: the usual time a slot is held. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.heldMs / 1000));
  }

  /** Throws what `enter` would refuse the organization with now (429, or 503 when the queue is full), taking nothing. */
  assertRoom(organizationId: number): void {
    const { name, perOrganization, capacity = Number.POSITIVE_INFINITY, maxWaiting } = this.options;
    if (this.heldBy(organizationId) >= perOrganization)
      throw tooMany(
        `${perOrganization} ${name} of this organization are under way already (the most one organization may have at once); retry in about ${this.retryAfterSeconds} s.`,
        `${name.toLowerCase()}-per-organization`,
        this.retryAfterSeconds,
      );
    if (this.running >= capacity && maxWaiting !== undefined && this.waiting.size >= maxWaiting)
      throw new ConcurrencyLimitFullError(maxWaiting, this.options.resource ?? name);
  }

  /** A slot for the organization: at once, after its turn in the queue, or refused (429; 503 when the queue is full). */
  async enter(organizationId: number): Promise<ShareSlot> {
    this.assertRoom(organizationId);
    this.held.set(organizationId, this.heldBy(organizationId) + 1);
    const enteredAt = Date.now();
    const mustWait = this.running >= (this.options.capacity ?? Number.POSITIVE_INFINITY);
    if (mustWait) await new Promise<void>((resolve) => this.waiting.push(organizationId, resolve));
    else this.running++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.heldMs += (Date.now() - enteredAt - this.heldMs) * ESTIMATE_WEIGHT;
        const left = this.heldBy(organizationId) - 1;
        if (left > 0) this.held.set(organizationId, left);
        else this.held.delete(organizationId);
        // The slot passes straight to the next in turn, so `running` never dips in between.
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
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
