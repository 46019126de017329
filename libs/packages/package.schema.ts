import { z } from 'zod';
import { nameText, patchBody } from '../contract/index.js';

export const FEATURES = [
  'sslCheck',
  'httpsRedirectCheck',
  'statusCheck',
  'sizeCheck',
  'responseTimeCheck',
  'keywordCheck',
  'domainExpiryCheck',
  'mtls',
  'multiRegion',
  'assertions',
  'reports',
  'heartbeats',
  'dnsChecks',
  'portChecks',
  'icmpChecks',
  'udpChecks',
  'grpcChecks',
  'websocketChecks',
  'mailServerChecks',
  'apiFlows',
  'browserChecks',
  'siteCrawl',
  'lighthouse',
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * Whether the package includes the feature: a package stored before the feature existed has no
 * word on it, and an omitted feature is allowed (as when it is created).
 */
export function includesFeature(
  pkg: { features: Partial<Record<Feature, boolean>> },
  feature: Feature,
): boolean {
  return pkg.features[feature] !== false;
}

/** Each field once, without defaults: PATCH bodies must not fill in what was not sent. */
const featureFields = Object.fromEntries(FEATURES.map((feature) => [feature, z.boolean()])) as Record<
  Feature,
  z.ZodBoolean
>;

const limitFields = {
  maxWebsites: z.number().int().min(0).max(100_000).describe('Websites per customer'),
  minCheckIntervalSeconds: z.number().int().min(10).max(86_400),
  resultRetentionDays: z.number().int().min(1).max(730),
  maxHeartbeatsPerWebsite: z.number().int().min(0).max(100),
  maxDnsChecksPerWebsite: z.number().int().min(0).max(100),
  maxPortChecksPerWebsite: z.number().int().min(0).max(100),
  maxIcmpChecksPerWebsite: z.number().int().min(0).max(100),
  maxUdpChecksPerWebsite: z.number().int().min(0).max(100),
  maxGrpcChecksPerWebsite: z.number().int().min(0).max(100),
  maxWebsocketChecksPerWebsite: z.number().int().min(0).max(100),
  maxMailServerChecksPerWebsite: z
    .number()
    .int()
    .min(0)
    .max(100)
    .describe('SMTP, IMAP and POP3 checks together'),
  maxApiFlowsPerWebsite: z.number().int().min(0).max(100),
  maxStepsPerJourney: z
    .number()
    .int()
    .min(1)
    .max(100)
    .describe('Steps one journey may have (an API flow’s requests, a browser journey’s steps)'),
  maxBrowserJourneysPerWebsite: z.number().int().min(0).max(100),
  minBrowserIntervalSeconds: z
    .number()
    .int()
    .min(60)
    .max(86_400)
    .describe('The shortest interval of a browser journey (each run is seconds of a browser)'),
  maxCrawlsPerWebsite: z.number().int().min(0).max(10).describe('Site crawls (kind crawl) per website'),
  maxCrawlPages: z.number().int().min(1).max(10_000).describe('Pages one crawl reads for links at most'),
  maxCrawlsPerDay: z
    .number()
    .int()
    .min(1)
    .max(240)
    .describe('Crawl runs per website a day, scheduled and on request (hourly is 24)'),
  maxLighthouseChecksPerWebsite: z
    .number()
    .int()
    .min(0)
    .max(10)
    .describe('Lighthouse checks (kind lighthouse) per website'),
  maxLighthouseRunsPerDay: z
    .number()
    .int()
    .min(1)
    .max(240)
    .describe('Lighthouse runs per website a day (each page and preset is one), scheduled and on request'),
};

const alertingFields = {
  confirmations: z.number().int().min(1).max(10).describe('Consecutive failed checks before down'),
  recoveryConfirmations: z.number().int().min(1).max(10),
  responseTimeThresholdMs: z.number().int().min(1).max(120_000),
  sslExpiryWarningDays: z.number().int().min(0).max(365),
  domainExpiryWarningDays: z.number().int().min(0).max(365),
  reminderIntervalMinutes: z.number().int().min(0).max(10_080).describe('0: no reminders'),
  regionQuorum: z.number().int().min(1).max(20).describe('Regions that must agree before down'),
};

const FEATURE_DEFAULTS = Object.fromEntries(FEATURES.map((feature) => [feature, true])) as Record<
  Feature,
  boolean
>;
const LIMIT_DEFAULTS = {
  maxWebsites: 50,
  minCheckIntervalSeconds: 60,
  resultRetentionDays: 30,
  maxHeartbeatsPerWebsite: 10,
  maxDnsChecksPerWebsite: 10,
  maxPortChecksPerWebsite: 10,
  maxIcmpChecksPerWebsite: 10,
  maxUdpChecksPerWebsite: 10,
  maxGrpcChecksPerWebsite: 10,
  maxWebsocketChecksPerWebsite: 10,
  maxMailServerChecksPerWebsite: 10,
  // Fewer than the other kinds: each API flow is up to maxStepsPerJourney requests a check.
  maxApiFlowsPerWebsite: 5,
  maxStepsPerJourney: 50,
  // A browser run costs a worker far more than a request: few per website, every 5 minutes at most.
  maxBrowserJourneysPerWebsite: 3,
  minBrowserIntervalSeconds: 300,
  // A crawl is minutes of requests and Lighthouse a minute of a browser: one of each, a few runs a day.
  maxCrawlsPerWebsite: 1,
  maxCrawlPages: 500,
  maxCrawlsPerDay: 24,
  maxLighthouseChecksPerWebsite: 1,
  maxLighthouseRunsPerDay: 8,
};

/** A package's limits, with the defaults of limits added after it was stored. */
export function limitsOf(pkg: { limits: Partial<Limits> }): Limits {
  return { ...LIMIT_DEFAULTS, ...pkg.limits };
}
const ALERTING_DEFAULTS = {
  confirmations: 2,
  recoveryConfirmations: 1,
  responseTimeThresholdMs: 5000,
  sslExpiryWarningDays: 14,
  domainExpiryWarningDays: 30,
  reminderIntervalMinutes: 0,
  regionQuorum: 1,
};

/**
 * A nested object as a client sends it (any subset of its fields) and as the API shows it (all),
 * each named once so generated clients share one class between create and update.
 */
function nestedObject<T extends Record<string, z.ZodType>>(fields: T, id: string) {
  return {
    fields,
    sent: z.strictObject(fields).partial().meta({ id }),
    shown: z.object(fields).meta({ id }),
  };
}

const features = nestedObject(featureFields, 'PackageFeatures');
const limits = nestedObject(limitFields, 'PackageLimits');
const alerting = nestedObject(alertingFields, 'PackageAlerting');

/** A nested object of a new package: the fields sent over the defaults. */
function withDefaults<T extends Record<string, z.ZodType>>(
  nested: { fields: T; sent: z.ZodType<Record<string, unknown>> },
  defaults: { [K in keyof T]: z.output<T[K]> },
) {
  return nested.sent.optional().transform(
    (sent) =>
      ({
        ...defaults,
        ...Object.fromEntries(Object.entries(sent ?? {}).filter(([, v]) => v !== undefined)),
      }) as {
        [K in keyof T]: z.output<T[K]>;
      },
  );
}

export const featuresSchema = withDefaults(features, FEATURE_DEFAULTS);
export const limitsSchema = withDefaults(limits, LIMIT_DEFAULTS);
export const alertingSchema = withDefaults(alerting, ALERTING_DEFAULTS);

const packageKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'must be 1-40 lowercase letters, digits, dashes or underscores')
  .describe('The raw package type, e.g. "starter"; POST /api/v1/customers takes it as `plan`');

export const createPackageBody = z
  .strictObject({
    key: packageKey,
    displayName: nameText(100),
    features: featuresSchema.describe('Omitted features are allowed'),
    limits: limitsSchema,
    alerting: alertingSchema,
  })
  .meta({ id: 'PackageCreate' });

/** A PATCH body: any top-level field, and any subset of each nested object (merged into it). */
export const patchPackageBody = patchBody(
  z
    .strictObject({
      key: packageKey,
      displayName: nameText(100),
      features: features.sent,
      limits: limits.sent,
      alerting: alerting.sent,
    })
    .partial(),
).meta({ id: 'PackageUpdate' });

export type Features = z.output<typeof featuresSchema>;
export type Limits = z.output<typeof limitsSchema>;
export type Alerting = z.output<typeof alertingSchema>;

export const packageView = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    key: z.string(),
    displayName: z.string(),
    features: features.shown,
    limits: limits.shown,
    alerting: alerting.shown,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Package' });
