import type { TimelineActor } from './incident-timeline.js';
import type { MonitorRef } from './monitor-state.js';
import type { RunScreenshot } from './run-screenshot.js';

export const INCIDENTS = 'incidents';

export interface IncidentDocument {
  id: string;
  organizationId: number;
  websiteId: number;
  /** The website's other monitor that went down (absent or null: its HTTP check). */
  monitor?: MonitorRef | null;
  startedAt: Date;
  resolvedAt: Date | null;
  /** What the confirming result said (error or failed checks). */
  cause: string;
  regions: string[];
  /** Each region down when it opened: when its run of failures began, and its first failing result. */
  firstFailures?: Array<{ region: string; at: Date; resultId: string | null }>;
  /** A browser journey's: the page when the run that opened it failed (its file stored; absent: none). */
  screenshot?: RunScreenshot;
  /** Someone is on it: reminders stop (absent: incidents from before acknowledgements). */
  acknowledgement?: IncidentAcknowledgement | null;
  /** The root cause as the status pages show it. */
  publicNote?: { text: string; at: Date } | null;
}

export interface IncidentAcknowledgement {
  at: Date;
  by: TimelineActor;
  note: string | null;
}
