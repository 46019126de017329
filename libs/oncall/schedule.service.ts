import { conflict, type FieldError, invalidInput, notFound } from '../errors/index.js';
import {
  type LookupOptions,
  nextHandoff,
  type Shift,
  shiftsBetween,
  shiftsOf,
  whoIsOnCallAt,
} from './on-call.js';
import type { ScheduleDocument, ScheduleRepository, StoredOverride } from './schedule.repository.js';
import {
  type LayerInput,
  MAX_OPEN_OVERRIDES,
  MAX_SCHEDULES_PER_ORGANIZATION,
  type OverrideInput,
  type ScheduleInput,
} from './schedule.schema.js';

const DAY_MS = 86_400_000;
/** Ended overrides a schedule keeps this long (the calendar's and the feed's past), then drops. */
export const KEPT_ENDED_OVERRIDE_DAYS = 90;

/** Someone who can be on call, as the API shows them. */
export interface OnCallPerson {
  id: number;
  name: string;
  email: string;
}

/** What schedules need of the organization's users (the people's `UserRepository` is one). */
export interface OnCallPeople {
  findById(organizationId: number, id: number): Promise<(OnCallPerson & { role: string }) | null>;
  list(organizationId: number): Promise<Array<OnCallPerson & { role: string }>>;
}

export interface OnCallDependencies {
  schedules: ScheduleRepository;
  people: OnCallPeople;
  mutex: { withLock<T>(resource: string, work: () => Promise<T>): Promise<T> };
  /** What names the schedule (escalation policies), in words; a schedule in use is not deleted. */
  usedBy?(organizationId: number, scheduleId: number): Promise<string[]>;
}

/** A shift with its person. */
export interface PersonShift extends Shift {
  user: OnCallPerson;
}

export interface OnCallAnswer {
  now: OnCallPerson | null;
  until: Date | null;
  next: { user: OnCallPerson; at: Date } | null;
}

const asPerson = ({ id, name, email }: OnCallPerson): OnCallPerson => ({ id, name, email });
const byId = (a: StoredOverride, b: StoredOverride) => a.id - b.id;

/**
 * On-call schedules of an organization: their layers and overrides, and who is on call. Only the
 * organization's users other than client users are on call; one who leaves (deleted, or made a
 * client) stays in the stored rotation but is skipped: their turns are a gap in their layer
 * (through which an earlier layer shows) and their overrides no longer count, so no one else's
 * turns move until an editor changes the rotation.
 */
export class OnCallService {
  constructor(private readonly deps: OnCallDependencies) {}

  /** The user if they can be on call in the organization (not a client user), else null. */
  async personOf(organizationId: number, userId: number): Promise<OnCallPerson | null> {
    const user = await this.deps.people.findById(organizationId, userId);
    return user && user.role !== 'client' ? asPerson(user) : null;
  }

  /** Everyone who can be on call in the organization, by id. */
  async people(organizationId: number): Promise<OnCallPerson[]> {
    return (await this.deps.people.list(organizationId)).filter((u) => u.role !== 'client').map(asPerson);
  }

  /** The organization's schedule, or null. */
  find(organizationId: number, id: number): Promise<ScheduleDocument | null> {
    return this.deps.schedules.findById(organizationId, id);
  }

  async get(organizationId: number, id: number): Promise<ScheduleDocument> {
    const schedule = await this.find(organizationId, id);
    if (!schedule) throw notFound(`No schedule ${id}`);
    return schedule;
  }

  /** Whether the schedule is the organization's (an escalation policy's step may name it). */
  async exists(organizationId: number, scheduleId: number): Promise<boolean> {
    return (await this.find(organizationId, scheduleId)) !== null;
  }

  list(organizationId: number): Promise<ScheduleDocument[]> {
    return this.deps.schedules.list(organizationId);
  }

  /** 400 naming `layers.<i>.participants.<j>` for each participant who cannot be on call. */
  private async checkParticipants(organizationId: number, layers: readonly LayerInput[]): Promise<void> {
    const ids = [...new Set(layers.flatMap((layer) => layer.participants))];
    const found = new Map(
      await Promise.all(ids.map(async (id) => [id, await this.personOf(organizationId, id)] as const)),
    );
    const errors: FieldError[] = layers.flatMap((layer, i) =>
      layer.participants.flatMap((id, j) =>
        found.get(id)
          ? []
          : [
              {
                path: `layers.${i}.participants.${j}`,
                message: `no user ${id} of this organization who can be on call`,
              },
            ],
      ),
    );
    if (errors.length > 0)
      throw invalidInput('Participants must be users of the organization (not client users)', errors);
  }

  async create(organizationId: number, input: ScheduleInput): Promise<ScheduleDocument> {
    await this.checkParticipants(organizationId, input.layers);
    return this.deps.mutex.withLock(`oncall-schedules:${organizationId}`, async () => {
      if ((await this.deps.schedules.count(organizationId)) >= MAX_SCHEDULES_PER_ORGANIZATION)
        throw conflict(`An organization may have ${MAX_SCHEDULES_PER_ORGANIZATION} schedules`);
      return this.deps.schedules.create({ organizationId, ...input, overrides: [] });
    });
  }

  /** Changes the fields sent; new layers' participants are checked as a create's are. */
  async update(organizationId: number, id: number, patch: Partial<ScheduleInput>): Promise<ScheduleDocument> {
    if (patch.layers) await this.checkParticipants(organizationId, patch.layers);
    return this.locked(organizationId, id, (schedule) => ({ ...schedule, ...patch }));
  }

  async delete(organizationId: number, id: number): Promise<void> {
    await this.deps.mutex.withLock(`oncall-schedule:${id}`, async () => {
      await this.get(organizationId, id);
      const uses = (await this.deps.usedBy?.(organizationId, id)) ?? [];
      if (uses.length > 0)
        throw conflict(
          `The schedule is in use by ${uses.join(', ')}: take it out of ${uses.length === 1 ? 'that policy' : 'those policies'} first`,
        );
      if (!(await this.deps.schedules.delete(organizationId, id))) throw notFound(`No schedule ${id}`);
    });
  }

  /** Reads the schedule under its lock, stores what `change` makes of it. */
  private locked(
    organizationId: number,
    id: number,
    change: (schedule: ScheduleDocument) => ScheduleDocument | Promise<ScheduleDocument>,
  ): Promise<ScheduleDocument> {
    return this.deps.mutex.withLock(`oncall-schedule:${id}`, async () =>
      this.deps.schedules.replace(await change(await this.get(organizationId, id))),
    );
  }

  /** Someone covers a span; overrides ended long ago are dropped as it is added. */
  async addOverride(organizationId: number, id: number, input: OverrideInput): Promise<StoredOverride> {
    if (!(await this.personOf(organizationId, input.userId)))
      throw invalidInput(`No user ${input.userId} of this organization who can be on call`, [
        { path: 'userId', message: `no user ${input.userId} of this organization who can be on call` },
      ]);
    const created: StoredOverride = {
      id: await this.deps.schedules.newOverrideId(),
      userId: input.userId,
      from: input.from,
      to: input.to,
      createdAt: new Date(),
    };
    await this.locked(organizationId, id, (schedule) => {
      const now = Date.now();
      const kept = schedule.overrides.filter((o) => o.to.getTime() > now - KEPT_ENDED_OVERRIDE_DAYS * DAY_MS);
      if (kept.filter((o) => o.to.getTime() > now).length >= MAX_OPEN_OVERRIDES)
        throw conflict(`A schedule may have ${MAX_OPEN_OVERRIDES} overrides that have not ended`);
      return { ...schedule, overrides: [...kept, created].sort(byId) };
    });
    return created;
  }

  async deleteOverride(organizationId: number, id: number, overrideId: number): Promise<void> {
    await this.locked(organizationId, id, (schedule) => {
      if (!schedule.overrides.some((o) => o.id === overrideId)) throw notFound(`No override ${overrideId}`);
      return { ...schedule, overrides: schedule.overrides.filter((o) => o.id !== overrideId) };
    });
  }

  /**
   * `compute` with the people it names looked up: someone who cannot be on call (any more) is
   * taken as away and it is computed again, until everyone it names is someone.
   */
  private async withPeople<T>(
    organizationId: number,
    compute: (options: LookupOptions) => T,
    named: (result: T) => number[],
  ): Promise<{ result: T; person: (id: number) => OnCallPerson }> {
    const people = new Map<number, OnCallPerson | null>();
    for (;;) {
      const result = compute({ isAway: (userId) => people.get(userId) === null });
      const unknown = [...new Set(named(result))].filter((id) => !people.has(id));
      if (unknown.length === 0) return { result, person: (id) => people.get(id) as OnCallPerson };
      await Promise.all(unknown.map(async (id) => people.set(id, await this.personOf(organizationId, id))));
    }
  }

  /** Who is on call at `at`, until when, and who is next: what the app's list and the API show. */
  async onCall(organizationId: number, id: number, at: Date): Promise<OnCallAnswer> {
    const schedule = await this.get(organizationId, id);
    const { result, person } = await this.withPeople(
      organizationId,
      (options) => nextHandoff(schedule, schedule.overrides, at, options),
      ({ now, next }) => [...(now ? [now.userId] : []), ...(next ? [next.userId] : [])],
    );
    return {
      now: result.now && person(result.now.userId),
      until: result.now?.until ?? null,
      next: result.next && { user: person(result.next.userId), at: result.next.at },
    };
  }

  /** Who is on call through [from, to): shifts cut where the person or the source changes. */
  async shifts(
    organizationId: number,
    schedule: ScheduleDocument,
    from: Date,
    to: Date,
  ): Promise<PersonShift[]> {
    const { result, person } = await this.withPeople(
      organizationId,
      (options) => shiftsBetween(schedule, schedule.overrides, from, to, options),
      (shifts) => shifts.map((shift) => shift.userId),
    );
    return result.map((shift) => ({ ...shift, user: person(shift.userId) }));
  }

  /** One person's shifts through [from, to), each stretch without a break one (their calendar feed). */
  async shiftsOf(schedule: ScheduleDocument, userId: number, from: Date, to: Date): Promise<Shift[]> {
    const { result } = await this.withPeople(
      schedule.organizationId,
      (options) => shiftsOf(schedule, schedule.overrides, userId, from, to, options),
      // Whoever takes this person's place by precedence may have left: each is checked.
      () => participantsOf(schedule),
    );
    return result;
  }

  /**
   * Who is on call at `at` on the organization's schedule, for the escalation engine: null when
   * no one is, or when there is no such schedule (deleted since a policy named it).
   */
  async whoIsOnCall(
    organizationId: number,
    scheduleId: number,
    at: Date,
  ): Promise<{ userId: number } | null> {
    const schedule = await this.find(organizationId, scheduleId);
    if (!schedule) return null;
    const { result } = await this.withPeople(
      organizationId,
      (options) => whoIsOnCallAt(schedule, schedule.overrides, at, options),
      (userId) => (userId === null ? [] : [userId]),
    );
    return result === null ? null : { userId: result };
  }
}

/** Everyone a schedule names: its layers' participants and its overrides' people. */
export const participantsOf = (schedule: ScheduleDocument): number[] => [
  ...new Set([
    ...schedule.layers.flatMap((layer) => layer.participants),
    ...schedule.overrides.map((o) => o.userId),
  ]),
];
