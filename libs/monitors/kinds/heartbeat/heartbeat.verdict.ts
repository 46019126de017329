import { downVerdict as down, type MonitorVerdict, upVerdict as up } from '../../verdict.js';
import {
  countedFrom,
  type HeartbeatPings,
  type HeartbeatTiming,
  heartbeatDeadline,
} from './heartbeat-schedule.js';

/** Pure decisions of a heartbeat: what a ping says, and what silence says once its deadline passed. */

const iso = (at: Date) => at.toISOString().replace('.000Z', 'Z');

/** A ping's verdict: a success is up, a failure (`/fail`, a non-zero exit code) down with the log's first line. */
export function pingVerdict(ping: {
  kind: 'success' | 'failure';
  exitCode: number | null;
  body: string;
}): MonitorVerdict {
  if (ping.kind === 'success') return up();
  const firstLine = ping.body
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 200);
  const said =
    ping.exitCode === null ? 'the job reported a failure' : `the job exited with code ${ping.exitCode}`;
  return down('HEARTBEAT_FAILED', firstLine ? `${said}: ${firstLine}` : said);
}

/**
 * Where a heartbeat stands at `now`: null while its deadline is ahead (with the deadline), else the
 * missed or overran verdict.
 */
export function heartbeatAt(
  heartbeat: HeartbeatTiming & HeartbeatPings,
  now: Date,
): { deadline: Date; verdict: MonitorVerdict | null } {
  const deadline = heartbeatDeadline(heartbeat, heartbeat);
  if (deadline.at > now) return { deadline: deadline.at, verdict: null };
  if (deadline.reason === 'overran')
    return {
      deadline: deadline.at,
      verdict: down(
        'HEARTBEAT_OVERRAN',
        `a run started at ${iso(heartbeat.lastStartAt as Date)} has not finished within ${heartbeat.maxRunSeconds} s`,
      ),
    };
  const since = heartbeat.lastSuccessAt ? `no ping since ${iso(heartbeat.lastSuccessAt)}` : 'no ping yet';
  return {
    deadline: deadline.at,
    verdict: down(
      'HEARTBEAT_MISSED',
      `${since}: one was expected by ${iso(deadline.expectedAt)} (grace ${heartbeat.graceSeconds} s, counted from ${iso(countedFrom(heartbeat))})`,
    ),
  };
}
