/**
 * The statuses and event kinds, as plain constants: the API's schemas and the app (which imports
 * no server code) share them.
 */

/** What the API reports of a website: its confirmed health, unless something keeps it from being checked. */
export const WEBSITE_STATUSES = [
  'unknown',
  'up',
  'degraded',
  'down',
  'maintenance',
  'paused',
  'cancelled',
  'unmonitored',
] as const;

/** Every kind of event a channel can receive. */
export const EVENT_KINDS = [
  'website.down',
  'website.up',
  'website.degraded',
  'website.unmonitored',
  'website.monitored',
  'ssl.expiring',
  'ssl.invalid',
  'domain.expiring',
  'maintenance.started',
  'maintenance.ended',
  'incident.acknowledged',
  'heartbeat.down',
  'heartbeat.up',
  'dns.down',
  'dns.up',
  'dns.changed',
  'port.down',
  'port.up',
  'icmp.down',
  'icmp.up',
  'udp.down',
  'udp.up',
  'grpc.down',
  'grpc.up',
  'websocket.down',
  'websocket.up',
  'smtp.down',
  'smtp.up',
  'imap.down',
  'imap.up',
  'pop3.down',
  'pop3.up',
  'api-flow.down',
  'api-flow.up',
  'browser.down',
  'browser.up',
  'crawl.down',
  'crawl.up',
  'lighthouse.down',
  'lighthouse.up',
  'site.links_broken',
  'site.mixed_content',
  'site.lighthouse_degraded',
  'test',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
