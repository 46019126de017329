export {
  type Decision,
  type DecisionRules,
  decide,
  eventFor,
  type Health,
  INITIAL_STATE,
  type MonitorState,
  type RegionTrack,
  reportedStatus,
  type StatusEventKind,
  type WebsiteStatus,
} from './status-machine.js';
