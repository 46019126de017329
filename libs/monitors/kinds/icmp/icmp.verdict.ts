import type { IcmpObservation } from '../../../probe/index.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';
import type { IcmpSettings } from './icmp.schema.js';

/** The mean of round trips, in ms to two decimals. */
export const average = (values: readonly number[]) =>
  Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;

/** Loss over the bound is down (all lost: unreachable); a slow average round trip degraded. */
export function icmpVerdict(check: IcmpSettings & { host: string }, seen: IcmpObservation): MonitorVerdict {
  if (seen.error) return downVerdict(seen.error.code, seen.error.message);
  if (seen.received === 0)
    return downVerdict(
      'ICMP_NO_REPLY',
      `${check.host} (${seen.address}) answered none of ${seen.sent} echo requests`,
    );
  const lossPercent =
    seen.sent === 0 ? 100 : Math.round(((seen.sent - seen.received) / seen.sent) * 1000) / 10;
  if (lossPercent > check.maxLossPercent)
    return downVerdict(
      'ICMP_LOSS',
      `${seen.sent - seen.received} of ${seen.sent} echo requests lost (${lossPercent} %, at most ${check.maxLossPercent} % allowed)`,
    );
  const rtt = seen.rttsMs.length > 0 ? average(seen.rttsMs) : null;
  if (check.maxRttMs !== null && rtt !== null && rtt > check.maxRttMs)
    return {
      status: 'degraded',
      code: 'ICMP_SLOW',
      cause: `round trip ${rtt} ms on average, above ${check.maxRttMs} ms`,
      checks: [],
    };
  return upVerdict();
}
