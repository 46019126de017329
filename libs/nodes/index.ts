export {
  ACTIVE_WITHIN_MS,
  isActive,
  type NodeLiveness,
  type Placement,
  placeWebsite,
  servingRegions,
} from './fleet-membership.js';
export {
  ALLOW_LIST_WITHIN_MS,
  type MonitoringNode,
  MonitoringNodeRepository,
  monitoringNodeIndexes,
} from './monitoring-node.repository.js';
export { HEARTBEAT_INTERVAL_MS, nodeAddress, startHeartbeat } from './node-heartbeat.js';
