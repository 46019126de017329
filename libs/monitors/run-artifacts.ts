import { randomBytes } from 'node:crypto';
import { Binary, type Db, type Filter } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';

export const RUN_ARTIFACTS = 'run_artifacts';

/** What a run keeps beside its result: a screenshot (PNG) or a trace (zip). */
export type ArtifactKind = 'screenshot' | 'trace';

export const ARTIFACT_CONTENT_TYPES: Record<ArtifactKind, string> = {
  screenshot: 'image/png',
  trace: 'application/zip',
};

/** One file a run made, as its kind's probe hands it over. */
export interface RunArtifact {
  kind: ArtifactKind;
  /** A screenshot step's name, `failure` for the page at a failure, `trace` for the trace. */
  name: string;
  data: Buffer;
}

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

/** A run's id: 24 hexadecimal digits, as results are named in routes. */
export const newRunId = () => randomBytes(12).toString('hex');

const artifactKey = (runId: string, kind: ArtifactKind, name: string) => `${runId}:${kind}:${name}`;

export const runArtifactIndexes: CollectionIndexes = {
  collection: RUN_ARTIFACTS,
  indexes: [{ key: { retainUntil: 1 }, name: 'retain_until' }],
};

/**
 * The files journeys' runs keep (screenshots, traces), one document each by a primary key made of
 * the run's id, its kind and name: read by key, never scanned. Bounded by the runner (a screenshot
 * 2 MiB, a trace 10 MiB), under MongoDB's 16 MiB document; kept as long as the run's result.
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
        { ordered: false },
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
 * A check's files kept as long as its result. Files not stored (MongoDB away) are lost with a
 * warning: the result still names the run; its pictures are a help, not the check.
 */
export async function keepRunArtifacts(
  deps: { artifacts?: Pick<RunArtifacts, 'store'> | undefined; logger: Logger },
  monitor: { organizationId: number; websiteId: number; id: number },
  gathered: { at: Date; artifacts?: { runId: string; files: RunArtifact[] } | undefined },
  retentionDays: number,
): Promise<void> {
  const { artifacts } = gathered;
  if (!artifacts || !deps.artifacts) return;
  const owner = {
    organizationId: monitor.organizationId,
    websiteId: monitor.websiteId,
    monitorId: monitor.id,
    runId: artifacts.runId,
    retainUntil: new Date(gathered.at.getTime() + retentionDays * DAY_MS),
  };
  await deps.artifacts
    .store(owner, artifacts.files)
    .catch((error: unknown) =>
      deps.logger.warn(
        { err: errorMessage(error), monitorId: monitor.id },
        'a run’s screenshots and trace were not stored (its result is)',
      ),
    );
}
