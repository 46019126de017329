import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, fieldErrors, must, problemText, type Schemas } from '../api/client.js';
import { useVisibleCustomers } from '../api/organization.js';
import { Check, Field, FormError, Loading, Notice } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';
import { CheckConfigForm } from './check-config-form.js';

type Website = Schemas['Website'];
interface HeaderRow {
  name: string;
  value: string;
  secret: boolean;
  /** A stored secret header: its value is never shown; empty keeps it. */
  stored: boolean;
  removed: boolean;
}

const METHODS: Schemas['HttpMethod'][] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** `/websites/new?customerId=…` adds a website; `/websites/:ref/edit` changes one, with its checks. */
export function WebsiteEdit() {
  const { params } = useRoute();
  const ref = params.ref && params.ref !== 'new' ? params.ref : null;
  const website = useLoad(
    async () =>
      ref
        ? must(await api.GET('/api/websites/{websiteRef}', { params: { path: { websiteRef: ref } } }))
        : null,
    [ref],
  );
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
  const [customerId, setCustomerId] = useState(String(website?.customerId ?? query.customerId ?? ''));
  const [name, setName] = useState(website?.name ?? '');
  const [url, setUrl] = useState(website?.url ?? 'https://');
  const [httpMethod, setHttpMethod] = useState<Schemas['HttpMethod']>(website?.httpMethod ?? 'GET');
  const [headers, setHeaders] = useState<HeaderRow[]>(() => [
    ...Object.entries(website?.customHeaders ?? {}).map(([n, value]) => ({
      name: n,
      value,
      secret: false,
      stored: false,
      removed: false,
    })),
    ...(website?.secretHeaderNames ?? []).map((n) => ({
      name: n,
      value: '',
      secret: true,
      stored: true,
      removed: false,
    })),
  ]);
  const [requestBody, setRequestBody] = useState(website?.requestBody ?? '');
  const [requestBodySecret, setRequestBodySecret] = useState(website?.requestBodySecret ?? false);
  const [followRedirects, setFollowRedirects] = useState(website?.followRedirects ?? true);
  const [maxRedirects, setMaxRedirects] = useState(String(website?.maxRedirects ?? 5));
  const [cookieHandling, setCookieHandling] = useState<Schemas['CookieHandling']>(
    website?.cookieHandling ?? 'jar',
  );
  const [mtlsEnabled, setMtlsEnabled] = useState(website?.mtlsEnabled ?? false);
  const [mtlsClientCert, setMtlsClientCert] = useState<string | null>(null);
  const [mtlsClientKey, setMtlsClientKey] = useState<string | null>(null);
  const [checkInterval, setCheckInterval] = useState(String(website?.checkInterval ?? 300));
  const [timeoutSeconds, setTimeoutSeconds] = useState(website ? String(website.timeoutSeconds) : '');
  const [regions, setRegions] = useState((website?.regions ?? []).join(', '));
  const [paused, setPaused] = useState(website?.paused ?? false);
  const channels = useLoad(async () => (await api.GET('/api/notification-channels')).data ?? [], []);
  const [channelIds, setChannelIds] = useState<number[]>(website?.notificationChannelIds ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!customerId && customers.data?.length === 1) setCustomerId(String(customers.data[0]?.id));
  }, [customers.data, customerId]);

  const updateHeader = (index: number, change: Partial<HeaderRow>) =>
    setHeaders((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    const customHeaders: Record<string, string> = {};
    const secretHeaders: Record<string, string | null> = {};
    for (const row of headers) {
      if (!row.name.trim()) continue;
      if (row.stored && row.removed) secretHeaders[row.name] = null;
      else if (row.stored) {
        if (row.value) secretHeaders[row.name] = row.value;
      } else if (row.secret) secretHeaders[row.name.trim()] = row.value;
      else customHeaders[row.name.trim()] = row.value;
    }
    const fields = {
      name,
      url,
      httpMethod,
      customHeaders,
      ...(Object.keys(secretHeaders).length > 0 ? { secretHeaders } : {}),
      requestBody:
        requestBody === '' && requestBodySecret && website?.requestBodySecret
          ? undefined
          : requestBody || null,
      requestBodySecret,
      followRedirects,
      maxRedirects: Number(maxRedirects),
      cookieHandling,
      mtlsEnabled,
      ...(mtlsClientCert !== null ? { mtlsClientCert } : {}),
      ...(mtlsClientKey !== null ? { mtlsClientKey } : {}),
      checkInterval: Number(checkInterval),
      ...(timeoutSeconds.trim() ? { timeoutSeconds: Number(timeoutSeconds) } : {}),
      regions: regions
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
      paused,
      notificationChannelIds: channelIds,
    };
    const answer = website
      ? await api.PATCH('/api/websites/{websiteRef}', {
          params: { path: { websiteRef: website.publicId } },
          body: { ...fields, customerId: Number(customerId) },
        })
      : await api.POST('/api/websites', { body: { ...fields, customerId: Number(customerId) } });
    setBusy(false);
    if (answer.data) {
      setErrors({});
      setMessage(null);
      if (website) setSaved(true);
      else route(`/websites/${answer.data.publicId}/edit?created=1`);
      return;
    }
    const named = fieldErrors(answer.error);
    setErrors(named);
    setMessage(problemText(answer.error));
  };

  const readPem = async (file: File | undefined, set: (pem: string | null) => void) => {
    set(file ? await file.text() : null);
  };
  const headerError = (n: string) => errors[`customHeaders.${n}`] ?? errors[`secretHeaders.${n}`];

  return (
    <form onSubmit={save} noValidate aria-label="Website">
      {query.created && !saved && (
        <Notice>The website is added and scheduled. Set up its checks below.</Notice>
      )}
      {saved && <Notice>Saved.</Notice>}
      <FormError message={message} />
      <fieldset>
        <legend>What to check</legend>
        <Field label="Customer" error={errors.customerId}>
          {(props) => (
            <select
              {...props}
              required
              value={customerId}
              onChange={(e) => setCustomerId(e.currentTarget.value)}
            >
              <option value="">Choose a customer</option>
              {(customers.data ?? []).map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Name" error={errors.name}>
          {(props) => (
            <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="URL" error={errors.url} hint="http:// or https://">
          {(props) => (
            <input
              {...props}
              type="url"
              required
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="row">
          <Field label="Method" error={errors.httpMethod}>
            {(props) => (
              <select
                {...props}
                value={httpMethod}
                onChange={(e) => setHttpMethod(e.currentTarget.value as Schemas['HttpMethod'])}
              >
                {METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Check every (seconds)" error={errors.checkInterval}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                value={checkInterval}
                onInput={(e) => setCheckInterval(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field
            label="Timeout (seconds)"
            error={errors.timeoutSeconds}
            hint={website ? undefined : 'Empty: the default'}
          >
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                value={timeoutSeconds}
                onInput={(e) => setTimeoutSeconds(e.currentTarget.value)}
              />
            )}
          </Field>
        </div>
        <Field label="Regions" error={errors.regions} hint="Comma-separated; empty: the package’s regions">
          {(props) => <input {...props} value={regions} onInput={(e) => setRegions(e.currentTarget.value)} />}
        </Field>
        <Check label="Paused (not checked)" checked={paused} onChange={setPaused} error={errors.paused} />
      </fieldset>

      <fieldset>
        <legend>Request headers</legend>
        {headers.length === 0 && <p class="muted">No headers: add one for an API key or a cookie.</p>}
        {headers.map((row, index) => (
          <div class="row header-row" key={index}>
            <Field label={`Header ${index + 1} name`} error={headerError(row.name)}>
              {(props) => (
                <input
                  {...props}
                  value={row.name}
                  readOnly={row.stored}
                  onInput={(e) => updateHeader(index, { name: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              label={`Header ${index + 1} value`}
              hint={row.stored ? 'Secret, set: never shown. Type a value to replace it.' : undefined}
            >
              {(props) =>
                row.secret ? (
                  <input
                    {...props}
                    type="password"
                    autocomplete="off"
                    value={row.value}
                    disabled={row.removed}
                    onInput={(e) => updateHeader(index, { value: e.currentTarget.value })}
                  />
                ) : (
                  <input
                    {...props}
                    autocomplete="off"
                    value={row.value}
                    onInput={(e) => updateHeader(index, { value: e.currentTarget.value })}
                  />
                )
              }
            </Field>
            {row.stored ? (
              <Check
                label={`Remove ${row.name}`}
                checked={row.removed}
                onChange={(removed) => updateHeader(index, { removed })}
              />
            ) : (
              <>
                <Check
                  label={`Header ${index + 1} is secret (write-only)`}
                  checked={row.secret}
                  onChange={(secret) => updateHeader(index, { secret })}
                />
                <button
                  type="button"
                  onClick={() => setHeaders((rows) => rows.filter((_, i) => i !== index))}
                >
                  Remove header {index + 1}
                </button>
              </>
            )}
          </div>
        ))}
        <FormError message={errors.customHeaders ?? errors.secretHeaders} />
        <button
          type="button"
          onClick={() =>
            setHeaders((rows) => [
              ...rows,
              { name: '', value: '', secret: false, stored: false, removed: false },
            ])
          }
        >
          Add a header
        </button>
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
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={requestBody}
              onInput={(e) => setRequestBody(e.currentTarget.value)}
            />
          )}
        </Field>
        <Check
          label="The body is secret (write-only)"
          checked={requestBodySecret}
          onChange={setRequestBodySecret}
        />
        <Check label="Follow redirects" checked={followRedirects} onChange={setFollowRedirects} />
        <div class="row">
          <Field label="At most redirects" error={errors.maxRedirects}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                value={maxRedirects}
                onInput={(e) => setMaxRedirects(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Cookies" error={errors.cookieHandling}>
            {(props) => (
              <select
                {...props}
                value={cookieHandling}
                onChange={(e) => setCookieHandling(e.currentTarget.value as Schemas['CookieHandling'])}
              >
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
          checked={mtlsEnabled}
          onChange={setMtlsEnabled}
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
              checked={channelIds.includes(channel.id)}
              onChange={(on) =>
                setChannelIds((ids) => (on ? [...ids, channel.id] : ids.filter((id) => id !== channel.id)))
              }
            />
          ))}
        </div>
        {errors.notificationChannelIds && <p class="error-text">⚠ {errors.notificationChannelIds}</p>}
      </fieldset>
      <button type="submit" class="primary" disabled={busy}>
        {website ? 'Save the website' : 'Add the website'}
      </button>
    </form>
  );
}
