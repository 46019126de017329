import { evidenceOf, type Observation, withoutBody } from '../checks/index.js';
import type { Redis } from '../redis/index.js';
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
  keepBody(websiteId: number, region: string, status: 'down' | 'degraded'): Promise<boolean>;
}

/**
 * The gate in Redis, shared by the region's workers: a key per website and region that lives 5
 * minutes. While Redis does not answer, bodies are not kept (the disk is what the bound protects).
 */
export class RedisEvidenceBodyGate implements EvidenceBodyGate {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async keepBody(websiteId: number, region: string, status: 'down' | 'degraded'): Promise<boolean> {
    const key = `${this.prefix}:evidence-body:${websiteId}:${region}:${status}`;
    const set = await this.redis.set(key, '1', 'PX', EVIDENCE_BODY_EVERY_MS, 'NX').catch(() => null);
    return set === 'OK';
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
}): Promise<{ fields: Pick<CheckResultDocument, 'evidence' | 'evidenceBytes'>; withBody: boolean }> {
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
  const withBody = evidence.body === null || (await input.gate.keepBody(website.id, region, input.status));
  return {
    fields: await packEvidence(withBody ? evidence : withoutBody(evidence, OMITTED_REASON)),
    withBody: withBody && evidence.body !== null,
  };
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
