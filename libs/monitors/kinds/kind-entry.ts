import type { z } from 'zod';
import type { OtherMonitorKind } from '../../events/index.js';
import type { Feature, Limits } from '../../packages/index.js';
import type { Lane } from '../../scheduler/index.js';

/** Every kind of monitor: a website's own HTTP check and the monitors it has besides. */
export type MonitorKindName = 'http' | OtherMonitorKind;

/** A part of a kind's folder the registry names; its own typed signature is in the folder. */
type Part<R = unknown> = (...args: never[]) => R;

/** What every entry of `MONITOR_KINDS` names, whichever engine runs the kind. */
interface KindEntryBase {
  kind: MonitorKindName;
  /** What people call one: "ping check". */
  noun: string;
  /** One line for the API document: what it does and what fails it. */
  description: string;
  /** The package feature that includes it; null: every package (HTTP: each of its checks has its own). */
  feature: Feature | null;
  /** The package's limit per website; null: exactly one per website, the website itself (HTTP). */
  limit: keyof Limits | null;
  lane: Lane;
  /**
   * Its own fields as a create takes them and its probe and verdict read them (zod), the name,
   * interval and timeout every monitor has aside; HTTP's are the website's (the website is its check).
   */
  settings: z.ZodType;
  /** Pure: what it observed and its settings in, up / degraded / down with each failure named out. */
  verdict: Part;
  /** What a result keeps of what it saw: bounded, secrets redacted; null: nothing beyond the result. */
  evidence: Part | null;
}

/** Checked from each region on an interval: its probe (I/O only) gathers under one deadline. */
export interface IntervalKindEntry extends KindEntryBase {
  trigger: 'interval';
  probe: Part<Promise<unknown>>;
}

/** Told by pings (a cron job's heartbeat): nothing to probe; its deadline verdict says what silence means. */
export interface PushKindEntry extends KindEntryBase {
  trigger: 'push';
  probe: null;
  deadline: Part;
}

export type MonitorKindEntry = IntervalKindEntry | PushKindEntry;
