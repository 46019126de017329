import type { CheckConfig } from '../checks/index.js';
import type { SealedSecret } from '../secrets/index.js';
import type { COOKIE_HANDLING, HTTP_METHODS } from './website.schema.js';

/* A website as stored: its document, the parts of it some readers take, and the keys derived from its id. */

/** Why a website that should be checked is not, and since when. */
export interface Unmonitored {
  since: Date;
  reason: string;
}

export interface WebsiteDocument {
  id: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  name: string;
  url: string;
  httpMethod: (typeof HTTP_METHODS)[number];
  /** Pairs, not an object: header names may contain `.` and `$`, which document keys must not. */
  customHeaders: Array<{ name: string; value: string }>;
  /** Headers whose values are credentials, sealed (`secretHeaderContext`); absent on older documents. */
  secretHeaders?: Array<{ name: string; value: SealedSecret }>;
  requestBody: string | null;
  /** The body while it is a secret (then `requestBody` is null); absent on older documents. */
  requestBodySealed?: SealedSecret | null;
  followRedirects: boolean;
  maxRedirects: number;
  cookieHandling: (typeof COOKIE_HANDLING)[number];
  mtlsEnabled: boolean;
  mtlsClientCert: string | null;
  mtlsClientKey: SealedSecret | null;
  checkInterval: number;
  timeoutSeconds: number;
  regions: string[];
  paused: boolean;
  /** Channels told about this website besides those whose scope covers it. */
  notificationChannelIds: number[];
  /** The escalation policy its alerts follow (absent on documents from before: none of its own). */
  escalationPolicyId?: number | null;
  checkConfig: CheckConfig;
  /** The regions whose check queues hold a scheduler for this website now. */
  scheduledRegions: string[];
  /** Set while none of the regions it may be checked from serves (absent on documents from before). */
  unmonitored?: Unmonitored | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields of a website its reported status depends on (besides its customer and monitor state). */
export type WebsiteStatusFields = Pick<
  WebsiteDocument,
  'id' | 'organizationId' | 'customerId' | 'paused' | 'unmonitored'
>;

/** Bound into the sealed client key, so it opens only for its website. */
export const mtlsKeyContext = (websiteId: number) => `websites/${websiteId}/mtlsClientKey`;

/** The primary key of a website document: checks look websites up by it on every run. */
export const websiteKey = (id: number) => `w${id}`;

/** The fields that decide a website's schedulers. */
export type WebsiteSchedulingFields = Pick<
  WebsiteDocument,
  | 'id'
  | 'organizationId'
  | 'customerId'
  | 'checkInterval'
  | 'paused'
  | 'regions'
  | 'scheduledRegions'
  | 'unmonitored'
>;

/** A write that changed what lists show of a website: whose it is, and whether it is gone. */
export interface ShownWrite {
  organizationId: number;
  customerId: number;
  deleted: boolean;
}

export const shownWrite = (
  website: Pick<WebsiteDocument, 'organizationId' | 'customerId'>,
  deleted = false,
): ShownWrite => ({ organizationId: website.organizationId, customerId: website.customerId, deleted });
