import { useState } from 'preact/hooks';
import { createInvitationBody } from '../../../../libs/people/invitation.schema.js';
import { api, problemText, type Schemas } from '../api/client.js';
import { useVisibleCustomers } from '../api/organization.js';
import { type Invitation, peopleKeys, type User, useInvitations, useUsers } from '../api/people.js';
import { write } from '../api/query.js';
import { CustomerOptions } from '../customers/customer-options.js';
import { useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { Field, FormActions, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { Tokens } from './account.js';

type Role = Schemas['Role'];

const ROLES: Array<[Role, string]> = [
  ['viewer', 'Viewer — looks at everything'],
  ['editor', 'Editor — changes customers and monitoring'],
  ['admin', 'Admin — also people, packages and tokens'],
  ['owner', 'Owner — also owners'],
  ['client', 'Client — sees one customer only'],
];
const roleName = (role: Role) => role.charAt(0).toUpperCase() + role.slice(1);

/** Users, invitations and API tokens (admins). */
export function People() {
  const customers = useVisibleCustomers();
  const customerName = (id: number | null) =>
    id === null ? '' : (customers.data?.find((c) => c.id === id)?.name ?? `customer ${id}`);
  return (
    <section>
      <h1>People</h1>
      <Users customers={customers.data ?? []} customerName={customerName} />
      <Invitations customers={customers.data ?? []} customerName={customerName} />
      <Tokens />
    </section>
  );
}

function RoleField(props: {
  label: string;
  value: Role;
  onChange: (role: Role) => void;
  error: string | undefined;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(field) => (
        <select
          {...field}
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value as Role)}
        >
          {ROLES.map(([role, label]) => (
            <option key={role} value={role}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function CustomerSelect({
  customers,
  value,
  onChange,
  error,
  label = 'Customer (for a client)',
}: {
  customers: Schemas['Customer'][];
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  label?: string;
}) {
  return (
    <Field label={label} error={error}>
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          <CustomerOptions customers={customers} />
        </select>
      )}
    </Field>
  );
}

function Users({
  customers,
  customerName,
}: {
  customers: Schemas['Customer'][];
  customerName: (id: number | null) => string;
}) {
  const { caller } = useSession();
  const me = caller?.kind === 'person' ? caller.user.id : null;
  const users = useUsers();
  const [editing, setEditing] = useState<User | null>(null);
  const [removing, setRemoving] = useState<User | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const remove = async (user: User) => {
    setRemoving(null);
    const { error, response } = await write(
      api.DELETE('/api/users/{id}', { params: { path: { id: user.id } } }),
      peopleKeys.users,
    );
    setMessage(response.ok ? null : problemText(error));
  };
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <FormError message={message ?? users.error} />
      {users.data && (
        <table class="stack" id="users">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Two-factor</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((u) => (
              <tr key={u.id}>
                <td data-label="Name">
                  {u.name}
                  {u.id === me && ' (you)'}
                  {u.deactivatedAt && (
                    <span class="muted" title={`Since ${new Date(u.deactivatedAt).toLocaleString()}`}>
                      {' · deactivated'}
                    </span>
                  )}
                  {u.signsInWith === 'identity-provider' && <span class="muted">{' · single sign-on'}</span>}
                </td>
                <td data-label="E-mail" class="url">
                  {u.email}
                </td>
                <td data-label="Role">
                  {roleName(u.role)}
                  {u.role === 'client' && ` of ${customerName(u.customerId)}`}
                </td>
                <td data-label="Two-factor">{u.twoFactorEnabled ? '✓ On' : '– Off'}</td>
                <td data-label="Actions">
                  {u.id !== me && (
                    <ul class="inline">
                      <li>
                        <button type="button" class="link" onClick={() => setEditing(u)}>
                          Change role <span class="visually-hidden">of {u.name}</span>
                        </button>
                      </li>
                      <li>
                        <button type="button" class="link" onClick={() => setRemoving(u)}>
                          Remove <span class="visually-hidden">{u.name}</span>
                        </button>
                      </li>
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <RoleForm key={editing.id} user={editing} customers={customers} onDone={() => setEditing(null)} />
      )}
      <Confirm
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove the user"
        cancelLabel="Keep the user"
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        They are signed out everywhere and can no longer sign in.
      </Confirm>
    </section>
  );
}

function RoleForm({
  user,
  customers,
  onDone,
}: {
  user: User;
  customers: Schemas['Customer'][];
  onDone: () => void;
}) {
  const form = useForm(
    { role: user.role as Role, customerId: String(user.customerId ?? '') },
    {
      body: ({ role, customerId }) => ({
        role,
        customerId: role === 'client' ? Number(customerId) || null : null,
      }),
    },
  );
  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = await write(
      api.PATCH('/api/users/{id}', { params: { path: { id: user.id } }, body }),
      peopleKeys.users,
    );
    if (form.answered(answer)) onDone();
  };
  return (
    <form onSubmit={save} noValidate aria-label={`Role of ${user.name}`}>
      <h3>Role of {user.name}</h3>
      <FormError message={form.message} />
      <RoleField
        label="Role"
        value={form.values.role}
        onChange={(role) => form.set('role', role)}
        error={form.errors.role}
      />
      {form.values.role === 'client' && (
        <CustomerSelect
          customers={customers}
          value={form.values.customerId}
          onChange={(id) => form.set('customerId', id)}
          error={form.errors.customerId}
        />
      )}
      <FormActions submit={'Save the role'} onCancel={onDone} />
    </form>
  );
}

function Invitations({
  customers,
  customerName,
}: {
  customers: Schemas['Customer'][];
  customerName: (id: number | null) => string;
}) {
  const invitations = useInvitations();
  const blank = { email: '', role: 'viewer' as Role, customerId: '' };
  const form = useForm(blank, {
    // The API's own schema: an address it would refuse is shown at its field before anything is sent.
    schema: createInvitationBody,
    body: ({ email, role, customerId }) => ({
      email,
      role,
      ...(role === 'client' && customerId ? { customerId: Number(customerId) } : {}),
    }),
  });
  const [sent, setSent] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const invite = async (event: Event) => {
    event.preventDefault();
    setSent(null);
    const body = form.check();
    if (!body) return;
    const answer = await write(api.POST('/api/invitations', { body }), peopleKeys.invitations);
    if (!form.answered(answer)) return;
    setSent(`Invitation sent to ${body.email}.`);
    form.reset({ ...form.values, email: '' });
  };
  const revoke = async (invitation: Invitation) => {
    setRevoking(null);
    const { error, response } = await write(
      api.DELETE('/api/invitations/{id}', { params: { path: { id: invitation.id } } }),
      peopleKeys.invitations,
    );
    setMessage(response.ok ? null : problemText(error));
  };
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <FormError message={message ?? invitations.error} />
      {invitations.data?.length === 0 && <p>No open invitations: invite someone below.</p>}
      {invitations.data && invitations.data.length > 0 && (
        <table class="stack" id="invitations">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Link valid until</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.map((i) => (
              <tr key={i.id}>
                <td data-label="E-mail" class="url">
                  {i.email}
                </td>
                <td data-label="Role">
                  {roleName(i.role)}
                  {i.role === 'client' && ` of ${customerName(i.customerId)}`}
                </td>
                <td data-label="Link valid until">{new Date(i.expiresAt).toLocaleString()}</td>
                <td data-label="Action">
                  <button type="button" class="link" onClick={() => setRevoking(i)}>
                    Revoke <span class="visually-hidden">the invitation of {i.email}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={invite} noValidate aria-label="Invite someone">
        <h3>Invite someone</h3>
        {sent && <Notice>{sent}</Notice>}
        <FormError message={form.message} />
        <div class="row">
          <Field label="Their e-mail" error={form.errors.email}>
            {(props) => <input {...props} type="email" required {...form.bind('email')} />}
          </Field>
          <RoleField
            label="Their role"
            value={form.values.role}
            onChange={(role) => form.set('role', role)}
            error={form.errors.role}
          />
        </div>
        {form.values.role === 'client' && (
          <CustomerSelect
            customers={customers}
            value={form.values.customerId}
            onChange={(id) => form.set('customerId', id)}
            error={form.errors.customerId}
            label="Their customer"
          />
        )}
        <button type="submit" class="primary">
          Send the invitation
        </button>
      </form>
      <Confirm
        open={revoking !== null}
        title={`Revoke the invitation of ${revoking?.email ?? ''}?`}
        confirmLabel="Revoke the invitation"
        cancelLabel="Keep it"
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        Its link stops working; you can invite them again later.
      </Confirm>
    </section>
  );
}
