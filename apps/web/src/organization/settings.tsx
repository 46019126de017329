import { useState } from 'preact/hooks';
import { api, fieldErrors, must, problemText, type Schemas } from '../api/client.js';
import { Confirm } from '../ui/confirm.js';
import { Field, FormError, Loading, Notice } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';

type Organization = Schemas['Organization'];
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const MAX_LOGO_BYTES = 256 * 1024;

/** The organization's settings (admins): its name, time zone, and how its client reports look. */
export function Settings() {
  const organization = useLoad(async () => must(await api.GET('/api/organization')), []);
  const logo = useLoad(async () => {
    const answer = await api.GET('/api/organization/logo');
    return answer.data ?? null;
  }, [organization.data?.branding.logo?.sha256]);
  if (!organization.data) return <Loading error={organization.error} />;
  return (
    <section>
      <h1>Settings</h1>
      <SettingsForm organization={organization.data} onSaved={() => void organization.reload()} />
      <h2>Logo on reports</h2>
      {logo.data ? (
        <p>
          <img
            src={`data:${logo.data.contentType};base64,${logo.data.data}`}
            alt="The current logo"
            class="logo-preview"
          />
        </p>
      ) : (
        <p>No logo yet: reports show the organization’s name.</p>
      )}
      <LogoForm
        hasLogo={Boolean(organization.data.branding.logo)}
        onChanged={() => void organization.reload()}
      />
    </section>
  );
}

function SettingsForm({ organization, onSaved }: { organization: Organization; onSaved: () => void }) {
  const [name, setName] = useState(organization.name);
  const [timezone, setTimezone] = useState(organization.timezone);
  const [accent, setAccent] = useState(organization.branding.accentColor ?? '');
  const [footer, setFooter] = useState(organization.branding.footerText ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const zones = Intl.supportedValuesOf('timeZone');
  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const answer = await api.PATCH('/api/organization', {
      body: { name, timezone, branding: { accentColor: accent || null, footerText: footer || null } },
    });
    if (answer.data) {
      setErrors({});
      setMessage(null);
      setSaved(true);
      onSaved();
    } else {
      setErrors(fieldErrors(answer.error));
      setMessage(problemText(answer.error));
    }
  };
  return (
    <form class="card" onSubmit={save} aria-label="Organization">
      <FormError message={message} />
      {saved && <Notice>Saved.</Notice>}
      <Field label="Name" error={errors.name}>
        {(props) => (
          <input
            {...props}
            value={name}
            required
            maxLength={200}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Time zone" error={errors.timezone} hint="Reports’ days and their e-mail hours are in it">
        {(props) => (
          <select {...props} value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)}>
            {[...new Set(['UTC', ...zones])].map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Accent colour of reports"
        error={errors['branding.accentColor']}
        hint="Like #1570ef; empty: the default blue"
      >
        {(props) => (
          <input
            {...props}
            value={accent}
            pattern="#[0-9a-fA-F]{6}"
            placeholder="#1570ef"
            onInput={(e) => setAccent(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Footer of reports" error={errors['branding.footerText']}>
        {(props) => (
          <input
            {...props}
            value={footer}
            maxLength={300}
            onInput={(e) => setFooter(e.currentTarget.value)}
          />
        )}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          Save
        </button>
      </div>
    </form>
  );
}

function LogoForm({ hasLogo, onChanged }: { hasLogo: boolean; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setError(null);
    const type = LOGO_TYPES.find((t) => t === file.type);
    if (!type) return setError('Choose a PNG, JPEG or WebP image');
    if (file.size > MAX_LOGO_BYTES)
      return setError(`The image is ${Math.round(file.size / 1024)} KB: at most 256 KB`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    setBusy(true);
    const answer = await api
      .PUT('/api/organization/logo', { body: { contentType: type, data: btoa(binary) } })
      .finally(() => setBusy(false));
    if (answer.error) setError(fieldErrors(answer.error).data ?? problemText(answer.error));
    else onChanged();
    input.value = '';
  };
  const [confirming, setConfirming] = useState(false);
  const remove = async () => {
    setConfirming(false);
    const answer = await api.DELETE('/api/organization/logo');
    if (answer.error) setError(problemText(answer.error));
    else onChanged();
  };
  return (
    <div class="card">
      <FormError message={error} />
      <Field label={hasLogo ? 'Replace the logo' : 'Upload a logo'} hint="PNG, JPEG or WebP, at most 256 KB">
        {(props) => (
          <input
            {...props}
            type="file"
            accept={LOGO_TYPES.join(',')}
            disabled={busy}
            onChange={(e) => void upload(e.currentTarget)}
          />
        )}
      </Field>
      {hasLogo && (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Remove the logo
        </button>
      )}
      <Confirm
        open={confirming}
        title="Remove the logo?"
        confirmLabel="Remove the logo"
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        Reports will show the organization’s name instead.
      </Confirm>
    </div>
  );
}
