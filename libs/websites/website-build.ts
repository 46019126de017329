import { type FieldError, invalidInput, notAllowed } from '../errors/index.js';
import type { Feature, PackageDocument } from '../packages/index.js';
import type { SealedSecret, SecretBox } from '../secrets/index.js';
import { refusedUrl, type TargetGuard } from '../targets/index.js';
import { keyMatchesCertificate, parseCertificate, parsePrivateKey } from './pem.js';
import { applyRequestInput } from './secret-request.js';
import { mtlsKeyContext, type WebsiteDocument } from './website.repository.js';
import { WEBSITE_DEFAULTS, type WebsiteInput } from './website.schema.js';

export function headersToRecord(pairs: WebsiteDocument['customHeaders']): Record<string, string> {
  return Object.fromEntries(pairs.map(({ name, value }) => [name, value]));
}

type Settings = Omit<
  WebsiteDocument,
  | 'id'
  | 'publicId'
  | 'organizationId'
  | 'checkConfig'
  | 'scheduledRegions'
  | 'unmonitored'
  | 'createdAt'
  | 'updatedAt'
>;

function defaultsFor(base: Pick<Settings, 'customerId' | 'name' | 'url' | 'mtlsClientKey'>): Settings {
  return { ...WEBSITE_DEFAULTS, customHeaders: [], regions: [], notificationChannelIds: [], ...base };
}

function forbiddenByPackage(
  pkg: PackageDocument,
  problems: Array<FieldError & { feature: Feature | 'limits' }>,
): never {
  throw notAllowed(
    `The package "${pkg.displayName}" does not allow this: ${[...new Set(problems.map((p) => p.feature))].join(', ')}`,
    problems.map(({ path, message }) => ({ path, message })),
  );
}

/**
 * The website settings after applying `input` to `current` (or to the defaults, for a create or a
 * full update), checked against the rules that span fields and against the customer's package.
 * `mtlsClientKey` is write-only: omitted, it is kept (also in a full update: a client cannot send
 * back what it cannot read); null clears it; a new key is sealed for this website.
 */
export function buildWebsiteSettings(args: {
  websiteId: number;
  current: WebsiteDocument | null;
  input: WebsiteInput;
  full: boolean;
  pkg: PackageDocument;
  secrets: SecretBox;
  /** What a URL's IP literal may be (refused ranges answer 400 at once, not at every check). */
  guard: TargetGuard;
}): Settings {
  const { input, current, pkg, secrets } = args;
  const storedKey: SealedSecret | null = current?.mtlsClientKey ?? null;
  const base: Settings =
    args.full || !current
      ? defaultsFor({
          customerId: input.customerId ?? current?.customerId ?? 0,
          name: input.name ?? current?.name ?? '',
          url: input.url ?? current?.url ?? '',
          mtlsClientKey: storedKey,
        })
      : // Websites stored before notification channels existed have no list.
        { ...current, notificationChannelIds: current.notificationChannelIds ?? [] };
  const {
    mtlsClientKey: keyInput,
    customHeaders,
    secretHeaders,
    requestBody,
    requestBodySecret,
    ...plainInput
  } = input;
  const request = applyRequestInput({
    websiteId: args.websiteId,
    current: {
      customHeaders: current?.customHeaders ?? [],
      secretHeaders: current?.secretHeaders ?? [],
      requestBody: current?.requestBody ?? null,
      requestBodySealed: current?.requestBodySealed ?? null,
    },
    input: { customHeaders, secretHeaders, requestBody, requestBodySecret },
    full: args.full || !current,
    secrets,
  });
  const settings: Settings = { ...base, ...plainInput, ...request.stored };
  // A default timeout fits the interval it goes with: a 10 s interval gets 9 s, not 30 s and a 400.
  if (input.timeoutSeconds === undefined && (args.full || !current))
    settings.timeoutSeconds = Math.min(
      WEBSITE_DEFAULTS.timeoutSeconds,
      Math.max(1, settings.checkInterval - 1),
    );

  const invalid: FieldError[] = [...request.problems];
  const refused = input.url === undefined ? undefined : refusedUrl(args.guard, settings.url);
  if (refused) invalid.push({ path: 'url', message: refused });
  const forbidden: Array<FieldError & { feature: Feature | 'limits' }> = [];
  if (settings.timeoutSeconds >= settings.checkInterval) {
    invalid.push({
      path: 'timeoutSeconds',
      message: `must be less than checkInterval (${settings.checkInterval} s)`,
    });
  }
  if (settings.httpMethod === 'HEAD' && settings.requestBody !== null) {
    invalid.push({ path: 'requestBody', message: 'a HEAD request carries no body' });
  }
  if (settings.checkInterval < pkg.limits.minCheckIntervalSeconds) {
    forbidden.push({
      path: 'checkInterval',
      message: `must be at least ${pkg.limits.minCheckIntervalSeconds} s on this package`,
      feature: 'limits',
    });
  }
  if (settings.regions.length > 1 && !pkg.features.multiRegion) {
    forbidden.push({
      path: 'regions',
      message: 'checking from several regions needs the multiRegion feature',
      feature: 'multiRegion',
    });
  }
  if (settings.mtlsEnabled && !pkg.features.mtls) {
    forbidden.push({
      path: 'mtlsEnabled',
      message: 'client certificates need the mtls feature',
      feature: 'mtls',
    });
  }

  // mTLS: parse what was sent, require both halves while enabled, and make sure they belong together.
  const certificate = settings.mtlsClientCert === null ? null : parseCertificate(settings.mtlsClientCert);
  if (certificate && !certificate.ok) invalid.push({ path: 'mtlsClientCert', message: certificate.message });
  const newKey = typeof keyInput === 'string' ? parsePrivateKey(keyInput) : null;
  if (newKey && !newKey.ok) invalid.push({ path: 'mtlsClientKey', message: newKey.message });
  const keyAfter: SealedSecret | null | 'new' =
    keyInput === undefined ? base.mtlsClientKey : keyInput === null ? null : 'new';
  if (settings.mtlsEnabled && settings.mtlsClientCert === null) {
    invalid.push({ path: 'mtlsClientCert', message: 'is required while mtlsEnabled is true' });
  }
  if (settings.mtlsEnabled && keyAfter === null) {
    invalid.push({ path: 'mtlsClientKey', message: 'is required while mtlsEnabled is true' });
  }
  const certificateChanged = input.mtlsClientCert !== undefined;
  if (certificate?.ok && (newKey?.ok || (keyAfter !== null && keyAfter !== 'new' && certificateChanged))) {
    const key = newKey?.ok
      ? newKey
      : parsePrivateKey(secrets.open(keyAfter as SealedSecret, mtlsKeyContext(args.websiteId)));
    if (key.ok && !keyMatchesCertificate(certificate.value, key.value)) {
      invalid.push({ path: 'mtlsClientKey', message: 'does not belong to mtlsClientCert' });
    }
  }

  if (invalid.length > 0)
    throw invalidInput(`Invalid website: ${invalid.map((e) => e.path).join(', ')}`, invalid);
  if (forbidden.length > 0) forbiddenByPackage(pkg, forbidden);
  return {
    ...settings,
    mtlsClientKey:
      keyAfter === 'new'
        ? secrets.seal(keyInput as string, mtlsKeyContext(args.websiteId))
        : (keyAfter as SealedSecret | null),
  };
}
