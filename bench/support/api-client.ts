import type { Db } from 'mongodb';
import type { Pool } from 'undici';
import { ApiTokenRepository, OrganizationRepository } from '../../libs/auth/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { MonitoringNodeRepository, startHeartbeat } from '../../libs/nodes/index.js';

/**
 * An organization with an admin token, and a node of the API's region alive (as `npm start` has a
 * worker): websites are scheduled, not told `unmonitored` (an event and two reads each that a
 * normal installation does not make).
 */
export async function benchOrganization(db: Db) {
  const organization = await new OrganizationRepository(db).create('bench');
  const { record, token } = await new ApiTokenRepository(db).create({
    organizationId: organization.id,
    name: 'bench',
    scopes: ['admin'],
  });
  const heartbeat = await startHeartbeat({
    nodes: new MonitoringNodeRepository(db),
    node: { nodeId: 'bench-node', ip: '192.0.2.1', region: 'local', version: 'bench' },
    logger: createLogger('bench', 'silent'),
  });
  return { organizationId: organization.id, tokenId: record.id, token, heartbeat };
}

/** One JSON request with the token; throws with the answer when its status is not the expected one. */
export async function sendJson<T = { id: number }>(
  pool: Pool,
  request: { method: 'POST' | 'PATCH'; path: string; token: string; body: unknown; expected: number },
): Promise<T> {
  const { method, path, token, body, expected } = request;
  const response = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== expected)
    throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
