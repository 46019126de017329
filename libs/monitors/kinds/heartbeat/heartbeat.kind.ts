import type { PushKindEntry } from '../kind-entry.js';
import { heartbeatSettings } from './heartbeat.schema.js';
import { heartbeatAt, pingVerdict } from './heartbeat.verdict.js';

/**
 * A cron job's or backup's heartbeat: pushed, not probed. Its job pings `/ping/<token>` (the API
 * keeps each ping, its body cut to 10 KB, in the monitor's log); the fast lane keeps its deadline.
 */
export const heartbeatKind = {
  kind: 'heartbeat',
  noun: 'heartbeat',
  description:
    'A job that pings its URL on a schedule (every periodSeconds, or a cron expression in a time zone): down when a ping is later than the schedule plus graceSeconds, when a run started with /start outlasts maxRunSeconds, or when the job reports a failure (/fail, a non-zero exit code). Package feature `heartbeats`, limit `maxHeartbeatsPerWebsite`.',
  feature: 'heartbeats',
  limit: 'maxHeartbeatsPerWebsite',
  lane: 'fast',
  trigger: 'push',
  settings: heartbeatSettings,
  probe: null,
  verdict: pingVerdict,
  deadline: heartbeatAt,
  evidence: null,
} satisfies PushKindEntry;
