import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { organizationKeys } from '../api/organization.js';
import { useUsers } from '../api/people.js';
import { write } from '../api/query.js';
import { useSession } from '../session.js';
import { Check, FormError, Notice } from '../ui/form.js';
import { useIdentityProviders } from './sso-api.js';

/**
 * "Require single sign-on" and its break-glass owners, in the organization's settings: with it on,
 * passwords sign in only the owners named here (for the day the provider fails).
 */
export function SsoSettings({ organization }: { organization: Schemas['Organization'] }) {
  const users = useUsers();
  const providers = useIdentityProviders();
  const { caller } = useSession();
  // Who may still use a password is the owners' to say (the API refuses anyone else).
  const isOwner = caller?.kind === 'person' && caller.user.role === 'owner';
  const [requireSso, setRequireSso] = useState(organization.requireSso);
  const [breakGlass, setBreakGlass] = useState<number[]>(organization.breakGlassUserIds);
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const owners = (users.data ?? []).filter((user) => user.role === 'owner');
  const enabled = (providers.data ?? []).filter((provider) => provider.enabled).length;
  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const answer = await write(
      api.PATCH('/api/organization', { body: { requireSso, breakGlassUserIds: breakGlass } }),
      organizationKeys.settings,
    );
    if (answer.response.ok) {
      setMessage(null);
      setSaved(true);
    } else
      setMessage(
        answer.error?.errors?.map((e) => e.message).join('; ') ||
          answer.error?.detail ||
          'Not saved: try again.',
      );
  };
  return (
    <form class="card" onSubmit={save} noValidate aria-label="Single sign-on">
      <FormError message={message ?? users.error ?? providers.error} />
      {saved && <Notice>Saved.</Notice>}
      <p>
        {enabled === 0
          ? 'No identity provider is enabled yet: '
          : `${enabled} identity provider(s) enabled. `}
        <a href="/identity-providers">Manage identity providers</a>
      </p>
      {!isOwner && <p class="hint">Only an owner of your organization can change these: ask one.</p>}
      <Check
        label="Require single sign-on: refuse password sign-ins (but the break-glass owners’)"
        disabled={!isOwner}
        checked={requireSso}
        onChange={(checked) => {
          setRequireSso(checked);
          setSaved(false);
        }}
      />
      <fieldset>
        <legend>Break-glass owners</legend>
        <p class="muted">They may still sign in with their password while single sign-on is required.</p>
        {owners.map((owner) => (
          <Check
            key={owner.id}
            label={`${owner.name} (${owner.email})`}
            disabled={!isOwner}
            checked={breakGlass.includes(owner.id)}
            onChange={(checked) => {
              setBreakGlass(checked ? [...breakGlass, owner.id] : breakGlass.filter((id) => id !== owner.id));
              setSaved(false);
            }}
          />
        ))}
      </fieldset>
      {isOwner && (
        <div class="actions">
          <button type="submit" class="primary">
            Save single sign-on
          </button>
        </div>
      )}
    </form>
  );
}
