import { Binary, type Db, type Filter } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { Gathered } from './monitor-gather.js';
import {
  type ArtifactKind,
  PASSING_RUN_FILES_DAYS,
  REPORT_FILES_DAYS,
  type RunArtifact,
} from './run-files.js';

export const RUN_ARTIFACTS = 'run_artifacts';

/** Whose run it was and how long its files are kept (its result's retention). */
export interface ArtifactOwner {
  organizationId: number;
  websiteId: number;
  monitorId: number;
  /** The run's id (`newRunId`), named in its result's evidence. */
  runId: string;
  retainUntil: Date;
}

interface ArtifactDocument extends Omit<ArtifactOwner, 'retainUntil'> {
  _id: string;
  kind: ArtifactKind;
  name: string;
  bytes: number;
  data: Binary;
  createdAt: Date;
  retainUntil: Date;
}

const artifactKey = (runId: string, kind: ArtifactKind, name: string) => `${runId}:${kind}:${name}`;

export const runArtifactIndexes: CollectionIndexes = {
  collection: RUN_ARTIFACTS,
  indexes: [{ key: { retainUntil: 1 }, name: 'retain_until' }],
};

/**
 * A run's files not stored within this are given up (its result is committed without them): a
 * stalled MongoDB must not hold the browser lane's slot.
 */
const STORE_TIMEOUT_MS = 15_000;

/**
 * The files journeys' runs keep (screenshots, traces), one document each by a primary key made of
 * the run's id, its kind and name: read by key, never scanned. Bounded by the runner (a screenshot
 * 2 MiB, a trace 10 MiB), under MongoDB's 16 MiB document, and by `MAX_RUN_FILES_BYTES` a run;
 * kept as `filesRetentionDays` says.
 */
export class RunArtifacts {
  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection<ArtifactDocument>(RUN_ARTIFACTS);
  }

  async store(owner: ArtifactOwner, artifacts: readonly RunArtifact[]): Promise<void> {
    if (artifacts.length === 0) return;
    const createdAt = new Date();
    // Ordered off and duplicates ignored: a retried write of the same run stores each file once.
    await this.collection
      .insertMany(
        artifacts.map((artifact) => ({
          _id: artifactKey(owner.runId, artifact.kind, artifact.name),
          ...owner,
          kind: artifact.kind,
          name: artifact.name,
          bytes: artifact.data.length,
          data: new Binary(artifact.data),
          createdAt,
        })),
        { ordered: false, timeoutMS: STORE_TIMEOUT_MS },
      )
      .catch((error: unknown) => {
        if ((error as { code?: number }).code !== 11000) throw error;
      });
  }

  /** One file of a run of this website (another organization's or website's: null). */
  async read(
    owner: Pick<ArtifactOwner, 'organizationId' | 'websiteId' | 'runId'>,
    kind: ArtifactKind,
    name: string,
  ): Promise<{ data: Buffer; bytes: number } | null> {
    const found = await this.collection.findOne({
      _id: artifactKey(owner.runId, kind, name),
    } as Filter<ArtifactDocument>);
    if (!found || found.organizationId !== owner.organizationId || found.websiteId !== owner.websiteId)
      return null;
    return { data: Buffer.from(found.data.buffer), bytes: found.bytes };
  }

  /** Files past their retention. */
  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ retainUntil: { $lt: now } });
    return deletedCount;
  }
}

const DAY_MS = 86_400_000;

/**
 * How long a run's files are kept: a failing run's as long as its result, a passing run's a week
 * at most; Lighthouse's reports (what its history links to) as long as the result, 30 days at most.
 */
export const filesRetentionDays = (
  status: Gathered['verdict']['status'],
  resultRetentionDays: number,
  kinds: readonly ArtifactKind[] = [],
) =>
  kinds.includes('report')
    ? Math.min(REPORT_FILES_DAYS, resultRetentionDays)
    : status === 'up'
      ? Math.min(PASSING_RUN_FILES_DAYS, resultRetentionDays)
      : resultRetentionDays;

/**
 * A check with files as its result is committed, once they were stored (until `keptUntil`) or not
 * (null): its evidence says until when they can be read (`filesKeptUntil`; null: never), and, not
 * stored, its events link no screenshot (the link would answer 404).
 */
export function withRunFiles(gathered: Gathered, keptUntil: Date | null): Gathered {
  const evidence = { ...gathered.seen.evidence, filesKeptUntil: keptUntil?.toISOString() ?? null };
  const { screenshot: _notStored, ...details } = gathered.details;
  return {
    ...gathered,
    result: { ...gathered.result, evidence },
    seen: { ...gathered.seen, evidence },
    details: keptUntil ? gathered.details : details,
  };
}

/**
 * A check's files kept (`filesRetentionDays`), and the check as its result is then committed
 * (`withRunFiles`). Files not stored (MongoDB away) are lost with a warning: the result still names
 * the run; its pictures are a help, not the check.
 */
export async function keepRunArtifacts(
  deps: { artifacts?: Pick<RunArtifacts, 'store'> | undefined; logger: Logger },
  monitor: { organizationId: number; websiteId: number; id: number },
  gathered: Gathered,
  /** The result's retention (a run on request: its own). */
  retentionDays: number,
): Promise<Gathered> {
  const { artifacts } = gathered;
  if (!artifacts) return gathered;
  if (!deps.artifacts) return withRunFiles(gathered, null);
  const days = filesRetentionDays(
    gathered.verdict.status,
    retentionDays,
    artifacts.files.map((file) => file.kind),
  );
  const owner = {
    organizationId: monitor.organizationId,
    websiteId: monitor.websiteId,
    monitorId: monitor.id,
    runId: artifacts.runId,
    retainUntil: new Date(gathered.at.getTime() + days * DAY_MS),
  };
  try {
    await deps.artifacts.store(owner, artifacts.files);
    return withRunFiles(gathered, owner.retainUntil);
  } catch (error) {
    deps.logger.warn(
      { err: errorMessage(error), monitorId: monitor.id },
      'a run’s screenshots and trace were not stored (its result is)',
    );
    return withRunFiles(gathered, null);
  }
}
