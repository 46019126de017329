import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import {
  createWebsiteBody,
  HTTP_METHODS,
  patchWebsiteBody,
} from '../../../../libs/websites/website.schema.js';
import { useChannels } from '../api/channels.js';
import { api, type Schemas } from '../api/client.js';
import { useOrganization, useVisibleCustomers } from '../api/organization.js';
import { write } from '../api/query.js';
import { useWebsite, websiteKeys } from '../api/websites.js';
import { CustomerOptions } from '../customers/customer-options.js';
import { PolicyField } from '../escalation/policy-field.js';
import { Check, Field, FormError, Loading, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { CheckConfigForm } from './check-config-form.js';
import { HeaderRows, headerFields, headerRows } from './header-rows.js';

type Website = Schemas['Website'];

const METHODS: readonly Schemas['HttpMethod'][] = HTTP_METHODS;

/** `/websites/new?customerId=…` adds a website; `/websites/:ref/edit` changes one, with its checks. */
export function WebsiteEdit() {
  const { params } = useRoute();
  const ref = params.ref && params.ref !== 'new' ? params.ref : null;
  const website = useWebsite(ref);
  if (ref && !website.data) return <Loading error={website.error} />;
  return (
    <section>
      <p>
        <a href={website.data ? `/websites/${website.data.publicId}` : '/'}>
          ← {website.data ? website.data.name : 'All websites'}
        </a>
      </p>
      <h1>{website.data ? `Edit ${website.data.name}` : 'Add a website'}</h1>
      <WebsiteForm website={website.data ?? null} />
      {website.data && <CheckConfigForm websiteRef={website.data.publicId} />}
    </section>
  );
}

function WebsiteForm({ website }: { website: Website | null }) {
  const { query, route } = useLocation();
  const customers = useVisibleCustomers();
  const channels = useChannels();
  const organization = useOrganization();
  const [headers, setHeaders] = useState(() => headerRows(website));
  const [mtlsClientCert, setMtlsClientCert] = useState<string | null>(null);
  const [mtlsClientKey, setMtlsClientKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm(
    {
      customerId: String(website?.customerId ?? query.customerId ?? ''),
      name: website?.name ?? '',
      url: website?.url ?? 'https://',
      httpMethod: website?.httpMethod ?? 'GET',
      requestBody: website?.requestBody ?? '',
      requestBodySecret: website?.requestBodySecret ?? false,
      followRedirects: website?.followRedirects ?? true,
      maxRedirects: String(website?.maxRedirects ?? 5),
      cookieHandling: website?.cookieHandling ?? 'jar',
      mtlsEnabled: website?.mtlsEnabled ?? false,
      checkInterval: String(website?.checkInterval ?? 300),
      timeoutSeconds: website ? String(website.timeoutSeconds) : '',
      regions: (website?.regions ?? []).join(', '),
      paused: website?.paused ?? false,
      channelIds: (website?.notificationChannelIds ?? []).map(String),
      escalationPolicyId: website?.escalationPolicyId ? String(website.escalationPolicyId) : '',
    },
    {
      // The API's own schemas: a value it would refuse is shown at its field before anything is sent.
      schema: website ? patchWebsiteBody : createWebsiteBody,
      body: (v) => ({
        // None chosen: the schema says it is required, and nothing is sent.
        customerId: (v.customerId ? Number(v.customerId) : undefined) as number,
        name: v.name,
        url: v.url,
        httpMethod: v.httpMethod as Schemas['HttpMethod'],
        ...headerFields(headers),
        requestBody:
          v.requestBody === '' && v.requestBodySecret && website?.requestBodySecret
            ? undefined
            : v.requestBody || null,
        requestBodySecret: v.requestBodySecret,
        followRedirects: v.followRedirects,
        maxRedirects: Number(v.maxRedirects),
        cookieHandling: v.cookieHandling as Schemas['CookieHandling'],
        mtlsEnabled: v.mtlsEnabled,
        ...(mtlsClientCert !== null ? { mtlsClientCert } : {}),
        ...(mtlsClientKey !== null ? { mtlsClientKey } : {}),
        checkInterval: Number(v.checkInterval),
        ...(v.timeoutSeconds.trim() ? { timeoutSeconds: Number(v.timeoutSeconds) } : {}),
        regions: v.regions
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
        paused: v.paused,
        notificationChannelIds: v.channelIds.map(Number),
        escalationPolicyId: v.escalationPolicyId ? Number(v.escalationPolicyId) : null,
      }),
    },
  );
  const { values, errors } = form;

  useEffect(() => {
    if (!values.customerId && customers.data?.length === 1)
      form.set('customerId', String(customers.data[0]?.id));
  }, [customers.data, values.customerId]);

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    setBusy(true);
    const answer = website
      ? await write(
          api.PATCH('/api/websites/{websiteRef}', {
            params: { path: { websiteRef: website.publicId } },
            body,
          }),
          websiteKeys.all,
        )
      : await write(api.POST('/api/websites', { body }), websiteKeys.all);
    setBusy(false);
    if (form.answered(answer) && answer.data && !website)
      route(`/websites/${answer.data.publicId}/edit?created=1`);
  };

  const readPem = async (file: File | undefined, set: (pem: string | null) => void) => {
    set(file ? await file.text() : null);
  };

  return (
    <form onSubmit={save} noValidate aria-label="Website">
      {query.created && !form.saved && (
        <Notice>The website is added and scheduled. Set up its checks below.</Notice>
      )}
      {form.saved && <Notice>Saved.</Notice>}
      <FormError message={form.message} />
      <fieldset>
        <legend>What to check</legend>
        <Field label="Customer" error={errors.customerId}>
          {(props) => (
            <select {...props} required {...form.bind('customerId')}>
              <CustomerOptions customers={customers.data} />
            </select>
          )}
        </Field>
        <Field label="Name" error={errors.name}>
          {(props) => <input {...props} required {...form.bind('name')} />}
        </Field>
        <Field label="URL" error={errors.url} hint="http:// or https://">
          {(props) => <input {...props} type="url" required {...form.bind('url')} />}
        </Field>
        <div class="row">
          <Field label="Method" error={errors.httpMethod}>
            {(props) => (
              <select {...props} {...form.bind('httpMethod')}>
                {METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Check every (seconds)" error={errors.checkInterval}>
            {(props) => <input {...props} type="number" min={1} {...form.bind('checkInterval')} />}
          </Field>
          <Field
            label="Timeout (seconds)"
            error={errors.timeoutSeconds}
            hint={website ? undefined : 'Empty: the default'}
          >
            {(props) => <input {...props} type="number" min={1} {...form.bind('timeoutSeconds')} />}
          </Field>
        </div>
        <Field label="Regions" error={errors.regions} hint="Comma-separated; empty: the package’s regions">
          {(props) => <input {...props} {...form.bind('regions')} />}
        </Field>
        <Check
          label="Paused (not checked)"
          checked={values.paused}
          onChange={(on) => form.set('paused', on)}
          error={errors.paused}
        />
      </fieldset>

      <fieldset>
        <legend>Request headers</legend>
        <HeaderRows rows={headers} errors={errors} onChange={setHeaders} />
      </fieldset>

      <fieldset>
        <legend>Body, redirects and cookies</legend>
        <Field
          label="Request body"
          error={errors.requestBody}
          hint={
            website?.requestBodySecret
              ? 'Secret, set: never shown. Type a new body to replace it.'
              : undefined
          }
        >
          {(props) => <textarea {...props} rows={3} {...form.bind('requestBody')} />}
        </Field>
        <Check
          label="The body is secret (write-only)"
          checked={values.requestBodySecret}
          onChange={(on) => form.set('requestBodySecret', on)}
        />
        <Check
          label="Follow redirects"
          checked={values.followRedirects}
          onChange={(on) => form.set('followRedirects', on)}
        />
        <div class="row">
          <Field label="At most redirects" error={errors.maxRedirects}>
            {(props) => <input {...props} type="number" min={0} {...form.bind('maxRedirects')} />}
          </Field>
          <Field label="Cookies" error={errors.cookieHandling}>
            {(props) => (
              <select {...props} {...form.bind('cookieHandling')}>
                <option value="jar">Kept across redirects of one check</option>
                <option value="none">Not kept</option>
              </select>
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset>
        <legend>Client certificate (mTLS)</legend>
        <Check
          label="Send a client certificate"
          checked={values.mtlsEnabled}
          onChange={(on) => form.set('mtlsEnabled', on)}
          error={errors.mtlsEnabled}
        />
        <Field
          label="Certificate (PEM file)"
          error={errors.mtlsClientCert}
          hint={website?.mtlsClientCert ? 'A certificate is set; choose a file to replace it.' : undefined}
        >
          {(props) => (
            <input
              {...props}
              type="file"
              accept=".pem,.crt,.cer,application/x-pem-file"
              onChange={(e) => void readPem(e.currentTarget.files?.[0], setMtlsClientCert)}
            />
          )}
        </Field>
        <Field
          label="Private key (PEM file)"
          error={errors.mtlsClientKey}
          hint={
            website?.mtlsClientKeySet ? 'A key is set (write-only); choose a file to replace it.' : undefined
          }
        >
          {(props) => (
            <input
              {...props}
              type="file"
              accept=".pem,.key,application/x-pem-file"
              onChange={(e) => void readPem(e.currentTarget.files?.[0], setMtlsClientKey)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Alert channels</legend>
        {channels.data?.length === 0 ? (
          <p class="muted">
            No channels yet: <a href="/channels/new">add one</a> (Slack, e-mail …) to be alerted.
          </p>
        ) : (
          <p class="hint">
            Channels that receive every website’s events alert about this one anyway; choose those that
            receive only the websites that choose them.
          </p>
        )}
        <div class="row">
          {channels.data?.map((channel) => (
            <Check
              key={channel.id}
              label={channel.name}
              checked={values.channelIds.includes(String(channel.id))}
              onChange={(on) =>
                form.set(
                  'channelIds',
                  on
                    ? [...values.channelIds, String(channel.id)]
                    : values.channelIds.filter((id) => id !== String(channel.id)),
                )
              }
            />
          ))}
        </div>
        {errors.notificationChannelIds && <p class="error-text">⚠ {errors.notificationChannelIds}</p>}
        <PolicyField
          bound={form.bind('escalationPolicyId')}
          error={errors.escalationPolicyId}
          fallbacks={[
            {
              whose: 'its customer’s',
              policyId: customers.data?.find((c) => String(c.id) === values.customerId)?.escalationPolicyId,
            },
            { whose: 'the organization’s default', policyId: organization.data?.escalationPolicyId },
          ]}
        />
      </fieldset>
      <button type="submit" class="primary" disabled={busy}>
        {website ? 'Save the website' : 'Add the website'}
      </button>
    </form>
  );
}
