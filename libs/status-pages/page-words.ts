import type { OtherMonitorKind } from '../events/index.js';
import { type MessageKey, type Translator, translator } from './i18n/catalog.js';
import type { Overall } from './post-model.js';

/** The keys of the words a page says for its states, its monitors' kinds and its overall state. */

/** A website's or a monitor's state as a page shows it. */
export type ShownStatus =
  | 'up'
  | 'degraded'
  | 'down'
  | 'maintenance'
  | 'unknown'
  | 'paused'
  | 'unmonitored'
  | 'cancelled';

const STATUS_KEY: Record<ShownStatus, MessageKey> = {
  up: 'status.up',
  degraded: 'status.degraded',
  down: 'status.down',
  maintenance: 'status.maintenance',
  unknown: 'status.unknown',
  paused: 'status.notMonitored',
  unmonitored: 'status.notMonitored',
  cancelled: 'status.notMonitored',
};

/** A state in the page's words (English unless a page's translator is given). */
export const statusText = (status: ShownStatus, t: Translator = translator()) => t.text(STATUS_KEY[status]);

/** What a visitor of a public page reads for each kind (no jargon where a plain word does). */
export const MONITOR_KIND_KEY: Record<OtherMonitorKind, MessageKey> = {
  heartbeat: 'kind.heartbeat',
  dns: 'kind.dns',
  port: 'kind.port',
  icmp: 'kind.icmp',
  udp: 'kind.udp',
  grpc: 'kind.grpc',
  websocket: 'kind.websocket',
  smtp: 'kind.smtp',
  imap: 'kind.imap',
  pop3: 'kind.pop3',
  'api-flow': 'kind.apiFlow',
  browser: 'kind.browser',
  crawl: 'kind.crawl',
  lighthouse: 'kind.lighthouse',
};

const OVERALL_KEY: Record<Overall['state'], MessageKey> = {
  operational: 'overall.operational',
  degraded: 'overall.degraded',
  'partial-outage': 'overall.partialOutage',
  'major-outage': 'overall.majorOutage',
  maintenance: 'overall.maintenance',
  unknown: 'overall.unknown',
};

/** The page's overall state in its words. */
export const overallText = (state: Overall['state'], t: Translator = translator()) =>
  t.text(OVERALL_KEY[state]);
