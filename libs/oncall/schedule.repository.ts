import type { Db } from 'mongodb';
import { type CollectionIndexes, nextId, type TenantResource, TenantResources } from '../db/index.js';
import type { RotationLength } from './rotation.js';

export interface StoredLayer {
  participants: number[];
  rotation: { length: RotationLength; handoff: string; startsAt: Date; endsAt: Date | null };
}

export interface StoredOverride {
  id: number;
  userId: number;
  from: Date;
  to: Date;
  createdAt: Date;
}

/**
 * A schedule with its overrides in the one document: "who is on call" is one read by primary key
 * (the id's entry, then the document), and a schedule's overrides are few (bounded, ended ones pruned).
 */
export interface ScheduleDocument extends TenantResource {
  name: string;
  timezone: string;
  layers: StoredLayer[];
  /** By id: the order they were made in, which decides between overlapping ones. */
  overrides: StoredOverride[];
}

export const ONCALL_SCHEDULES = 'oncall_schedules';
/** The sequence overrides' ids come from (they live in their schedule's document). */
const OVERRIDE_IDS = 'oncall_overrides';

export const onCallScheduleIndexes: CollectionIndexes = {
  collection: ONCALL_SCHEDULES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
  ],
};

/** Schedules of organizations; writers hold the schedule's `oncall-schedule:<id>` lock. */
export class ScheduleRepository {
  private readonly schedules: TenantResources<ScheduleDocument>;

  constructor(private readonly db: Db) {
    this.schedules = new TenantResources(db, ONCALL_SCHEDULES);
  }

  create(input: Omit<ScheduleDocument, 'id' | 'createdAt' | 'updatedAt'>): Promise<ScheduleDocument> {
    return this.schedules.create(input);
  }

  findById(organizationId: number, id: number): Promise<ScheduleDocument | null> {
    return this.schedules.findById(organizationId, id);
  }

  /** The organization's schedules, by id (a few per organization: bounded). */
  list(organizationId: number): Promise<ScheduleDocument[]> {
    return this.schedules.findMany(organizationId);
  }

  count(organizationId: number): Promise<number> {
    return this.schedules.scoped.countDocuments(organizationId, {});
  }

  replace(schedule: ScheduleDocument): Promise<ScheduleDocument> {
    return this.schedules.replace(schedule);
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.schedules.delete(organizationId, id);
  }

  newOverrideId(): Promise<number> {
    return nextId(this.db, OVERRIDE_IDS);
  }
}
