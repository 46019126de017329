import { type Redis, RevisedMemory, Revisions } from '../redis/index.js';
import type { PackageDocument, PackageRepository } from './package.repository.js';

/** Each package's revision (`Revisions`), bumped after every write to it. */
export function packageRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:package-rev`);
}

/**
 * A copy whose revision still holds is read again after this long: a write that did not move the
 * revision (Redis did not answer, a process of an older version) shows within it.
 */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Packages a process keeps in memory under their revisions: a website's write checks its settings
 * against its customer's package with a Redis GET instead of a MongoDB read (~1–3 ms of FerretDB
 * each), and MongoDB is read again only for packages written since.
 */
export class PackageCache {
  private readonly entries: RevisedMemory<PackageDocument>;

  constructor(
    private readonly packages: PackageRepository,
    revisions: Revisions,
    /** Packages kept at most; the least recently stored go first. */
    capacity: number,
  ) {
    this.entries = new RevisedMemory(revisions, capacity, MAX_AGE_MS);
  }

  /** The organization's package of this id, as stored now (null: none). */
  async findById(organizationId: number, id: number): Promise<PackageDocument | null> {
    const found = await this.entries.readMany(
      [id],
      (pkg) => pkg.organizationId === organizationId,
      (missing) => this.packages.findByIds(organizationId, missing),
    );
    return found.get(id) ?? null;
  }

  /** The package as this process just wrote it, under the revision its write set. */
  written(pkg: PackageDocument, revision: string): void {
    this.entries.store(pkg, revision);
  }
}
