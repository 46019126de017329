import { useState } from 'preact/hooks';
import { patchOrganizationBody } from '../../../../libs/organizations/organization.schema.js';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { organizationKeys, useOrganization, useOrganizationLogo } from '../api/organization.js';
import { write } from '../api/query.js';
import { PolicyField } from '../escalation/policy-field.js';
import { knownZones } from '../maintenance/zoned-time.js';
import { SsoSettings } from '../sso/sso-settings.js';
import { Confirm } from '../ui/confirm.js';
import { Field, FormError, Loading, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

type Organization = Schemas['Organization'];
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const MAX_LOGO_BYTES = 256 * 1024;

/** The organization's settings (admins): its name, time zone, and how its client reports look. */
export function Settings() {
  const organization = useOrganization();
  const logo = useOrganizationLogo(organization.data?.branding.logo?.sha256 ?? null);
  if (!organization.data) return <Loading error={organization.error} />;
  return (
    <section>
      <h1>Settings</h1>
      <SettingsForm organization={organization.data} />
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
      <LogoForm hasLogo={Boolean(organization.data.branding.logo)} />
      <h2>Single sign-on</h2>
      <SsoSettings organization={organization.data} />
      <p>
        <a href="/scim">SCIM provisioning</a>: Entra ID or Okta creates, deactivates and removes people.
      </p>
    </section>
  );
}

function SettingsForm({ organization }: { organization: Organization }) {
  const form = useForm(
    {
      name: organization.name,
      timezone: organization.timezone,
      accent: organization.branding.accentColor ?? '',
      footer: organization.branding.footerText ?? '',
      escalationPolicyId: organization.escalationPolicyId ? String(organization.escalationPolicyId) : '',
    },
    {
      // The API's own schema: a value it would refuse is shown at its field before anything is sent.
      schema: patchOrganizationBody,
      body: ({ name, timezone, accent, footer, escalationPolicyId }) => ({
        name,
        timezone,
        branding: { accentColor: accent || null, footerText: footer || null },
        escalationPolicyId: escalationPolicyId ? Number(escalationPolicyId) : null,
      }),
    },
  );
  const { errors } = form;
  const zones = knownZones();
  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (body) form.answered(await write(api.PATCH('/api/organization', { body }), organizationKeys.settings));
  };
  return (
    <form class="card" onSubmit={save} noValidate aria-label="Organization">
      <FormError message={form.message} />
      {form.saved && <Notice>Saved.</Notice>}
      <Field label="Name" error={errors.name}>
        {(props) => <input {...props} required maxLength={200} {...form.bind('name')} />}
      </Field>
      <Field label="Time zone" error={errors.timezone} hint="Reports’ days and their e-mail hours are in it">
        {(props) => (
          <select {...props} {...form.bind('timezone')}>
            {(zones.includes(form.values.timezone) ? zones : [form.values.timezone, ...zones]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        )}
      </Field>
      <PolicyField
        label="Default escalation policy"
        about="For websites whose own and whose customer’s choose none."
        bound={form.bind('escalationPolicyId')}
        error={errors.escalationPolicyId}
        fallbacks={[]}
      />
      <Field
        label="Accent colour of reports"
        error={errors['branding.accentColor']}
        hint="Like #1570ef; empty: the default blue"
      >
        {(props) => (
          <input
            {...props}
            pattern="#[0-9a-fA-F]{6}"
            placeholder="#1570ef"
            {...form.bind('accent', 'branding.accentColor')}
          />
        )}
      </Field>
      <Field label="Footer of reports" error={errors['branding.footerText']}>
        {(props) => <input {...props} maxLength={300} {...form.bind('footer', 'branding.footerText')} />}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          Save
        </button>
      </div>
    </form>
  );
}

/** Uploads, replaces or removes the logo; the settings (which name its hash) are read again after. */
function LogoForm({ hasLogo }: { hasLogo: boolean }) {
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
    const answer = await write(
      api.PUT('/api/organization/logo', { body: { contentType: type, data: btoa(binary) } }),
      organizationKeys.settings,
    ).finally(() => setBusy(false));
    if (answer.error) setError(fieldErrors(answer.error).data ?? problemText(answer.error));
    input.value = '';
  };
  const [confirming, setConfirming] = useState(false);
  const remove = async () => {
    setConfirming(false);
    const answer = await write(api.DELETE('/api/organization/logo'), organizationKeys.settings);
    if (answer.error) setError(problemText(answer.error));
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
