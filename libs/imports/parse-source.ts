import { mapInTurns } from '../runtime/index.js';
import type { MonitorFormat } from './import-jobs.js';
import { type SourceMonitor, withoutUrlCredentials } from './source-monitor.js';
import { uptimeKumaMonitors } from './uptime-kuma.js';
import { uptimeRobotCsvMonitors, uptimeRobotJsonMonitors } from './uptimerobot.js';
import { webmonCsvMonitors } from './webmon-csv.js';

/**
 * The monitors a file of `format` describes (400 naming `content` when it is not one), credentials
 * taken out of their URLs. A CSV is read a slice at a time (the API's other requests go between).
 */
export async function parseSource(
  format: MonitorFormat,
  content: string,
  customerColumn: string | null,
): Promise<SourceMonitor[]> {
  return mapInTurns(await read(format, content, customerColumn), withoutUrlCredentials);
}

async function read(
  format: MonitorFormat,
  content: string,
  customerColumn: string | null,
): Promise<SourceMonitor[]> {
  switch (format) {
    case 'csv':
      return webmonCsvMonitors(content, customerColumn);
    case 'uptimerobot-csv':
      return uptimeRobotCsvMonitors(content, customerColumn);
    case 'uptimerobot-json':
      return uptimeRobotJsonMonitors(content);
    case 'uptime-kuma':
      return uptimeKumaMonitors(content);
  }
}
