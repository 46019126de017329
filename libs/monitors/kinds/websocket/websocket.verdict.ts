import type { WebSocketObservation } from '../../../probe/index.js';
import { certificateCheck, downVerdict, type MonitorVerdict, verdictWithCertificate } from '../../verdict.js';
import { expectProblem } from '../probe-kind.js';
import type { WebSocketSettings } from './websocket.schema.js';

/** Opened (with the subprotocol asked) is up; a reply that misses `expect`, a refused upgrade or a bad certificate down. */
export function websocketVerdict(
  s: WebSocketSettings,
  seen: WebSocketObservation,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): MonitorVerdict {
  const ssl = new URL(s.url).protocol === 'wss:' ? certificateCheck(seen.tls, alerting, now) : null;
  const problem = seen.error ? null : expectProblem(s.expect, seen.reply ?? '');
  return verdictWithCertificate(seen.error, ssl, problem ? downVerdict('UNEXPECTED_REPLY', problem) : null);
}
