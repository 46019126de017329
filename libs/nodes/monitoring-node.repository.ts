import type { Collection, Db } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';
import { ACTIVE_WITHIN_MS, isActive, servingRegions } from './fleet-membership.js';

/** A monitoring node (one worker host) as it registers itself. Nodes are the service's, not a tenant's. */
export interface MonitoringNode {
  nodeId: string;
  ip: string;
  region: string;
  version: string;
  startedAt: Date;
  lastHeartbeatAt: Date;
  /** Set when the node shut down cleanly; cleared by its next heartbeat. */
  stoppedAt: Date | null;
  /** Set by an operator to take a node out of the published lists. */
  disabled: boolean;
}

export const MONITORING_NODES = 'monitoring_nodes';
/** The firewall allow-list keeps a node this long after its last heartbeat, so a restart does not drop it. */
export const ALLOW_LIST_WITHIN_MS = 24 * 60 * 60 * 1000;

export const monitoringNodeIndexes: CollectionIndexes = {
  collection: MONITORING_NODES,
  indexes: [
    { key: { nodeId: 1 }, unique: true, name: 'node_id_unique' },
    { key: { lastHeartbeatAt: -1 }, name: 'last_heartbeat' },
  ],
};

export class MonitoringNodeRepository {
  private readonly nodes: Collection<MonitoringNode>;

  constructor(db: Db) {
    this.nodes = db.collection<MonitoringNode>(MONITORING_NODES);
  }

  async heartbeat(
    node: Pick<MonitoringNode, 'nodeId' | 'ip' | 'region' | 'version' | 'startedAt'>,
    at: Date,
  ): Promise<void> {
    await this.nodes.updateOne(
      { nodeId: node.nodeId },
      {
        $set: {
          ip: node.ip,
          region: node.region,
          version: node.version,
          startedAt: node.startedAt,
          lastHeartbeatAt: at,
          stoppedAt: null,
        },
        $setOnInsert: { disabled: false },
      },
      { upsert: true },
    );
  }

  async markStopped(nodeId: string, at: Date): Promise<void> {
    await this.nodes.updateOne({ nodeId }, { $set: { stoppedAt: at } });
  }

  async setDisabled(nodeId: string, disabled: boolean): Promise<boolean> {
    return (await this.nodes.updateOne({ nodeId }, { $set: { disabled } })).matchedCount > 0;
  }

  /** The active nodes (fleet-membership's rule), sorted by region and id. */
  async listActive(now: Date): Promise<MonitoringNode[]> {
    const recent = await this.nodes
      .find(
        { lastHeartbeatAt: { $gte: new Date(now.getTime() - ACTIVE_WITHIN_MS) } },
        { projection: { _id: 0 }, sort: { region: 1, nodeId: 1 } },
      )
      .toArray();
    return recent.filter((node) => isActive(node, now));
  }

  /** The regions checks are scheduled in now: those with an active node. */
  async servingRegions(now = new Date()): Promise<string[]> {
    return servingRegions(await this.listActive(now), now);
  }

  /** Enabled nodes seen within `withinMs`, stopped or not (for allow-lists). */
  listRecent(now: Date, withinMs: number): Promise<MonitoringNode[]> {
    return this.nodes
      .find(
        { lastHeartbeatAt: { $gte: new Date(now.getTime() - withinMs) }, disabled: false },
        { projection: { _id: 0 } },
      )
      .toArray();
  }
}
