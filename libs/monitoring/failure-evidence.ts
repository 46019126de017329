import { type Evidence, evidenceOf, type Observation, withoutBody } from '../checks/index.js';
import { type Redis, redisScript } from '../redis/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { type CheckResultDocument, packEvidence } from './result.repository.js';

/** A body is kept once per website, region and this long while the website keeps failing. */
export const EVIDENCE_BODY_EVERY_MS = 5 * 60_000;
const OMITTED_REASON = 'A body of this website from this region was kept less than 5 minutes before';

/** The request a check sent, its secret headers and sealed body opened. */
export interface SentRequest {
  headers: Record<string, string>;
  body: string | null;
}

/** Whether a failing result may keep its body now (one per website, region and 5 minutes). */
export interface EvidenceBodyGate {
  /** `at`: when the result's check started (the 5 minutes are counted between checks). */
  keepBody(websiteId: number, region: string, status: 'down' | 'degraded', at: Date): Promise<boolean>;
  /**
   * The website's incident was resolved: the region's next failure (the next incident's first)
   * keeps its body a minute after the last one kept at the latest, not 5 (a flapping website keeps
   * at most one a minute).
   */
  reopen(websiteId: number, region: string): Promise<void>;
}

/** Keeps a body when the last one kept is 5 minutes older than this check (or there is none). */
const KEEP_BODY_SCRIPT = redisScript(`
local last = redis.call('GET', KEYS[1])
local at = tonumber(ARGV[1])
if last and at - tonumber(last) < tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** After an incident's resolution: the next body may come a minute after the last one kept. */
const REOPEN_SCRIPT = redisScript(`
local last = redis.call('GET', KEYS[1])
if not last then return 0 end
redis.call('SET', KEYS[1], tostring(tonumber(last) - tonumber(ARGV[1])), 'KEEPTTL')
return 1
`);
export const EVIDENCE_BODY_AFTER_RECOVERY_MS = 60_000;

/**
 * The gate in Redis, shared by the region's workers: per website, region and status, when the
 * last body was kept (the check's own time, so a late check does not take a newer one's place).
 * While Redis does not answer, bodies are not kept (the disk is what the bound protects).
 */
export class RedisEvidenceBodyGate implements EvidenceBodyGate {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(websiteId: number, region: string, status: 'down' | 'degraded'): string {
    return `${this.prefix}:evidence-body:${websiteId}:${region}:${status}`;
  }

  async keepBody(websiteId: number, region: string, status: 'down' | 'degraded', at: Date): Promise<boolean> {
    const kept = await KEEP_BODY_SCRIPT.run(
      this.redis,
      [this.key(websiteId, region, status)],
      [at.getTime(), EVIDENCE_BODY_EVERY_MS],
    ).catch(() => 0);
    return kept === 1;
  }

  async reopen(websiteId: number, region: string): Promise<void> {
    // One key at a time: on a Redis Cluster the two may live on different nodes.
    for (const status of ['down', 'degraded'] as const)
      await REOPEN_SCRIPT.run(
        this.redis,
        [this.key(websiteId, region, status)],
        [EVIDENCE_BODY_EVERY_MS - EVIDENCE_BODY_AFTER_RECOVERY_MS],
      ).catch(() => 0);
  }
}

/**
 * What a failing result keeps of what it saw: its evidence, without anything secret (the
 * website's secret headers are redacted by name and their values blanked wherever the server
 * echoed them), its body only when the gate allows.
 */
export async function failureEvidence(input: {
  website: WebsiteDocument;
  observation: Observation;
  region: string;
  nodeId: string;
  sent: SentRequest;
  gate: EvidenceBodyGate;
  /** Down and degraded keep bodies apart: weeks of warnings do not take a down page's place. */
  status: 'down' | 'degraded';
}): Promise<{
  fields: Pick<CheckResultDocument, 'evidence' | 'evidenceBytes'>;
  withBody: boolean;
  evidence: Evidence;
}> {
  const { website, observation, region } = input;
  const secretNames = (website.secretHeaders ?? []).map((header) => header.name);
  const { headers, body } = input.sent;
  const evidence = evidenceOf(observation, {
    region,
    nodeId: input.nodeId,
    secretHeaders: secretNames,
    secretValues: [
      ...secretNames.map((name) => headers[name] ?? '').filter((value) => value !== ''),
      ...(website.requestBodySealed && body ? sealedBodyValues(body) : []),
    ],
  });
  const withBody =
    evidence.body === null ||
    (await input.gate.keepBody(website.id, region, input.status, observation.startedAt));
  const kept = withBody ? evidence : withoutBody(evidence, OMITTED_REASON);
  return { fields: await packEvidence(kept), withBody: withBody && evidence.body !== null, evidence: kept };
}

/**
 * A sealed request body and the values in it (a JSON body's strings and numbers, a form's values):
 * a server that quotes the request back (an echo, an error about the JSON) shows none of them.
 */
function sealedBodyValues(body: string): string[] {
  const values = [body];
  const collect = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') values.push(String(value));
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  try {
    collect(JSON.parse(body));
  } catch {
    for (const value of new URLSearchParams(body).values()) values.push(value);
  }
  return values;
}
