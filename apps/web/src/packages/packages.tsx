import { useState } from 'preact/hooks';
import { createPackageBody, patchPackageBody } from '../../../../libs/packages/package.schema.js';
import { api, type Schemas } from '../api/client.js';
import { type Package, packageKeys, usePackages } from '../api/packages.js';
import { write } from '../api/query.js';
import { Check, Field, FormActions, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

type Features = Schemas['PackageFeatures'];
type Limits = Schemas['PackageLimits'];
type Alerting = Schemas['PackageAlerting'];

/** Every feature named: the compiler asks for a new one's words. */
const FEATURES_NAMED: Record<keyof Features, string> = {
  statusCheck: 'Status code check',
  sslCheck: 'TLS certificate check',
  httpsRedirectCheck: 'HTTPS redirect check',
  sizeCheck: 'Page size check',
  responseTimeCheck: 'Response time check',
  keywordCheck: 'Keyword check',
  domainExpiryCheck: 'Domain expiry check',
  mtls: 'Client certificates (mTLS)',
  multiRegion: 'Checks from every region',
  assertions: 'Assertions on the answer',
  reports: 'Client reports',
  heartbeats: 'Heartbeats (jobs that ping)',
  dnsChecks: 'DNS checks',
  portChecks: 'Port checks',
  icmpChecks: 'Ping (ICMP) checks',
  udpChecks: 'UDP checks',
  grpcChecks: 'gRPC health checks',
  websocketChecks: 'WebSocket checks',
  mailServerChecks: 'Mail server checks (SMTP, IMAP, POP3)',
  apiFlows: 'API flows (multi-step API checks)',
  browserChecks: 'Browser journeys (a real browser plays the steps)',
  siteCrawl: 'Site crawls (broken links, mixed content, sitemaps)',
  lighthouse: 'Lighthouse checks (scores and reports)',
};
const FEATURES = Object.entries(FEATURES_NAMED) as Array<[keyof Features, string]>;
/** Every limit named: the compiler asks for a new one's words. */
const LIMITS_NAMED: Record<keyof Limits, string> = {
  maxWebsites: 'Websites per customer',
  minCheckIntervalSeconds: 'Shortest check interval (seconds)',
  resultRetentionDays: 'Results kept (days)',
  maxHeartbeatsPerWebsite: 'Heartbeats per website',
  maxDnsChecksPerWebsite: 'DNS checks per website',
  maxPortChecksPerWebsite: 'Port checks per website',
  maxIcmpChecksPerWebsite: 'Ping checks per website',
  maxUdpChecksPerWebsite: 'UDP checks per website',
  maxGrpcChecksPerWebsite: 'gRPC checks per website',
  maxWebsocketChecksPerWebsite: 'WebSocket checks per website',
  maxMailServerChecksPerWebsite: 'Mail server checks per website',
  maxApiFlowsPerWebsite: 'API flows per website',
  maxBrowserJourneysPerWebsite: 'Browser journeys per website',
  maxStepsPerJourney: 'Steps per journey',
  minBrowserIntervalSeconds: 'Shortest browser journey interval (seconds)',
  maxCrawlsPerWebsite: 'Site crawls per website',
  maxCrawlPages: 'Pages one crawl reads',
  maxCrawlsPerDay: 'Crawl runs per website a day',
  maxLighthouseChecksPerWebsite: 'Lighthouse checks per website',
  maxLighthouseRunsPerDay: 'Lighthouse runs per website a day (pages × presets)',
};
const LIMITS = Object.entries(LIMITS_NAMED) as Array<[keyof Limits, string]>;
const ALERTING: Array<[keyof Alerting, string]> = [
  ['confirmations', 'Failed checks before down'],
  ['recoveryConfirmations', 'Passed checks before up'],
  ['responseTimeThresholdMs', 'Slow above (ms)'],
  ['sslExpiryWarningDays', 'Warn before a certificate expires (days)'],
  ['domainExpiryWarningDays', 'Warn before a domain expires (days)'],
  ['reminderIntervalMinutes', 'Remind while down every (minutes; 0: never)'],
  ['regionQuorum', 'Regions that must agree before down'],
];

export function Packages() {
  const packages = usePackages();
  const [editing, setEditing] = useState<Package | 'new' | null>(null);
  return (
    <section>
      <h1>Packages</h1>
      <p>What a customer’s plan includes: checks, limits and how alerts are raised.</p>
      <FormError message={packages.error} />
      {packages.data?.length === 0 && (
        <p>No packages yet: create the first one, then give it to customers.</p>
      )}
      {packages.data && packages.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col">Key</th>
              <th scope="col">Websites</th>
              <th scope="col">Shortest interval</th>
              <th scope="col">Per website</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {packages.data.map((p) => (
              <tr key={p.id}>
                <td data-label="Package">{p.displayName}</td>
                <td data-label="Key">
                  <code>{p.key}</code>
                </td>
                <td data-label="Websites">{p.limits.maxWebsites}</td>
                <td data-label="Shortest interval">{p.limits.minCheckIntervalSeconds} s</td>
                <td data-label="Per website">{perWebsite(p)}</td>
                <td data-label="Action">
                  <button type="button" class="link" onClick={() => setEditing(p)}>
                    Edit <span class="visually-hidden">{p.displayName}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing === null ? (
        <p>
          <button type="button" onClick={() => setEditing('new')}>
            Create a package
          </button>
        </p>
      ) : (
        <PackageForm
          key={editing === 'new' ? 'new' : editing.id}
          pkg={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
    </section>
  );
}

/** What a website of the package may have beside its HTTP check: "10 heartbeats, no DNS checks, 5 port checks". */
function perWebsite(p: Package): string {
  const one = (on: boolean, limit: number, noun: string) => (on ? `${limit} ${noun}` : `no ${noun}`);
  return [
    one(p.features.heartbeats, p.limits.maxHeartbeatsPerWebsite, 'heartbeats'),
    one(p.features.dnsChecks, p.limits.maxDnsChecksPerWebsite, 'DNS checks'),
    one(p.features.portChecks, p.limits.maxPortChecksPerWebsite, 'port checks'),
    one(p.features.icmpChecks, p.limits.maxIcmpChecksPerWebsite, 'ping checks'),
    one(p.features.udpChecks, p.limits.maxUdpChecksPerWebsite, 'UDP checks'),
    one(p.features.grpcChecks, p.limits.maxGrpcChecksPerWebsite, 'gRPC checks'),
    one(p.features.websocketChecks, p.limits.maxWebsocketChecksPerWebsite, 'WebSocket checks'),
    one(p.features.mailServerChecks, p.limits.maxMailServerChecksPerWebsite, 'mail server checks'),
    one(p.features.apiFlows, p.limits.maxApiFlowsPerWebsite, 'API flows'),
    one(p.features.browserChecks, p.limits.maxBrowserJourneysPerWebsite, 'browser journeys'),
    one(p.features.siteCrawl, p.limits.maxCrawlsPerWebsite, 'site crawls'),
    one(p.features.lighthouse, p.limits.maxLighthouseChecksPerWebsite, 'Lighthouse checks'),
  ].join(', ');
}

/** The form's controls: each feature, limit and alerting setting by its path in the body (`limits.maxWebsites`). */
type Values = { key: string; displayName: string } & Record<`features.${string}`, boolean> &
  Record<`limits.${string}` | `alerting.${string}`, string>;

function initialValues(pkg: Package | null): Values {
  const features: Partial<Features> = pkg?.features ?? {};
  const limits: Partial<Limits> = pkg?.limits ?? {};
  return {
    key: pkg?.key ?? '',
    displayName: pkg?.displayName ?? '',
    ...Object.fromEntries(FEATURES.map(([k]) => [`features.${k}`, features[k] ?? true])),
    ...Object.fromEntries(LIMITS.map(([k]) => [`limits.${k}`, String(limits[k] ?? '')])),
    ...Object.fromEntries(ALERTING.map(([k]) => [`alerting.${k}`, pkg ? String(pkg.alerting[k]) : ''])),
  };
}

/** The numbers typed under `group` (an empty one: the default, or unchanged). */
function numbers(values: Values, group: 'limits' | 'alerting', keys: Array<[string, string]>) {
  return Object.fromEntries(
    keys
      .map(([k]) => [k, values[`${group}.${k}`] ?? ''] as const)
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => [k, Number(v)]),
  );
}

function PackageForm({ pkg, onDone }: { pkg: Package | null; onDone: () => void }) {
  const form = useForm(() => initialValues(pkg), {
    schema: pkg ? patchPackageBody : createPackageBody,
    body: (values) => ({
      key: values.key,
      displayName: values.displayName,
      features: Object.fromEntries(FEATURES.map(([k]) => [k, values[`features.${k}`] ?? true])) as Features,
      limits: numbers(values, 'limits', LIMITS) as Partial<Limits>,
      alerting: numbers(values, 'alerting', ALERTING) as Partial<Alerting>,
    }),
  });
  const { values, errors } = form;
  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = pkg
      ? await write(
          api.PATCH('/api/packages/{id}', { params: { path: { id: pkg.id } }, body }),
          packageKeys.all,
        )
      : await write(api.POST('/api/packages', { body }), packageKeys.all);
    if (form.answered(answer)) onDone();
  };
  return (
    <form onSubmit={save} noValidate aria-label={pkg ? `Edit ${pkg.displayName}` : 'New package'}>
      <h2>{pkg ? `Edit ${pkg.displayName}` : 'New package'}</h2>
      {pkg && <Notice>Changes apply to every customer on this package.</Notice>}
      <FormError message={form.message} />
      <div class="row">
        <Field label="Package name" error={errors.displayName}>
          {(props) => <input {...props} required {...form.bind('displayName')} />}
        </Field>
        <Field label="Key" error={errors.key} hint="Its short name in the API, e.g. starter.">
          {(props) => <input {...props} required {...form.bind('key')} />}
        </Field>
      </div>
      <fieldset>
        <legend>Included</legend>
        <div class="row">
          {FEATURES.map(([k, label]) => (
            <Check
              key={k}
              label={label}
              checked={values[`features.${k}`] ?? true}
              onChange={(on) => form.set(`features.${k}`, on)}
              error={errors[`features.${k}`]}
            />
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Limits {pkg ? '' : '(empty: the default)'}</legend>
        <div class="row">
          {LIMITS.map(([k, label]) => (
            <Field key={k} label={label} error={errors[`limits.${k}`]}>
              {(props) => <input {...props} type="number" {...form.bind(`limits.${k}`)} />}
            </Field>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Alerting {pkg ? '' : '(empty: the default)'}</legend>
        <div class="row">
          {ALERTING.map(([k, label]) => (
            <Field key={k} label={label} error={errors[`alerting.${k}`]}>
              {(props) => <input {...props} type="number" {...form.bind(`alerting.${k}`)} />}
            </Field>
          ))}
        </div>
      </fieldset>
      <FormActions submit={pkg ? 'Save the package' : 'Create the package'} onCancel={onDone} />
    </form>
  );
}
